import Foundation
import ProcessSupport
import Testing

/// What the command line says about itself: its version and its manual page, made from the same definitions.
@Suite("The command line describes itself")
struct CommandLineDocumentationTests {
    static let packageDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `--version` names the release and the commit the binary was built from (as `git describe` says it, so a
    /// build from a changed work tree says `-dirty`).
    @Test func theVersionNamesTheReleaseAndTheCommit() async throws {
        let outcome = try await SchedulerProcess.run(["--version"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let line = outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let match = try #require(line.wholeMatch(of: /(\d+)\.(\d+)\.(\d+) \(commit (?<commit>[0-9a-f]{12}(-dirty)?|unknown)\)/), "\(line)")
        // Built outside a git checkout (or without git), the commit is `unknown`, and there is nothing to compare.
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/git") else {
            #expect(match.output.commit == "unknown")
            return
        }
        let output = Pipe()
        let git = try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/git"), arguments: ["-C", Self.packageDirectory.path, "rev-parse", "HEAD"],
            standardOutput: .pipe(output)
        )
        let head = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        git.waitUntilExit()
        // The binary is built from this checkout: its commit is the checkout's (HEAD when the build ran).
        #expect(git.terminationStatus != 0 || head.hasPrefix(String(match.output.commit.prefix(12))), "\(line) vs HEAD \(head)")
    }

    /// The committed manual page (`scripts/generate-manual` writes it) holds every command and option the binary
    /// shows in its help: it was regenerated after the last change to them.
    @Test func theManualPageHoldsEveryCommandAndOption() async throws {
        let manual = try String(contentsOf: Self.packageDirectory.appendingPathComponent("docs/man/scheduler.1"), encoding: .utf8)
        let outcome = try await SchedulerProcess.run(["--experimental-dump-help"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let help = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        var missing: [String] = []
        /// How many commands show each option: the page describes it under each of them.
        var shown: [String: Int] = [:]
        func check(_ command: [String: Any], path: String) {
            guard command["shouldDisplay"] as? Bool != false, let name = command["commandName"] as? String else { return }
            if !path.isEmpty, !manual.contains(".It Em \(name)") { missing.append("the command \(path) \(name)") }
            if let abstract = command["abstract"] as? String, !manual.contains(abstract) { missing.append("the abstract of \(path) \(name)") }
            for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["shouldDisplay"] as? Bool != false {
                for case let (kind?, long?) in (argument["names"] as? [[String: String]] ?? []).map({ ($0["kind"], $0["name"]) }) where kind == "long" {
                    shown[long, default: 0] += 1
                }
            }
            for subcommand in command["subcommands"] as? [[String: Any]] ?? [] { check(subcommand, path: path.isEmpty ? name : "\(path) \(name)") }
        }
        check(try #require(help["command"] as? [String: Any]), path: "")
        let lines = manual.split(separator: "\n")
        for (option, commands) in shown.sorted(by: { $0.key < $1.key }) {
            let described = lines.filter { $0.hasPrefix(".It Fl -\(option) ") || $0 == ".It Fl -\(option)" || $0.contains(" , -\(option)") }.count
            if described < commands { missing.append("--\(option) (shown by \(commands) commands, described \(described) times)") }
        }
        #expect(missing.isEmpty, "run scripts/generate-manual: docs/man/scheduler.1 lacks \(missing.joined(separator: ", "))")
    }
}
