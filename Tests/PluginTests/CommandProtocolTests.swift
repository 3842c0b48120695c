import CommandPlugin
import Foundation
import PluginAPI
import PluginConformance
import Testing

/// The command plugin's protocol beyond items (docs/plugin-protocol.md): the mode and state a program is handed, the
/// deletions, states and checks it prints, and what becomes of lines that are none of them.
@Suite("The command plugin's protocol")
struct CommandProtocolTests {
    static let item = CommandPluginTests.item

    func source(_ script: String, in folder: Folder, mode: SyncMode = .full, state: SyncState? = nil) throws -> (CommandSource, PluginContext) {
        try folder.write("source.sh", "#!/bin/sh\n" + script, executable: true)
        var context = folder.context()
        context.mode = mode
        context.state = state
        return (try CommandSource(options: .init(command: ["./source.sh"]), context: context), context)
    }

    @Test func aProgramIsToldItsModeAndHandedItsStateInAFileThatIsGoneAfterwards() async throws {
        let folder = try Folder()
        let state = try SyncState(json: Data(#"{"cursor":"2026-11-01T00:00:00Z","seen":[1,2]}"#.utf8))
        let (plugin, _) = try source("""
            echo "$SCHEDULER_ACTION $SCHEDULER_SYNC_MODE" > seen.txt
            cat "$SCHEDULER_STATE_FILE" >> seen.txt
            echo "$SCHEDULER_STATE_FILE" > path.txt
            ls -ld "$(dirname "$SCHEDULER_STATE_FILE")" | cut -c1-10 >> seen.txt
            """, in: folder, mode: .incremental, state: state)
        let run = await PluginConformance.sent(by: plugin)
        #expect(run.error == nil)
        let seen = try String(contentsOfFile: folder.path("seen.txt"), encoding: .utf8)
        #expect(seen == "produce incremental\n{\"cursor\":\"2026-11-01T00:00:00Z\",\"seen\":[1,2]}drwx------\n", "the state as committed, in a folder only its owner reads")
        let path = try String(contentsOfFile: folder.path("path.txt"), encoding: .utf8).trimmingCharacters(in: .newlines)
        #expect(!FileManager.default.fileExists(atPath: path), "the state file is removed when the run ends")

        let (full, _) = try source("echo \"$SCHEDULER_SYNC_MODE ${SCHEDULER_STATE_FILE-absent}\" > seen.txt", in: folder)
        _ = await PluginConformance.sent(by: full)
        #expect(try String(contentsOfFile: folder.path("seen.txt"), encoding: .utf8) == "full absent\n", "no state, no variable")
    }

    @Test func deletionsAndStatesAreSentInOrderAmongTheItems() async throws {
        let folder = try Folder()
        let (plugin, context) = try source("""
            printf '\(Self.item)\\n' a a
            echo '{"delete": "old"}'
            echo '  {"state": {"cursor": 7}}'
            printf '\(Self.item)\\n' b b
            echo '{"state": 8}'
            """, in: folder)
        let run = await PluginConformance.sent(by: plugin)
        #expect(run.error == nil && context.rejections.count == 0)
        let shape = run.sent.map { sent -> String in
            switch sent {
            case .item(let item): "item \(item.uniqueIdentifier)"
            case .delete(let identifier): "delete \(identifier)"
            case .state(let state): "state \(String(decoding: state.json, as: UTF8.self))"
            }
        }
        #expect(shape == ["item a", "delete old", #"state {"cursor": 7}"#, "item b", "state 8"], "a state's bytes as the program wrote them")
    }

    @Test func controlLinesThatDoNotReadAreRejectedByNumberAndTheRunGoesOn() async throws {
        let folder = try Folder()
        let big = String(repeating: "x", count: SyncState.maxBytes + 16)
        try folder.write("big.txt", "{\"state\": \"\(big)\"}\n")
        let (plugin, context) = try source("""
            echo '{"delete": 7}'
            echo '{"delete": "a", "extra": 1}'
            echo '{"state": null}'
            echo '{"state": {"unclosed": '
            cat big.txt
            echo '{"check": {"ok": true, "message": "fine"}}'
            i=0; while [ $i -lt 1000 ]; do echo "{\\"state\\": $i}"; i=$((i + 1)); done
            printf '\(Self.item)\\n' z z
            """, in: folder)
        let run = await PluginConformance.sent(by: plugin)
        #expect(run.error == nil)
        let reasons = context.rejections.examples.map { "\($0.what): \($0.reason)" }
        #expect(reasons == [
            "line 1: a delete line names an identifier: {\"delete\": \"ID\"}",
            "line 2: a delete line holds the key 'delete' alone (got delete, extra)",
            "line 3: a state line holds one JSON value other than null: {\"state\": VALUE}",
            "line 4: a state line must be one JSON object",
            "line 5: a state of \(SyncState.maxBytes + 18) bytes is over the limit of \(SyncState.maxBytes) bytes",
            "line 6: a check line answers SCHEDULER_ACTION=check, not a run",
        ], "\(reasons)")
        let states = run.sent.filter { if case .state = $0 { true } else { false } }
        let last = PluginConformance.Sent.state(try SyncState(json: Data("999".utf8)))
        #expect(states.count == 1000 && states.last == last, "a thousand states: each sent, the last last")
        #expect(run.sent.last.map { if case .item(let item) = $0 { item.uniqueIdentifier } else { "" } } == "z")
    }

    @Test func exitStatusThreeAsksForAFullRunOnlyWhenAStateWasHanded() async throws {
        let folder = try Folder()
        let state = try SyncState(json: Data("1".utf8))
        let (incremental, _) = try source("echo 'cannot read the state' >&2\nexit 3\n", in: folder, mode: .incremental, state: state)
        let unusable = await PluginConformance.sent(by: incremental)
        #expect(unusable.error is SyncStateUnusable, "\(String(describing: unusable.error))")
        let (full, _) = try source("exit 3\n", in: folder)
        let failed = await PluginConformance.sent(by: full)
        #expect("\(failed.error.map { "\($0)" } ?? "")".contains("exited with status 3"))
    }

    @Test func aProgramChecksItselfWhenAsked() async throws {
        let folder = try Folder()
        let (good, _) = try source("""
            [ "$SCHEDULER_ACTION" = check ] || exit 9
            echo '{"check": {"ok": true, "message": "connected to the catalogue"}}'
            """, in: folder)
        #expect(try await good.check() == PluginCheck(ok: true, message: "connected to the catalogue"))
        let (failing, _) = try source("echo '{\"check\": {\"ok\": true, \"message\": \"looks fine\"}}'\nexit 2\n", in: folder)
        #expect(try await failing.check() == PluginCheck(ok: false, message: "looks fine (./source.sh exited with status 2)"))
        let (silent, _) = try source("echo 'hello'\n", in: folder)
        let answer = try #require(try await silent.check())
        #expect(!answer.ok && answer.message.hasPrefix("./source.sh printed no check line; line 1 is not a check line"), "\(answer.message)")
    }
}
