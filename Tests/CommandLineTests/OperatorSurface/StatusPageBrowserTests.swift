import Foundation
import Testing

/// The status page of a real `scheduler run`, loaded by Debian's headless Chromium: the DOM after the page's script
/// ran, and screenshots under `.build/` for people to look at.
@Suite("The status page in a real browser")
struct StatusPageBrowserTests {
    /// A title written to run script in whoever shows it.
    static let hostileTitle = #"<img src=x onerror=\"document.title='pwned'\"><script>document.title='pwned'</script> Hostile harbour"#

    /// Two sources: `docs` returns a hostile title and a plain one; `broken` fails. (Error text is escaped like any
    /// other value: `StatusPageTests` puts markup in one.)
    static func workspace() throws -> Workspace {
        let workspace = try Workspace()
        try workspace.write("scheduler.yaml", """
            store: { sqlite: { path: index.sqlite } }
            service: { tick: 1h, listen: 127.0.0.1:0 }
            sources:
              docs: { plugin: command, domain: com.test.docs, gate: on_gate, schedule: monthly, options: { command: [./docs.sh] } }
              broken: { plugin: command, domain: com.test.broken, gate: on_gate, schedule: daily, options: { command: [./broken.sh] } }
            """)
        try workspace.write("gates.yaml", "gates:\n  on_gate: { enabled: true }\n")
        try workspace.write("docs.sh", """
            #!/bin/sh
            cat <<'ITEMS'
            {"uniqueIdentifier":"hostile","domainIdentifier":"com.test.docs","title":"\(hostileTitle)","contentURL":"javascript:alert(1)"}
            {"uniqueIdentifier":"lighthouse","domainIdentifier":"com.test.docs","title":"Lighthouse keeping","contentDescription":"Lamps and lenses.","contentURL":"https://example.org/lighthouse"}
            ITEMS
            """)
        try workspace.write("broken.sh", "#!/bin/sh\necho 'upstream answered 502' >&2\nexit 3\n")
        for script in ["docs.sh", "broken.sh"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: workspace.path(script))
        }
        return workspace
    }

    /// Chromium's DOM of `url` once its scripts ran (fetches included), and a screenshot of it at `width`.
    static func load(_ url: URL, screenshot name: String, width: Int) async throws -> String {
        let chromium = try ExternalTool("chromium", debianPackage: "chromium")
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let common = [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--hide-scrollbars",
            "--user-data-dir=\(profile.path)", "--virtual-time-budget=10000",
        ]
        let dom = try await chromium.run(common + ["--dump-dom", url.absoluteString])
        #expect(dom.status == 0, "\(dom.stderr)")
        let screenshots = repositoryRoot.appendingPathComponent(".build/screenshots")
        try FileManager.default.createDirectory(at: screenshots, withIntermediateDirectories: true)
        let file = screenshots.appendingPathComponent(name)
        let shot = try await chromium.run(common + ["--window-size=\(width),1400", "--screenshot=\(file.path)", url.absoluteString])
        #expect(shot.status == 0 && FileManager.default.fileExists(atPath: file.path), "\(shot.stderr)")
        return dom.stdout
    }

    @Test func thePageShowsUnitsErrorsAndAsYouTypeResultsWithNothingHostileRunning() async throws {
        let workspace = try Self.workspace()
        let service = try await RunningService(["--config", workspace.url.path])
        #expect(try await eventually {
            let units = try await service.json("/status")["units"] as? [[String: Any]] ?? []
            return units.compactMap { $0["lastResult"] as? String }.sorted() == ["failed", "succeeded"]
        })
        // `?q=` fills the search box and fires the same input event a keystroke does.
        let page = try #require(URL(string: "/?q=harb", relativeTo: service.base)?.absoluteURL)
        let dom = try await Self.load(page, screenshot: "status-page.png", width: 1280)

        #expect(dom.contains(#"<tr data-unit="docs" class="">"#), "\(dom)")
        #expect(dom.contains(#"<tr data-unit="broken" class="failing">"#))
        #expect(dom.contains(#"<code class="error">the plugin failed: ./broken.sh exited with status 3"#), "the failing unit's error")
        #expect(dom.contains("<strong>1</strong> failing"))
        // The results the script built as the user "typed": the hostile title as text, its javascript: URL linked only
        // through /open, which refuses it (below).
        let results = try #require(dom.firstRange(of: #/<ol id="results">.*?</ol>/#.dotMatchesNewlines()).map { String(dom[$0]) })
        #expect(results.contains(#"&lt;img src=x onerror="document.title='pwned'"&gt;&lt;script&gt;document.title='pwned'&lt;/script&gt; Hostile <mark>harbour</mark>"#), "\(results)")
        #expect(!results.contains("<img") && !results.contains("<script") && !results.contains("javascript:"))
        #expect(dom.contains("1 match for “harb”"))
        #expect(!dom.contains("<title>pwned</title>"), "a hostile title ran script")
        #expect(dom.components(separatedBy: "<script").count == 2, "the page's own script only")

        // Another prefix: the plain item, linked through /open, which redirects to its https URL.
        let lighthouse = try await Self.load(try #require(URL(string: "/?q=lamp", relativeTo: service.base)?.absoluteURL), screenshot: "status-page-phone.png", width: 390)
        #expect(lighthouse.contains(#"<a class="title" href="/open/lighthouse?q=lamp" rel="noopener noreferrer">Lighthouse keeping</a>"#), "\(lighthouse)")
        let port = try #require(service.base.port)
        for (path, status, location) in [
            ("/open/lighthouse?q=lamp", "HTTP/1.1 302 Found", "location: https://example.org/lighthouse\r\n"),
            ("/open/hostile?q=harb", "HTTP/1.1 404 Not Found", nil),
        ] {
            let connection = try RawConnection(port: port)
            connection.send("GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            let response = await connection.response(within: 10).lowercased()
            #expect(response.hasPrefix(status.lowercased()), "\(path): \(response)")
            #expect(location.map { response.contains($0) } ?? !response.contains("location:"), "\(path): \(response)")
        }
        #expect(lighthouse.contains("<div><mark>Lamps</mark> and lenses.</div>"), "the description's match is marked")
        #expect(await service.terminate() == 0, "\(service.log)")
    }
}
