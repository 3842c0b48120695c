import Foundation
import ProcessSupport
import Testing

/// What a source writes reaches screens made visible: control bytes (ESC, OSC, BEL) never reach the terminal from
/// the command line, and bidirectional overrides (U+202E) never reverse the scheduler's own text on a page.
@Suite("Untrusted text on screens")
struct UntrustedTextTests {
    static let override = "\u{202E}"
    /// OSC 0 (set the window title), a screen clear and BEL.
    static let terminalAttack = "\u{1B}]0;pwned\u{07}\u{1B}[2J"

    /// Whether `text` holds `raw` as bytes (`String.contains` would compare characters).
    func holds(_ text: String, _ raw: String) -> Bool { Data(text.utf8).range(of: Data(raw.utf8)) != nil }

    /// A workspace whose item's title and program's standard error carry both attacks; the second unit fails.
    func workspace() throws -> SourceWorkspace {
        let setup = try SourceWorkspace(extraLines: "    partitions: [ok, broken]")
        let title = "Doc \(Self.terminalAttack)evil \(Self.override)txet"
        try setup.workspace.write("item.json", #"{"uniqueIdentifier":"evil","domainIdentifier":"com.test.docs.ok","title":"\#(title.unicodeScalars.map { $0.value < 0x20 ? String(format: "\\u%04x", $0.value) : String($0) }.joined())"}"# + "\n")
        try setup.writeScript("""
            #!/bin/sh
            if [ "$SCHEDULER_PARTITION" = broken ]; then
                printf 'upstream \(Self.override)said no\\033]0;pwned\\a\\n' >&2
                exit 3
            fi
            cat item.json
            """)
        return setup
    }

    @Test func theCommandLineEscapesControlBytesASourceWrote() async throws {
        let setup = try workspace()
        // An item identifier holding ESC is rejected, and the rejection logged: escaped too.
        try setup.workspace.write("item.json", (try String(contentsOfFile: setup.workspace.path("item.json"), encoding: .utf8))
            + #"{"uniqueIdentifier":"bad\u001b]0;pwned\u0007","domainIdentifier":"com.other","title":"Doc"}"# + "\n")
        let run = try await setup.run(["run-once"])
        for output in [run.stdout, run.stderr] {
            #expect(!output.utf8.contains(0x1B) && !output.utf8.contains(0x07) && !holds(output, Self.override), "run-once printed raw: \(output.debugDescription)")
        }
        #expect(run.stderr.contains(#"bad\u{1B}]0;pwned\u{7}"#), "the rejection is logged, escaped: \(run.stderr)")
        for command in [["search", "doc"], ["item", "evil"], ["status"], ["history"]] {
            let outcome = try await setup.run(command)
            #expect(outcome.status == 0, "\(command): \(outcome.stderr)")
            #expect(!outcome.stdout.utf8.contains(0x1B) && !outcome.stdout.utf8.contains(0x07), "\(command) printed raw control bytes: \(outcome.stdout.debugDescription)")
            #expect(!holds(outcome.stdout, Self.override), "\(command) printed a raw U+202E")
        }
        let search = try await setup.run(["search", "doc"])
        #expect(search.stdout.contains(#"\u{1B}]0;pwned\u{7}"#) && search.stdout.contains(#"\u{202E}txet"#), "shown escaped: \(search.stdout)")
        let status = try await setup.run(["status"])
        #expect(status.stdout.contains(#"upstream \u{202E}said no"#), "\(status.stdout)")
    }

    @Test func pagesShowBidirectionalOverridesEscaped() async throws {
        let setup = try workspace()
        let service = try await RunningService(setup.config)
        #expect(try await eventually {
            (try await service.json("/status")["units"] as? [[String: Any]])?.contains { $0["lastResult"] as? String == "failed" } == true
        })
        for path in ["/", "/units/docs/broken"] {
            let page = try await service.request(path)
            #expect(page.status == 200)
            #expect(!holds(page.body, Self.override) && !page.body.utf8.contains(0x1B), "\(path) holds a raw override or ESC")
            #expect(page.body.contains(#"upstream \u{202E}said no"#), "\(path): the error is shown, escaped")
        }
        #expect(await service.terminate() == 0, "\(service.log)")
    }
}
