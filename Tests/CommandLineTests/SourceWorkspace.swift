import Foundation
import StoreSupport
import Testing

/// A workspace whose one source runs `feed.sh`, which records each start in `starts.txt` and prints an item for
/// each word of `ids.txt`; the word `WAIT` makes it wait until the file `release` exists (or the workspace is gone).
final class SourceWorkspace {
    let workspace: Workspace
    var config: [String] { ["--config", workspace.url.path] }

    /// `schedule` and `expiration` are the source's; `extraLines` end scheduler.yaml (indented by four spaces, they are keys of the source).
    /// The plugin's timeout is long: a feed that waits for the test's `release` must outlast the test process's
    /// pauses on a loaded 2-core machine (CI once saw one past 2 minutes), and no test here is about timeouts.
    init(gate: Bool = true, schedule: String = "monthly", expiration: String = "30d", extraLines: String = "") throws {
        workspace = try Workspace()
        try workspace.write("scheduler.yaml", """
            store: { sqlite: { path: index.sqlite } }
            service: { tick: 1h, listen: 127.0.0.1:0 }
            sources:
              docs:
                plugin: command
                domain: com.test.docs
                gate: docs_gate
                schedule: \(schedule)
                options: { command: [./feed.sh], timeout: 30m }
                expiration: \(expiration)
            \(extraLines)
            """)
        try setGate(on: gate)
        try writeScript("""
            #!/bin/sh
            echo started >> starts.txt
            for id in $(cat ids.txt); do
                if [ "$id" = WAIT ]; then
                    while [ ! -f release ] && [ -f ids.txt ]; do sleep 0.05; done
                    continue
                fi
                printf '{"uniqueIdentifier":"%s","domainIdentifier":"%s","title":"Doc %s"}\\n' "$id" "$SCHEDULER_DOMAIN" "$id"
            done
            """)
    }

    /// Rewrites `scheduler.yaml` with `old` replaced by `new`.
    func editConfig(replacing old: String, with new: String) throws {
        let text = try String(contentsOfFile: workspace.path("scheduler.yaml"), encoding: .utf8)
        #expect(text.contains(old), "scheduler.yaml holds no '\(old)'")
        try workspace.write("scheduler.yaml", text.replacingOccurrences(of: old, with: new))
    }

    /// Adds a monthly `posts` source `blog` (domain `com.test.blog`, the docs' gate) with `options`, a YAML flow mapping.
    func addBlogSource(options: String) throws {
        let text = try String(contentsOfFile: workspace.path("scheduler.yaml"), encoding: .utf8)
        try workspace.write("scheduler.yaml", text + """

              blog:
                plugin: posts
                domain: com.test.blog
                gate: docs_gate
                schedule: monthly
                options: \(options)

            """)
    }

    /// Replaces `feed.sh`, executable.
    func writeScript(_ text: String) throws {
        try workspace.write("feed.sh", text)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: workspace.path("feed.sh"))
    }

    func setGate(on: Bool) throws {
        try workspace.write("gates.yaml", "gates:\n  docs_gate: { enabled: \(on) }\n")
    }

    func setFeed(_ ids: String) throws { try workspace.write("ids.txt", ids + "\n") }

    /// How many times the feed has started.
    var starts: Int {
        ((try? String(contentsOfFile: workspace.path("starts.txt"), encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> SchedulerProcess.Outcome {
        try await SchedulerProcess.run(arguments + config, environment: environment)
    }

    /// The identifiers `scheduler search doc` finds, sorted.
    func indexed() async throws -> [String] {
        let outcome = try await run(["search", "doc", "--json", "--limit", "100"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let hits = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        return ((hits?["hits"] as? [[String: Any]]) ?? []).compactMap { $0["uniqueIdentifier"] as? String }.sorted()
    }

    /// The one unit of `scheduler status --json`.
    func status() async throws -> [String: Any] {
        let outcome = try await run(["status", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        return ((report?["units"] as? [[String: Any]])?.first) ?? [:]
    }
}

extension SourceWorkspace {
    /// A workspace on a new PostgreSQL database, reached through `port` (the server's own when `nil`), with
    /// `settings` added to the store's mapping; and the server's port.
    static func onPostgres(port: Int? = nil, settings: String = "") async throws -> (SourceWorkspace, serverPort: Int) {
        let setup = try SourceWorkspace()
        guard case .postgres(var location) = try await StoreBackend.postgres.freshLocation(in: setup.workspace.url) else {
            throw CocoaError(.featureUnsupported)
        }
        let serverPort = location.port
        if let port { location.port = port }
        try setup.editConfig(replacing: "store: { sqlite: { path: index.sqlite } }", with: "store: { postgres: { url: \"\(location)\", tls: disable\(settings) } }")
        return (setup, serverPort)
    }
}
