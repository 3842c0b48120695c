import Foundation
import Hummingbird
import HummingbirdTesting
import SchedulerService
import Store
import StoreSupport
import Testing

/// The HTML status page in process, on both stores: what it shows, what it escapes, the headers that keep a
/// browser from running anything but the page's own script. The page in a real browser: `StatusPageBrowserTests`.
@Suite("The status page, in process")
struct StatusPageTests {
    static let hostile = #"<script>alert("pwned")</script> & 'feed' unreachable"#

    /// A failing `docs` unit whose error, and whose run in the history, carry a hostile text.
    static func failing(_ store: any SchedulerStore) async throws {
        let unit = UnitState(unit: "docs", source: "docs", domain: "com.test.docs")
        let now = Date()
        try await store.recordAttemptStart(unit, at: now, forced: false)
        try await store.recordFailure(unit, error: hostile, failures: 4, retryAt: now.addingTimeInterval(3600))
        try await store.append(RunRecord(
            unit: "docs", source: "docs", domain: "com.test.docs", startedAt: now, finishedAt: now.addingTimeInterval(1.5), decision: .failed,
            reason: "the plugin failed", indexed: 0, deleted: 0, rejected: 0, error: hostile, forced: false
        ))
    }

    @Test(arguments: StoreBackend.allCases)
    func thePageShowsAFailingUnitWithItsErrorEscaped(backend: StoreBackend) async throws {
        try await SchedulerAPITests.withAPI(backend, prepare: Self.failing) { client, _ in
            let page = try await client.execute(uri: "/", method: .get)
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            let html = String(buffer: page.body)
            #expect(html.contains(#"<tr data-unit="docs" class="failing">"#), "\(html)")
            #expect(html.contains("&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt; &amp; &#39;feed&#39; unreachable"))
            #expect(!html.contains("<script>alert"), "the error text reached the page unescaped")
            #expect(html.contains("<strong>1</strong> failing"))
            #expect(html.contains("spotlight") == false && html.contains("docs_gate"), "the gate in force is listed")
            #expect(html.contains("1.5 s"), "the run in the history, with its duration")
            #expect(!html.contains(SchedulerAPITests.token))
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aPurgeWhoseRowsAreStillBeingReclaimedShowsItsProgress(backend: StoreBackend) async throws {
        try await SchedulerAPITests.withAPI(backend, prepare: { store in _ = try await store.purge(domain: "com.test.docs") }) { client, _ in
            let html = String(buffer: try await client.execute(uri: "/", method: .get).body)
            // When it was purged reads against the real clock: "just now", or minutes on a busy machine.
            #expect(html.contains(#/<code>com.test.docs</code>: 3 items purged (just now|\d+ min ago), 3 rows left/#), "\(html)")
            let status = try SchedulerAPITests.json(try await client.execute(uri: "/status", method: .get))
            let pending = try #require(status["pendingPurges"] as? [[String: Any]])
            #expect(pending.first?["domain"] as? String == "com.test.docs" && pending.first?["rowsLeft"] as? Int == 3)
            #expect(status["totalItems"] as? Int == 0, "gone from the counts at once")
        }
    }

    @Test func thePageAndItsAssetsForbidInlineCodeAndOtherOrigins() async throws {
        try await SchedulerAPITests.withAPI(.sqlite) { client, _ in
            for (uri, type) in [("/", "text/html"), ("/assets/status.js", "text/javascript"), ("/assets/status.css", "text/css")] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .ok, "\(uri)")
                #expect(response.headers[.contentType]?.hasPrefix(type) == true, "\(uri)")
                #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(uri)")
                let policy = try #require(response.headers[.contentSecurityPolicy], "\(uri)")
                #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'") && !policy.contains("unsafe"), "\(policy)")
            }
            let html = String(buffer: try await client.execute(uri: "/", method: .get).body)
            // Every script is the page's file: none inline, no event handler attributes, nothing from elsewhere.
            #expect(html.components(separatedBy: "<script").count == 2)
            #expect(html.contains(#"<script src="/assets/status.js" defer></script>"#))
            #expect(html.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil)
            #expect(!html.contains("http://") && !html.contains("https://"), "no external resource")
        }
    }

    /// Trouble first: failing units, then overdue, running and due ones, then the rest, in config order within each;
    /// each chip of the summary links to its units alone (`?show=`), and anything else is refused with the kinds.
    @Test(arguments: StoreBackend.allCases)
    func unitsInTroubleComeFirstAndEachChipShowsItsUnitsAlone(backend: StoreBackend) async throws {
        try await SchedulerAPITests.withHarness(backend, sourceSettings: ", partitions: [a, b, c, d]", prepare: { store in
            let now = Date()
            let running = UnitState(unit: "docs/b", source: "docs", domain: "com.test.docs.b")
            try await store.recordAttemptStart(running, at: now, forced: false)
            // On a shared store, a run is alive while its replica holds the unit's lease.
            _ = try await store.leases?.take(Lease.unitName("docs/b"), holder: "replica-1", for: .seconds(600))
            let failing = UnitState(unit: "docs/c", source: "docs", domain: "com.test.docs.c")
            try await store.recordAttemptStart(failing, at: now, forced: false)
            try await store.recordFailure(failing, error: "upstream answered 503", failures: 2, retryAt: now.addingTimeInterval(3600))
        }) { harness in
            func units(_ uri: String) async throws -> [String] {
                let html = String(buffer: try await harness.client.execute(uri: uri, method: .get).body)
                return html.matches(of: #/<tr data-unit="([^"]+)"/#).map { String($0.1) }
            }
            let all = try await units("/")
            #expect(all == ["docs/c", "docs/b", "docs/a", "docs/d"], "failing, running, then the due ones in config order: \(all)")
            #expect(try await units("/?show=failing") == ["docs/c"])
            #expect(try await units("/?show=running") == ["docs/b"])
            #expect(try await units("/?show=due") == ["docs/a", "docs/d"])
            #expect(try await units("/?show=overdue") == [])
            let page = String(buffer: try await harness.client.execute(uri: "/?show=due", method: .get).body)
            #expect(page.contains(#"<p id="showing">Only the due units · <a href="/">show every unit</a></p>"#), "\(page)")
            for link in [#"href="/?show=failing#units""#, #"href="/?show=running#units""#, #"href="/status""#, #"href="/metrics""#, #"href="/healthz""#] {
                #expect(page.contains(link), "\(link)")
            }
            let none = String(buffer: try await harness.client.execute(uri: "/?show=overdue", method: .get).body)
            #expect(none.contains("None overdue now."))

            let refused = try await harness.client.execute(uri: "/?show=%3Cscript%3E", method: .get)
            #expect(refused.status == .badRequest)
            #expect(String(buffer: refused.body).contains("show must be one of failing, overdue, running, due"))
            #expect(!String(buffer: refused.body).contains("<script>"))
        }
    }
}
