import Foundation
import ProcessSupport
import Testing

/// `search.cors.origins` in a real browser: a page of another origin (`http://localhost:PORT` against the service at
/// `127.0.0.1:PORT`) may search with an `Authorization` header (a preflight, then the answer) once its origin is
/// listed, not before; the admin API stays closed to it whatever the list says.
@Suite("Cross-origin search, in Chromium")
struct CrossOriginBrowserTests {
    /// A `fetch` from the page, as a promise of the search's total, or "refused" when the browser blocks it.
    static func fetch(_ url: String, method: String = "GET") -> String {
        """
        fetch('\(url)', {method: '\(method)', headers: {Authorization: 'Bearer some-token'}})
            .then(response => response.json()).then(body => body.total ?? body.error ?? 'answered')
            .catch(error => 'refused: ' + error.name)
        """
    }

    @Test func aListedOriginsPageSearchesAndAnUnlistedOneIsRefused() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a b c")
        let service = try await RunningService(setup.config, environment: ["SCHEDULER_ADMIN_TOKEN": "the-admin-token"])
        #expect(try await eventually { try await service.searchTotal() == 3 })
        let port = try #require(service.base.port)
        let page = "http://localhost:\(port)/healthz", api = "http://127.0.0.1:\(port)"
        let before = try await ConsoleBrowserTests.drive([["goto": page], ["eval": Self.fetch("\(api)/search?q=doc")]])
        #expect(before.last as? String == "refused: TypeError", "not listed yet: \(before)")

        try setup.editConfig(replacing: "sources:", with: "search: { cors: { origins: [\"http://localhost:\(port)\"] } }\nsources:")
        #expect(try await eventually { try await service.json("/status")["configGeneration"] as? Int == 2 }, "\(service.logSoFar)")
        let after = try await ConsoleBrowserTests.drive([
            ["goto": page],
            ["eval": Self.fetch("\(api)/search?q=doc")],
            ["eval": Self.fetch("\(api)/search?q=doc&limit=0")],
            ["eval": Self.fetch("\(api)/sources/docs/pause", method: "POST")],
        ])
        #expect(after.count == 4)
        #expect(after.dropFirst().first as? Int == 3, "a listed origin's page reads the hits: \(after)")
        #expect((after.dropFirst(2).first as? String)?.contains("limit") == true, "and the error of a bad request: \(after)")
        #expect(after.last as? String == "refused: TypeError", "the admin API never answers another origin: \(after)")
        let paused = try await service.json("/status")["pausedSources"] as? [Any] ?? []
        #expect(paused.isEmpty, "nothing was paused: \(paused)")
        #expect(await service.terminate() == 0, "\(service.log)")
    }
}
