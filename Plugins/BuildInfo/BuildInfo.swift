import Foundation
import PackagePlugin

/// Writes `BuildInfo.swift` into the target it is applied to: the git commit the sources were built from
/// (`git describe --always --dirty`: the abbreviated commit, `-dirty` when the work tree had changes), or
/// `unknown` outside a git checkout. Run before every build; the file is replaced only when its text changes, so
/// an unchanged commit rebuilds nothing.
@main
struct BuildInfo: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildInfo.swift")
        let script = """
            commit=$(git -C "$1" describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
            printf '/// Where this binary comes from.\\nenum BuildInfo {\\n    /// The git commit it was built from.\\n    static let commit = "%s"\\n}\\n' "$commit" > "$2.new"
            cmp -s "$2.new" "$2" && rm "$2.new" || mv "$2.new" "$2"
            """
        return [
            .prebuildCommand(
                displayName: "Recording the git commit of \(target.name)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "sh", context.package.directoryURL.path, output.path],
                outputFilesDirectory: context.pluginWorkDirectoryURL
            )
        ]
    }
}
