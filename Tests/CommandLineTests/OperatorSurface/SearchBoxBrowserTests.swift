import Foundation
import ProcessSupport
import Testing

/// `/search-box.js` in Chromium, as a site would use it: a page of another origin, under a strict
/// Content-Security-Policy that allows only the service's origin, holds `<scheduler-search>` with a tenant token.
/// Typing shows the token's results with their highlights, sections under their page; the arrows, Escape and the ARIA
/// attributes move as a combobox's; each result opens through `/open/{id}` with the token, so the open is counted;
/// a refused token shows its reason.
@Suite("The search box, in Chromium")
struct SearchBoxBrowserTests {
    /// Waits until the box shows options or its status, then describes what it shows.
    static let shown = """
        (async () => {
          await customElements.whenDefined('scheduler-search');
          while (!document.querySelector('scheduler-search')) await new Promise(resolve => setTimeout(resolve, 20));
          const box = document.querySelector('scheduler-search'), root = box.shadowRoot;
          for (let i = 0; i < 100 && root.querySelector('[role=listbox]').hidden && root.querySelector('.status').hidden; i++) {
            await new Promise(resolve => setTimeout(resolve, 50));
          }
          const input = root.querySelector('input'), options = [...root.querySelectorAll('[role=option]')];
          return {
            options: options.map(option => option.textContent),
            sections: options.filter(option => option.classList.contains('section')).length,
            marked: root.querySelectorAll('mark').length,
            links: options.map(option => option.querySelector('a').getAttribute('href')),
            expanded: input.getAttribute('aria-expanded'), role: input.getAttribute('role'),
            status: root.querySelector('.status').hidden ? null : root.querySelector('.status').textContent,
            radius: getComputedStyle(input).borderTopLeftRadius
          };
        })()
        """

    static func type(_ text: String) -> String {
        """
        (async () => {
          await customElements.whenDefined('scheduler-search');
          while (!document.querySelector('scheduler-search')) await new Promise(resolve => setTimeout(resolve, 20));
          const root = document.querySelector('scheduler-search').shadowRoot, input = root.querySelector('input');
          root.querySelector('[role=listbox]').hidden = true;
          root.querySelector('.status').hidden = true;
          input.value = \(try! String(decoding: JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed), as: UTF8.self));
          input.dispatchEvent(new Event('input'));
          return true;
        })()
        """
    }

    static func press(_ key: String) -> String {
        """
        (() => {
          const root = document.querySelector('scheduler-search').shadowRoot, input = root.querySelector('input');
          input.dispatchEvent(new KeyboardEvent('keydown', {key: '\(key)', bubbles: true}));
          const active = input.getAttribute('aria-activedescendant');
          return {active, selected: active ? root.getElementById(active).getAttribute('aria-selected') : null,
                  expanded: input.getAttribute('aria-expanded')};
        })()
        """
    }

    @Test func aPageOfAnotherOriginSearchesAsItsUserTypesWithATenantToken() async throws {
        let setup = try SearchKeyTests.workspace()
        // Two sections of the page public-a, which the feed marks as its sections.
        try setup.writeScript("""
            #!/bin/sh
            if [ "$SCHEDULER_PARTITION" = public ]; then
                printf '%s\\n' '{"uniqueIdentifier":"guide","domainIdentifier":"com.test.docs.public","title":"Cheese guide","contentURL":"https://docs.test/guide"}'
                printf '%s\\n' '{"uniqueIdentifier":"guide#storing","domainIdentifier":"com.test.docs.public","title":"Storing cheese","relatedUniqueIdentifier":"guide","contentURL":"https://docs.test/guide#storing"}'
                printf '%s\\n' '{"uniqueIdentifier":"guide#serving","domainIdentifier":"com.test.docs.public","title":"Serving cheese","relatedUniqueIdentifier":"guide","contentURL":"https://docs.test/guide#serving"}'
                printf '%s\\n' '{"uniqueIdentifier":"v1/guide","domainIdentifier":"com.test.docs.public","title":"Old cheese guide","version":"v1","isCurrentVersion":false,"contentURL":"https://docs.test/v1/guide"}'
            else
                printf '%s\\n' '{"uniqueIdentifier":"staff-cheese","domainIdentifier":"com.test.docs.staff","title":"Cheese margins","contentURL":"https://docs.test/staff"}'
            fi
            """)
        let service = try await RunningService(setup.config, environment: SearchKeyTests.environment)
        let port = try #require(service.base.port)
        let site = try await StaticSite()
        let page = "http://localhost:\(site.port)", api = "http://127.0.0.1:\(port)"
        try setup.editConfig(replacing: "search: { access: keys }", with: "search: { access: keys, cors: { origins: [\"\(page)\"] } }")
        #expect(try await eventually {
            let status = try await service.request("/status", token: SearchKeyTests.adminToken)
            return status.body.contains("\"configGeneration\":2")
        })
        let made = try await service.request("/keys", method: "POST", token: SearchKeyTests.adminToken, body: #"{"name":"site","domains":["com.test.docs"]}"#)
        let key = try #require(try JSONSerialization.jsonObject(with: Data(made.body.utf8)) as? [String: Any])
        let token = try await SearchKeyTests.mint(
            key: try #require(key["key"] as? String),
            claims: ["keyUid": try #require(key["uid"] as? String), "exp": Date().timeIntervalSince1970 + 600, "domains": ["com.test.docs.public"]]
        )
        #expect(try await eventually {
            let answer = try await service.request("/search?q=cheese", token: token)
            return answer.body.contains("\"total\":3")
        })

        let html = """
            <!doctype html><html><head>
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src \(api); connect-src \(api); img-src \(api)">
            <script src="\(api)/search-box.js"></script></head>
            <body><scheduler-search endpoint="\(api)" token="\(token)" placeholder="Search the docs"></scheduler-search></body></html>
            """
        try site.write("index.html", html)
        let results = try await ConsoleBrowserTests.drive([
            ["goto": page + "/index.html"], ["eval": "true"],
            ["eval": Self.type("chees")], ["eval": Self.shown],
            ["eval": Self.press("ArrowDown")], ["eval": Self.press("ArrowDown")], ["eval": Self.press("Escape")],
            ["eval": "document.querySelector('scheduler-search').setAttribute('version', 'v1'); true"],
            ["eval": Self.type("cheese g")], ["eval": Self.shown],
            ["eval": "document.querySelector('scheduler-search').setAttribute('token', 'not-a-token'); true"],
            ["eval": Self.type("cheese")], ["eval": Self.shown],
        ])
        let shown = try #require(results.dropFirst(3).first as? [String: Any], "\(results)")
        let options = shown["options"] as? [String] ?? []
        #expect(options.count == 3 && options.first == "Cheese guide", "the page first, its sections under it, nothing of staff: \(shown)")
        #expect(shown["sections"] as? Int == 2, "\(shown)")
        #expect((shown["marked"] as? Int ?? 0) >= 3, "the typed word highlighted in each title: \(shown)")
        #expect(shown["role"] as? String == "combobox" && shown["expanded"] as? String == "true", "\(shown)")
        #expect(shown["radius"] as? String == "8px", "its styles apply under the page's CSP: \(shown)")
        let links = shown["links"] as? [String] ?? []
        #expect(links.first?.hasPrefix("\(api)/open/guide?q=chees&token=") == true, "\(links)")
        let first = try #require(results.dropFirst(4).first as? [String: Any]), second = try #require(results.dropFirst(5).first as? [String: Any])
        #expect(first["selected"] as? String == "true" && first["active"] as? String != second["active"] as? String, "\(first) \(second)")
        #expect((results.dropFirst(6).first as? [String: Any])?["expanded"] as? String == "false", "Escape closes the list")
        let versioned = try #require(results.dropFirst(9).first as? [String: Any], "\(results)")
        #expect(versioned["options"] as? [String] == ["Old cheese guide"], "version= searches that version alone: \(versioned)")
        let refused = try #require(results.last as? [String: Any])
        #expect((refused["status"] as? String)?.contains("tenant token refused") == true, "a refused token says why: \(refused)")

        let open = try #require(links.first)
        let connection = try RawConnection(port: port)
        connection.send("GET \(open.dropFirst(api.count)) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let answer = await connection.response(within: 10)
        #expect(answer.hasPrefix("HTTP/1.1 302") && answer.lowercased().contains("location: https://docs.test/guide"), "the link opens, with its token: \(answer)")
        #expect(await service.terminate() == 0, "\(service.log)")
    }
}

/// A folder served over HTTP on a loopback port of its own by Python's `http.server`: another origin than the
/// service's, as a site's pages are. Stopped when released.
final class StaticSite {
    let folder: URL
    let port: Int
    private let process: ChildProcess

    init() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("site-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let python = try ExternalTool("python3", debianPackage: "python3")
        let output = Pipe()
        process = try ChildProcess(
            python.url, arguments: ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", folder.path], standardOutput: .pipe(output)
        )
        let reader = output.fileHandleForReading
        // "Serving HTTP on 127.0.0.1 port 41234 (http://127.0.0.1:41234/) ..."
        let line = try await onOwnThread { () -> String in
            var text = ""
            while !text.contains("\n") {
                let chunk = reader.availableData
                guard !chunk.isEmpty else { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            return text
        }
        guard let match = line.firstMatch(of: /port (\d+)/), let port = Int(match.output.1) else {
            kill(process.processIdentifier, SIGKILL)
            throw RunningService.ServiceDidNotStart(output: "http.server: \(line)")
        }
        self.port = port
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    /// Killed: the test process may hold SIGTERM blocked, and a spawned child inherits the mask.
    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }
}
