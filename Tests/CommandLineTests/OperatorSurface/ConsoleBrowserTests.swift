import Foundation
import Testing

/// The console of a real `scheduler run`, driven in Debian's headless Chromium as an operator drives it: the order of
/// the units, a unit's page with a hostile standard error, signing in (a wrong token, then the right one), each action
/// (pause, resume, reindex, purge) and its refusals (a form stripped of its CSRF token, a purge not confirmed, a form
/// posted from another site, a form after signing out), the hold on wrong tokens, and the pages at a phone's width.
/// Screenshots go to `.build/screenshots`.
@Suite("The console in a real browser")
struct ConsoleBrowserTests {
    static let token = "console-token-5b1f"

    /// `docs` succeeds; `broken` fails, writing markup, terminal escapes and a megabyte without a newline on standard
    /// error. A second gate has a window, a rollout and environments: the widest row of the Gates table.
    static func workspace() throws -> Workspace {
        let workspace = try Workspace()
        try workspace.write("scheduler.yaml", """
            environments: [staging, canary]
            store: { sqlite: { path: index.sqlite } }
            service: { tick: 1h, listen: 127.0.0.1:0 }
            sources:
              docs: { plugin: command, domain: com.test.docs, gate: on_gate, schedule: monthly, options: { command: [./docs.sh] } }
              broken: { plugin: command, domain: com.test.broken, gate: documentation_launch_window, schedule: daily, options: { command: [./broken.sh] } }
            """)
        try workspace.write("gates.yaml", """
            gates:
              on_gate: { enabled: true }
              documentation_launch_window: { enabled: true, rollout: 100, environments: [production, staging, canary], from: 2026-01-01T00:00:00Z, until: 2099-12-31T23:59:59Z }
            """)
        try workspace.write("docs.sh", """
            #!/bin/sh
            echo '{"uniqueIdentifier":"lighthouse","domainIdentifier":"com.test.docs","title":"Lighthouse keeping"}'
            """)
        try workspace.write("broken.sh", """
            #!/bin/sh
            printf '<script>document.title="pwned"</script>\\n' >&2
            printf '\\033[31mupstream API returned HTTP 503\\033[0m\\a\\n' >&2
            head -c 1048576 /dev/zero | tr '\\0' 'x' >&2
            exit 3
            """)
        for script in ["docs.sh", "broken.sh"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: workspace.path(script))
        }
        return workspace
    }

    /// Runs `steps` in one browser (``browser-driver.py``): one result per step, or a failed step's error.
    static func drive(_ steps: [[String: Any]]) async throws -> [Any] {
        let python = try ExternalTool("python3", debianPackage: "python3")
        let chromium = try ExternalTool("chromium", debianPackage: "chromium")
        let driver = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("browser-driver.py")
        let outcome = try await python.run([driver.path, chromium.url.path], input: try JSONSerialization.data(withJSONObject: steps), timeout: 300)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let results = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [Any], "\(outcome.stdout)")
        if let failed = results.last as? [String: Any], let error = failed["error"] {
            Issue.record("step \(results.count) failed: \(error)")
        }
        #expect(results.count == steps.count, "every step ran")
        return results
    }

    static func screenshot(_ name: String) throws -> String {
        let folder = repositoryRoot.appendingPathComponent(".build/screenshots")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(name).path
    }

    static func text(_ selector: String) -> String {
        "((document.querySelector('\(selector)') || {}).textContent || '')"
    }

    @Test func anOperatorSignsInActsAndIsRefusedWhereTheyShouldBe() async throws {
        let workspace = try Self.workspace()
        let service = try await RunningService(["--config", workspace.url.path], environment: ["SCHEDULER_ADMIN_TOKEN": Self.token])
        #expect(try await eventually {
            let units = try await service.json("/status")["units"] as? [[String: Any]] ?? []
            return units.compactMap { $0["lastResult"] as? String }.sorted() == ["failed", "succeeded"]
        })
        let port = try #require(service.base.port)
        let site = "http://127.0.0.1:\(port)", otherSite = "http://localhost:\(port)"
        let pause = "#actions form[action$='/pause'] button"
        var steps: [(String, [String: Any])] = [
            ("the status page", ["goto": site + "/"]),
            ("units in trouble first", ["eval": "Array.from(document.querySelectorAll('tr[data-unit]')).map(r => r.dataset.unit).join(' ')"]),
            ("read-only without a session", ["eval": "!document.querySelector('#actions') && " + Self.text(".console") + ".includes('Sign in')"]),
            ("a unit that does not exist", ["goto": site + "/units/nope"]),
            ("a page, not JSON", ["eval": "document.querySelector('h1').textContent + ' | ' + " + Self.text("#refusal")]),
            ("the failing unit's page", ["goto": site + "/units/broken"]),
            ("its error", ["eval": Self.text("#facts code.error")]),
            ("no script of the error ran", ["eval": "document.scripts.length === 1 && document.title !== 'pwned' && !document.querySelector('#facts script')"]),
            ("its page", ["screenshot": try Self.screenshot("console-failing-unit.png"), "width": 1280]),
            ("the sign-in form", ["goto": site + "/signin"]),
            ("a wrong token", ["fill": ["#token", "not-the-token"]]),
            ("sent", ["click": "#signin button"]),
            ("refused", ["eval": Self.text("main .alert") + " + ' | ' + " + Self.text(".console")]),
            ("the right token", ["fill": ["#token", Self.token]]),
            ("sent", ["click": "#signin button"]),
            ("signed in", ["eval": Self.text(".notice") + " + ' | ' + " + Self.text(".console")]),
            ("the docs unit's page", ["goto": site + "/units/docs"]),
            ("its page with actions", ["screenshot": try Self.screenshot("console-unit-page.png"), "width": 1280]),
            ("actions before the runs", ["eval": "!!(document.querySelector('#actions').compareDocumentPosition(document.querySelector('#runs')) & Node.DOCUMENT_POSITION_FOLLOWING)"]),
            ("pause", ["click": pause]),
            ("paused", ["eval": "location.pathname + ' | ' + " + Self.text(".notice") + " + ' | ' + " + Self.text("#pause")]),
            ("the paused chip", ["goto": site + "/?show=paused"]),
            ("paused units alone", ["eval": "Array.from(document.querySelectorAll('tr[data-unit]')).map(r => r.dataset.unit).join(' ')"]),
            ("the docs unit's page", ["goto": site + "/units/docs"]),
            ("resume", ["click": "#actions form[action$='/resume'] button"]),
            ("resumed", ["eval": Self.text(".notice")]),
            ("reindex", ["click": "#actions form[action$='/reindex'] button"]),
            ("queued", ["eval": Self.text(".notice")]),
            ("the docs unit's page", ["goto": site + "/units/docs"]),
            ("a form stripped of its CSRF token", ["eval": "document.querySelector(\"#actions form[action$='/pause'] input[name=csrf]\").remove(); true"]),
            ("sent", ["click": pause]),
            ("refused", ["eval": "document.body.textContent"]),
            ("the docs unit's page", ["goto": site + "/units/docs"]),
            ("a purge with the wrong domain typed", ["fill": ["#confirm", "com.test"]]),
            ("sent", ["click": "#purge button"]),
            ("refused", ["eval": "document.body.textContent"]),
            ("still searchable", ["eval": "fetch('/search?q=lighthouse').then(r => r.json()).then(j => j.total)"]),
            ("the docs unit's page", ["goto": site + "/units/docs"]),
            ("a purge with the domain typed", ["fill": ["#confirm", "com.test.docs"]]),
            ("sent", ["click": "#purge button"]),
            ("purged", ["eval": "location.pathname + ' | ' + " + Self.text(".notice")]),
            ("gone from search", ["eval": "fetch('/search?q=lighthouse').then(r => r.json()).then(j => j.total)"]),
            ("another site", ["goto": otherSite + "/healthz"]),
            ("its forged form", ["html": "<form id=forged method=post action='\(site)/console/sources/docs/pause'><input name=csrf value=guess><button>win a prize</button></form>"]),
            ("sent", ["click": "#forged button"]),
            ("refused", ["eval": "document.body.textContent"]),
            ("the docs unit's page", ["goto": site + "/units/docs"]),
            ("the session's CSRF token, kept by an attacker", ["eval": "sessionStorage.setItem('old', document.querySelector('input[name=csrf]').value); true"]),
            ("sign out", ["click": "form[action='/signout'] button"]),
            ("signed out", ["eval": Self.text(".notice") + " + ' | ' + " + Self.text(".console")]),
            ("a page of the service", ["goto": site + "/healthz"]),
            ("a form", ["html": "<form id=late method=post action='/console/sources/docs/pause'><input id=old name=csrf><button>pause</button></form>"]),
            ("with the old token", ["eval": "document.querySelector('#old').value = sessionStorage.getItem('old'); document.querySelector('#old').value.length"]),
            ("sent", ["click": "#late button"]),
            ("refused", ["eval": "document.body.textContent"]),
            ("the status page at a phone's width", [
                "goto": site + "/",
            ]),
            ("fits", [
                "screenshot": try Self.screenshot("console-status-phone.png"), "width": 390,
                "eval": "[document.documentElement.scrollWidth, document.querySelector('#gates').scrollWidth, document.querySelector('#gates').parentElement.clientWidth].join(' ')",
            ]),
        ]
        for attempt in 1...4 {
            steps.append(("sign-in form", ["goto": site + "/signin"]))
            steps.append(("guess \(attempt)", ["fill": ["#token", "guess-\(attempt)"]]))
            steps.append(("sent", ["click": "#signin button"]))
        }
        steps += [
            ("sign-in form", ["goto": site + "/signin"]),
            ("the right token, too late", ["fill": ["#token", Self.token]]),
            ("sent", ["click": "#signin button"]),
            ("held back", ["eval": Self.text("main .alert") + " + ' | ' + " + Self.text(".console")]),
        ]
        let all = try await Self.drive(steps.map(\.1))
        func result(_ name: String, after: Int = 0) -> Any? {
            steps.indices.filter { steps[$0].0 == name && $0 >= after }.first.map { all.indices.contains($0) ? all[$0] : nil } ?? nil
        }
        func index(_ name: String) -> Int { steps.firstIndex { $0.0 == name }! }

        #expect(result("units in trouble first") as? String == "broken docs")
        #expect(result("read-only without a session") as? Bool == true)
        #expect((result("a page, not JSON") as? String)?.hasPrefix("Not found") == true && (result("a page, not JSON") as? String)?.contains("no unit 'nope'") == true, "\(String(describing: result("a page, not JSON")))")
        #expect(result("actions before the runs") as? Bool == true)
        let error = try #require(result("its error") as? String)
        #expect(error.contains(#"<script>document.title="pwned"</script>"#) && error.contains("upstream API returned HTTP 503"), "\(error.prefix(300))")
        #expect(!error.contains("\u{1B}") && !error.contains("\u{07}"), "terminal escapes removed")
        #expect(error.utf8.count < 6000, "a megabyte without a newline is cut: \(error.utf8.count) bytes")
        #expect(result("no script of the error ran") as? Bool == true)
        #expect((result("refused", after: index("a wrong token")) as? String)?.hasPrefix("That is not the admin token") == true)
        #expect((result("signed in") as? String)?.contains("Signed in:") == true)
        #expect((result("paused") as? String)?.hasPrefix("/units/docs | The source is paused") == true)
        #expect((result("paused") as? String)?.contains("by the console (127.0.0.1)") == true)
        #expect(result("paused units alone") as? String == "docs")
        #expect((result("resumed") as? String)?.hasPrefix("The source is resumed") == true)
        #expect((result("queued") as? String)?.hasPrefix("A forced run") == true)
        #expect((result("refused", after: index("a form stripped of its CSRF token")) as? String)?.contains("CSRF token is missing") == true)
        #expect((result("refused", after: index("a purge with the wrong domain typed")) as? String)?.contains("type the domain's name") == true)
        #expect(result("still searchable") as? Int == 1, "nothing purged without the domain typed")
        #expect((result("purged") as? String)?.hasPrefix("/units/docs | The domain was purged") == true)
        #expect(result("gone from search") as? Int == 0)
        #expect((result("refused", after: index("its forged form")) as? String)?.contains("sign in first") == true, "no session cookie crosses sites")
        #expect((result("signed out") as? String)?.hasPrefix("Signed out. | Sign in") == true)
        #expect(result("with the old token") as? Int == 64)
        #expect((result("refused", after: index("with the old token")) as? String)?.contains("sign in first") == true)
        let widths = ((result("fits") as? [String: Any])?["value"] as? String)?.split(separator: " ").compactMap { Int($0) } ?? []
        #expect(widths.count == 3 && widths[0] <= 390 && widths[1] <= widths[2], "the page and its Gates table fit 390 px: \(widths)")
        #expect((result("held back") as? String)?.hasPrefix("Too many wrong tokens") == true)
        #expect((result("held back") as? String)?.contains("Signed in") == false)

        // What the refusals after the purge left: the source not paused.
        let status = try await service.json("/status")
        #expect((status["pausedSources"] as? [Any])?.isEmpty == true)
        #expect(service.logSoFar.contains("console action") && !service.logSoFar.contains(Self.token), "actions logged, never the token")
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    /// Cancel, the one action that needs a unit still running: signed in, the operator cancels it from its page, and
    /// once its program sends its last batch the run stops there, recorded `cancelled`.
    @Test func anOperatorCancelsARunningUnitFromItsPage() async throws {
        let workspace = try Workspace()
        try workspace.write("scheduler.yaml", """
            store: { sqlite: { path: index.sqlite } }
            service: { tick: 1h, listen: 127.0.0.1:0 }
            sources:
              slow: { plugin: command, domain: com.test.slow, gate: on_gate, schedule: monthly, options: { command: [./slow.sh] } }
            """)
        try workspace.write("gates.yaml", "gates:\n  on_gate: { enabled: true }\n")
        try workspace.write("slow.sh", """
            #!/bin/sh
            echo '{"uniqueIdentifier":"first","domainIdentifier":"com.test.slow","title":"First"}'
            while [ ! -f release ]; do sleep 0.05; done
            echo '{"uniqueIdentifier":"second","domainIdentifier":"com.test.slow","title":"Second"}'
            """)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: workspace.path("slow.sh"))
        defer { try? workspace.write("release", "") }
        let service = try await RunningService(["--config", workspace.url.path], environment: ["SCHEDULER_ADMIN_TOKEN": Self.token])
        #expect(try await eventually {
            ((try await service.json("/status")["units"] as? [[String: Any]])?.first?["lastResult"] as? String) == "running"
        })
        let site = "http://127.0.0.1:\(try #require(service.base.port))"
        let acted = try await Self.drive([
            ["goto": site + "/signin"], ["fill": ["#token", Self.token]], ["click": "#signin button"],
            ["goto": site + "/units/slow"],
            ["screenshot": try Self.screenshot("console-running-unit.png"), "width": 1280],
            ["click": "#actions form[action$='/cancel'] button"],
            ["eval": "location.pathname + ' | ' + " + Self.text(".notice")],
        ])
        #expect((acted.last as? String)?.hasPrefix("/units/slow | Cancel requested") == true, "\(acted.last ?? "")")

        try workspace.write("release", "")
        #expect(try await eventually {
            ((try await service.json("/status")["units"] as? [[String: Any]])?.first?["lastResult"] as? String) == "cancelled"
        })
        let after = try await Self.drive([
            ["goto": site + "/units/slow"],
            ["eval": Self.text("#facts .result") + " + ' | ' + " + Self.text("#runs tbody tr td[data-label=Result]")],
        ])
        #expect(after.last as? String == "cancelled | cancelled", "\(after.last ?? "")")
        #expect(await service.terminate() == 0, "\(service.log)")
    }
}
