import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The rule for paths the config names: the database file, a folder of content.
///
/// The config folder is trusted (operators write it), so a path may be absolute or climb out with `..`. What it
/// names is checked all the same, so that a typo cannot make the scheduler write a database into the kernel's
/// pseudo-file systems or read content from them: a path into `/proc`, `/sys` or `/dev` (after symbolic links are
/// followed) is refused, and so is an existing path of the wrong kind (a device, a pipe, a folder for a file).
public enum ConfigPathRule {
    /// What the path must name.
    public enum Kind: Sendable {
        case file, folder
    }

    static let forbiddenRoots = ["/proc", "/sys", "/dev"]

    /// `path` resolved against `folder` (the config folder) when it is relative.
    public static func absolute(_ path: String, relativeTo folder: String) -> String {
        path.hasPrefix("/") ? path : URL(fileURLWithPath: folder).appendingPathComponent(path).standardizedFileURL.path
    }

    /// Why `path` (absolute) cannot be used as a `kind`, or `nil` when it can.
    public static func problem(with path: String, expecting kind: Kind) -> String? {
        let resolved = resolvingSymbolicLinks(path)
        if let root = forbiddenRoots.first(where: { resolved == $0 || resolved.hasPrefix($0 + "/") }) {
            return "\(path) is inside \(root), a kernel file system; choose a path under a data folder such as /var/lib/scheduler"
        }
        var info = stat()
        guard stat(resolved, &info) == 0 else { return nil }
        let type = info.st_mode & S_IFMT
        switch (kind, type) {
        case (.file, S_IFREG), (.folder, S_IFDIR): return nil
        case (.file, S_IFDIR): return "\(path) is a folder, not a file"
        case (.folder, S_IFREG): return "\(path) is a file, not a folder"
        default: return "\(path) is a device, pipe or socket, not a \(kind == .file ? "regular file" : "folder")"
        }
    }

    /// `path` with `..` removed and every symbolic link of its longest existing ancestor followed.
    private static func resolvingSymbolicLinks(_ path: String) -> String {
        var existing = URL(fileURLWithPath: path).standardizedFileURL.path
        var rest: [String] = []
        while realpath(existing, nil) == nil, existing != "/" {
            rest.insert((existing as NSString).lastPathComponent, at: 0)
            existing = (existing as NSString).deletingLastPathComponent
        }
        guard let resolved = realpath(existing, nil) else { return path }
        defer { free(resolved) }
        return ([String(cString: resolved)] + rest).joined(separator: "/").replacingOccurrences(of: "//", with: "/")
    }
}
