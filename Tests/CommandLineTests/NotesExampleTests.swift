import Foundation
import Testing

/// The Python example of docs/plugin-protocol.md (`examples/notes/notes.py`, run by Debian's `python3`) driven by the
/// real `scheduler`: a full run, an incremental one with updates and deletions, and its own check.
@Suite("The incremental Python example")
struct NotesExampleTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func notes(_ notes: [(String, String, String)], deleted: [(String, String)] = []) -> String {
        let entries = notes.map { #"{"id": "\#($0.0)", "title": "\#($0.1)", "body": "About \#($0.1)", "updated": "\#($0.2)"}"# }
        let gone = deleted.map { #"{"id": "\#($0.0)", "at": "\#($0.1)"}"# }
        return #"{"notes": [\#(entries.joined(separator: ", "))], "deleted": [\#(gone.joined(separator: ", "))]}"#
    }

    @Test func aFullRunThenAnIncrementalOneThenItsCheck() async throws {
        let workspace = try Workspace()
        try workspace.write("scheduler.yaml", """
            store: { sqlite: { path: index.sqlite } }
            sources:
              notes:
                plugin: command
                domain: com.test.notes
                gate: notes_gate
                schedule: monthly
                incremental: hourly
                options:
                  command: [\(Self.repository.appendingPathComponent("examples/notes/notes.py").path)]
                  env: { NOTES_FILE: notes.json }
            """)
        try workspace.write("gates.yaml", "gates:\n  notes_gate: { enabled: true }\n")
        try workspace.write("notes.json", Self.notes([("1", "Storing cheese", "2026-11-01T10:00:00Z"), ("2", "Serving wine", "2026-11-02T09:30:00Z")]))
        let config = ["--config", workspace.url.path]
        func indexed() async throws -> [String: String] {
            let outcome = try await SchedulerProcess.run(["search", "about", "--json"] + config)
            let hits = (try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])?["hits"] as? [[String: Any]] ?? []
            return Dictionary(uniqueKeysWithValues: hits.compactMap { hit in (hit["uniqueIdentifier"] as? String).map { ($0, hit["title"] as? String ?? "") } })
        }

        let full = try await SchedulerProcess.run(["run-once", "--json"] + config)
        #expect(full.status == 0, "\(full.stderr)")
        #expect(try await indexed() == ["note-1": "Storing cheese", "note-2": "Serving wine"])

        try workspace.write("notes.json", Self.notes(
            [("1", "Storing cheese", "2026-11-01T10:00:00Z"), ("2", "Serving red wine", "2026-11-03T08:00:00Z"), ("3", "Cutting boards", "2026-11-03T09:00:00Z")],
            deleted: [("1", "2026-11-03T10:00:00Z")]
        ))
        let incremental = try await SchedulerProcess.run(["run-once", "--incremental", "--json"] + config)
        #expect(incremental.status == 0, "\(incremental.stderr)")
        let unit = try #require(((try JSONSerialization.jsonObject(with: Data(incremental.stdout.utf8)) as? [String: Any])?["units"] as? [[String: Any]])?.first)
        #expect(unit["mode"] as? String == "incremental" && unit["indexed"] as? Int == 2 && unit["deleted"] as? Int == 1, "\(unit)")
        #expect(try await indexed() == ["note-2": "Serving red wine", "note-3": "Cutting boards"])

        let check = try await SchedulerProcess.run(["plugins", "check", "notes"] + config)
        #expect(check.status == 0, "\(check.stdout) \(check.stderr)")
        #expect(check.stdout.contains("check: ok — read 3 notes from notes.json"), "\(check.stdout)")
        #expect(check.stdout.contains("read: 3 items, 0 deletions, 1 states"), "\(check.stdout)")

        try workspace.write("notes.json", "{\"notes\": 7}")
        let broken = try await SchedulerProcess.run(["plugins", "check", "notes"] + config)
        #expect(broken.status == 1 && broken.stdout.contains("check: FAILED"), "\(broken.stdout)")
    }
}
