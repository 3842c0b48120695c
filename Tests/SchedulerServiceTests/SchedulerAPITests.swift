import CommandPlugin
import Engine
import Foundation
import HostSupport
import Hummingbird
import HummingbirdTesting
import Indexing
import PluginAPI
import Prometheus
import SchedulerConfig
import SchedulerService
import Store
import StoreSupport
import Testing

/// The HTTP API in process (Hummingbird's router test framework), on a real store of each backend: statuses and
/// JSON bodies a client sees, bad input refused with a message, admin routes behind their token.
@Suite("The HTTP API, in process")
struct SchedulerAPITests {
    static let token = "s3cret-token"

    /// What a test of the API reaches: its client, and the parts behind it.
    struct Harness: Sendable {
        let client: any TestClientProtocol
        let passLock: LockFile
        let store: any SchedulerStore
        let opens: OpenCounter
        let searches: SearchCounter
        let api: SchedulerAPI

        /// Writes what the counters hold, as the service does every few seconds (searches still being typed too).
        func writeUsage() async {
            await UsageWriter(counter: opens, searches: searches, index: store.index, retention: { .seconds(86_400) }, logger: .init(label: "test"))
                .writePending(everything: true)
        }
    }

    /// Runs `body` with a client of an API over a fresh store holding three items of the source `docs`, and what
    /// `prepare` wrote.
    static func withAPI(
        _ backend: StoreBackend, adminToken: String? = token, search: String = "",
        prepare: @escaping @Sendable (any SchedulerStore) async throws -> Void = { _ in },
        _ body: @escaping @Sendable (any TestClientProtocol, LockFile) async throws -> Void
    ) async throws {
        try await withHarness(backend, adminToken: adminToken, search: search, prepare: prepare) { try await body($0.client, $0.passLock) }
    }

    /// Runs `body` with an API over a fresh store holding three items of the source `docs`, and what `prepare` wrote;
    /// `service` is written as the `service:` section of `scheduler.yaml`, `sourceSettings` inside the source's mapping.
    static func withHarness(
        _ backend: StoreBackend, adminToken: String? = token, search: String = "", service: String = "", sourceSettings: String = "",
        prepare: @escaping @Sendable (any SchedulerStore) async throws -> Void = { _ in },
        searchCopy: (any SearchCopy & SearchCopySnapshotting)? = nil,
        searchStructures: @escaping @Sendable (any SchedulerStore) throws -> [any SearchStructureKeeping] = { _ in [] },
        _ body: @escaping @Sendable (Harness) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("api-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
            store: { sqlite: { path: index.sqlite } }
            \(search)
            \(service)
            sources:
              docs: { plugin: command, domain: com.test.docs, gate: docs_gate, schedule: daily, options: { command: [./feed.sh] }\(sourceSettings) }
            """.write(to: folder.appendingPathComponent("scheduler.yaml"), atomically: true, encoding: .utf8)
        try "gates:\n  docs_gate: { enabled: true }\n".write(to: folder.appendingPathComponent("gates.yaml"), atomically: true, encoding: .utf8)
        let configuration = try ConfigLoader(directory: folder.path, registry: PluginRegistry([CommandSource.self])).load()
        let passLock = try LockFile(path: folder.appendingPathComponent("index.sqlite.lock").path)
        try await backend.withFreshStore(clock: SystemWallClock()) { store in
            try await store.index.upsert((1...3).map {
                SearchableItem(uniqueIdentifier: "doc-\($0)", domainIdentifier: "com.test.docs", title: "Document \($0)")
            })
            try await prepare(store)
            // Opens are counted by the minute and hour of a clock stopped at the start: no test depends on when it runs.
            let clock = FixedWallClock(Date())
            let opens = OpenCounter(clock: clock), searches = SearchCounter(clock: clock)
            let api = SchedulerAPI(
                active: ActiveConfiguration(configuration), store: store, passLock: passLock, trigger: PassTrigger(),
                health: ServiceHealth(), metrics: SchedulerMetrics(), metricsRegistry: PrometheusCollectorRegistry(), authorization: AdminAuthorization(token: adminToken),
                opens: opens, searches: searches,
                // In process, the suite's other tests can starve the handlers' threads for seconds: no 503 for that.
                storeDeadline: StoreDeadline(limit: .seconds(120)),
                searchStructures: try searchStructures(store),
                searchCopy: searchCopy
            )
            try await Application(router: api.router()).test(.router) { client in
                try await body(Harness(client: client, passLock: passLock, store: store, opens: opens, searches: searches, api: api))
            }
        }
    }

    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    static let bearer: HTTPFields = [.authorization: "Bearer \(token)"]

    @Test(arguments: StoreBackend.allCases)
    func searchAnswersJSONAndRefusesBadParametersWithAMessage(backend: StoreBackend) async throws {
        try await Self.withAPI(backend) { client, _ in
            let found = try await client.execute(uri: "/search?q=docu&limit=2", method: .get)
            #expect(found.status == .ok)
            #expect(try Self.json(found)["total"] as? Int == 3)
            #expect((try Self.json(found)["hits"] as? [Any])?.count == 2)
            #expect(try Self.json(found)["facets"] == nil, "no facets unless asked")
            let faceted = try Self.json(try await client.execute(uri: "/search?q=docu&limit=1&facets=domainTree,type", method: .get))
            #expect(faceted["facets"] as? [String: [String: Int]] == [
                "domainTree": ["com": 3, "com.test": 3, "com.test.docs": 3], "type": ["public.item": 3],
            ])
            #expect(faceted["facetsAreExact"] as? Bool == true)
            let newest = try Self.json(try await client.execute(uri: "/search?q=docu&sort=newest", method: .get))
            #expect(newest["total"] as? Int == 3 && (newest["hits"] as? [Any])?.count == 3, "sort=newest answers the same matches")
            let grouped = try Self.json(try await client.execute(uri: "/search?q=docu&distinct=page&sort=newest", method: .get))
            #expect(grouped["total"] as? Int == 3, "three pages of their own")
            for (uri, message) in [
                ("/search?q=a&sort=oldest", "sort: unknown order 'oldest'; the orders are relevance, newest"),
                ("/search?q=a&sort=", "unknown order ''"),
                ("/search?q=a&distinct=section", "distinct: unknown value 'section'; the values are page"),
                ("/search", "the query parameter q"), ("/search?q=a&limit=abc", "whole numbers"),
                ("/search?q=a&limit=5000", "limit"), ("/search?q=a&domain=bad..domain", "domain"),
                ("/search?q=a&facets=domain,authors", "facets: unknown facet 'authors'; the facets are domain, domainTree, type, version"),
                ("/search?q=a&facets=", "unknown facet ''"),
                ("/search?q=a&version=", "version: must be a version of 1 to 64 bytes"), ("/search?q=a&version=v1%0A", "version: must be"),
            ] {
                let refused = try await client.execute(uri: uri, method: .get)
                #expect(refused.status == .badRequest, "\(uri)")
                #expect((try Self.json(refused)["error"] as? String)?.contains(message) == true, "\(uri): \(String(buffer: refused.body))")
            }
        }
    }

    /// `version=` over HTTP: the current version unless named, `*` for every one, counted by `facets=version`; each
    /// hit names its version.
    @Test(arguments: StoreBackend.allCases)
    func versionNamesTheDocumentationVersionSearched(backend: StoreBackend) async throws {
        try await Self.withAPI(backend, prepare: { store in
            try await store.index.upsert(["v1", "v2"].map { version in
                SearchableItem(uniqueIdentifier: "guide-\(version)", domainIdentifier: "com.test.docs", title: "Upgrade guide", version: version, isCurrentVersion: version == "v2")
            })
        }) { client, _ in
            func found(_ query: String) async throws -> [String: Any] {
                try Self.json(try await client.execute(uri: "/search?q=upgrade" + query, method: .get))
            }
            func versions(_ json: [String: Any]) -> [String] { (json["hits"] as? [[String: Any]])?.compactMap { $0["version"] as? String }.sorted() ?? [] }
            #expect(versions(try await found("")) == ["v2"])
            #expect(versions(try await found("&version=v1")) == ["v1"])
            let all = try await found("&version=*&facets=version")
            #expect(versions(all) == ["v1", "v2"])
            #expect(all["facets"] as? [String: [String: Int]] == ["version": ["v1": 1, "v2": 1]])
            #expect(versions(try await found("&version=v3")).isEmpty)
        }
    }

    /// A repeated search is answered from the result cache with the body its first answer rendered, until a commit
    /// changes what it finds.
    @Test(arguments: StoreBackend.allCases)
    func aRepeatedSearchAnswersTheSameBodyUntilACommitChangesIt(backend: StoreBackend) async throws {
        try await Self.withHarness(backend) { harness in
            let first = try await harness.client.execute(uri: "/search?q=docu", method: .get)
            for _ in 0..<3 {
                let again = try await harness.client.execute(uri: "/search?q=docu", method: .get)
                #expect(again.status == .ok && String(buffer: again.body) == String(buffer: first.body))
            }
            try await harness.store.index.upsert([
                SearchableItem(uniqueIdentifier: "doc-2", domainIdentifier: "com.test.docs", title: "Document two, renamed")
            ])
            let changed = try await harness.client.execute(uri: "/search?q=docu", method: .get)
            #expect(String(buffer: changed.body).contains("Document two, renamed"), "\(String(buffer: changed.body))")
            let repeated = try await harness.client.execute(uri: "/search?q=docu", method: .get)
            #expect(String(buffer: repeated.body) == String(buffer: changed.body))
        }
    }

    /// `search.typos` of the configuration in force decides what a typo finds.
    @Test(arguments: StoreBackend.allCases)
    func searchForgivesTyposAsTheConfigurationSays(backend: StoreBackend) async throws {
        try await Self.withAPI(backend) { client, _ in
            let found = try Self.json(try await client.execute(uri: "/search?q=documnet", method: .get))
            #expect(found["total"] as? Int == 3)
            let hits = try #require(found["hits"] as? [[String: Any]])
            #expect((hits.first?["highlights"] as? [String: Any])?["title"] as? [[Int]] == [[0, 8]])
        }
        try await Self.withAPI(backend, search: "search: { typos: false }") { client, _ in
            let found = try await client.execute(uri: "/search?q=documnet", method: .get)
            #expect(try Self.json(found)["total"] as? Int == 0)
        }
    }

    /// `search.synonyms` of the configuration in force: a word finds the phrases of its group.
    @Test(arguments: StoreBackend.allCases)
    func searchFindsSynonymsTheConfigurationNames(backend: StoreBackend) async throws {
        let uri = "/search?q=paper"
        try await Self.withAPI(backend) { client, _ in
            let found = try Self.json(try await client.execute(uri: uri, method: .get))
            #expect(found["total"] as? Int == 0)
        }
        try await Self.withAPI(backend, search: "search: { synonyms: [[paper, document]] }") { client, _ in
            let found = try Self.json(try await client.execute(uri: uri, method: .get))
            #expect(found["total"] as? Int == 3)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func healthIsUnavailableUntilTheLoopRunsAndChecksTheDatabase(backend: StoreBackend) async throws {
        try await Self.withAPI(backend) { client, _ in
            let health = try await client.execute(uri: "/healthz", method: .get)
            #expect(health.status == .serviceUnavailable)
            #expect(try Self.json(health)["problem"] as? String == "the reconcile loop is not running")
            #expect(try Self.json(health)["database"] as? Bool == true)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func statusListsTheUnitsAndTheirItems(backend: StoreBackend) async throws {
        try await Self.withAPI(backend) { client, _ in
            let status = try Self.json(try await client.execute(uri: "/status", method: .get))
            let units = try #require(status["units"] as? [[String: Any]])
            #expect(units.map { $0["unit"] as? String } == ["docs"])
            #expect(units.first?["items"] as? Int == 3)
            #expect(units.first?["gate"] as? String == "on")
            #expect((status["replicas"] != nil) == (backend != .sqlite), "replicas are listed for a store with leases only (PostgreSQL, the memory twin)")
        }
    }

    @Test func adminRoutesNeedTheToken() async throws {
        try await Self.withAPI(.sqlite) { client, _ in
            let anonymous = try await client.execute(uri: "/sources/docs/reindex", method: .post)
            #expect(anonymous.status == .unauthorized)
            let wrong = try await client.execute(uri: "/sources/docs/reindex", method: .post, headers: [.authorization: "Bearer nope"])
            #expect(wrong.status == .unauthorized)
            let queued = try await client.execute(uri: "/sources/docs/reindex", method: .post, headers: Self.bearer)
            #expect(queued.status == .accepted)
            let unknown = try await client.execute(uri: "/sources/doc/reindex", method: .post, headers: Self.bearer)
            #expect(unknown.status == .badRequest)
            #expect((try Self.json(unknown)["error"] as? String)?.contains("the sources are docs") == true)
        }
        try await Self.withAPI(.sqlite, adminToken: nil) { client, _ in
            let closed = try await client.execute(uri: "/domains/com.test.docs/purge", method: .post, headers: Self.bearer)
            #expect(closed.status == .forbidden, "no token configured: admin routes are closed")
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aPurgeDeletesTheDomainUnlessAPassHoldsTheLock(backend: StoreBackend) async throws {
        try await Self.withAPI(backend) { client, passLock in
            let bad = try await client.execute(uri: "/domains/com..docs/purge", method: .post, headers: Self.bearer)
            #expect(bad.status == .badRequest)
            try await PassLock.withPass(file: passLock) {
                let busy = try await client.execute(uri: "/domains/com.test.docs/purge", method: .post, headers: Self.bearer)
                #expect(busy.status == .conflict)
            }
            let purged = try await client.execute(uri: "/domains/com.test.docs/purge", method: .post, headers: Self.bearer)
            #expect(purged.status == .ok)
            #expect(try Self.json(purged)["deleted"] as? Int == 3)
            #expect(try Self.json(try await client.execute(uri: "/search?q=docu", method: .get))["total"] as? Int == 0)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aPausedSourceRefusesForcedRunsUntilResumedAndStatusSaysSo(backend: StoreBackend) async throws {
        try await Self.withHarness(backend) { harness in
            let client = harness.client
            let anonymous = try await client.execute(uri: "/sources/docs/pause", method: .post)
            #expect(anonymous.status == .unauthorized)
            #expect(try await harness.store.pausedSources().isEmpty, "a refused request pauses nothing")

            let paused = try await client.execute(uri: "/sources/docs/pause", method: .post, headers: Self.bearer)
            #expect(paused.status == .ok)
            #expect(try Self.json(paused)["changed"] as? Bool == true)
            #expect(try await harness.store.pausedSources()["docs"]?.pausedBy.hasPrefix("the admin API") == true)
            let again = try await client.execute(uri: "/sources/docs/pause", method: .post, headers: Self.bearer)
            #expect(try Self.json(again)["changed"] as? Bool == false)

            let forced = try await client.execute(uri: "/sources/docs/reindex", method: .post, headers: Self.bearer)
            #expect(forced.status == .conflict)
            #expect((try Self.json(forced)["error"] as? String)?.contains("scheduler resume --source docs") == true)

            let status = try Self.json(try await client.execute(uri: "/status", method: .get))
            let units = try #require(status["units"] as? [[String: Any]])
            #expect(units.first?["paused"] as? Bool == true)
            #expect((status["pausedSources"] as? [[String: Any]])?.first?["source"] as? String == "docs")
            let page = String(buffer: try await client.execute(uri: "/?show=paused", method: .get).body)
            #expect(page.contains(#"data-unit="docs""#) && page.contains(#"<span class="paused">paused</span>"#))

            let unknown = try await client.execute(uri: "/sources/doc/pause", method: .post, headers: Self.bearer)
            #expect(unknown.status == .badRequest)
            #expect((try Self.json(unknown)["error"] as? String)?.contains("did you mean 'docs'?") == true)

            let resumed = try await client.execute(uri: "/sources/docs/resume", method: .post, headers: Self.bearer)
            #expect(resumed.status == .ok)
            #expect(try Self.json(resumed)["changed"] as? Bool == true)
            #expect(try await harness.store.pausedSources().isEmpty)
            #expect(try await client.execute(uri: "/sources/docs/reindex", method: .post, headers: Self.bearer).status == .accepted)
            let notPaused = try await client.execute(uri: "/?show=paused", method: .get)
            #expect(!String(buffer: notPaused.body).contains(#"data-unit="docs""#))
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aCancelDropsAQueuedForcedRunAndMarksRunningUnitsOrSaysThereIsNothing(backend: StoreBackend) async throws {
        try await Self.withHarness(backend) { harness in
            let client = harness.client
            let idle = try await client.execute(uri: "/sources/docs/cancel", method: .post, headers: Self.bearer)
            #expect(idle.status == .conflict)
            #expect((try Self.json(idle)["error"] as? String)?.contains("nothing to cancel") == true)
            let unknown = try await client.execute(uri: "/sources/doc/cancel", method: .post, headers: Self.bearer)
            #expect(unknown.status == .badRequest)
            #expect(try await client.execute(uri: "/sources/docs/cancel", method: .post).status == .unauthorized)

            #expect(try await client.execute(uri: "/sources/docs/reindex", method: .post, headers: Self.bearer).status == .accepted)
            let unit = UnitState(unit: "docs", source: "docs", domain: "com.test.docs")
            try await harness.store.recordAttemptStart(unit, at: Date(), forced: false)
            let cancelled = try await client.execute(uri: "/sources/docs/cancel", method: .post, headers: Self.bearer)
            #expect(cancelled.status == .accepted)
            let body = try Self.json(cancelled)
            #expect(body["droppedQueuedRun"] as? Bool == true && body["units"] as? [String] == ["docs"])
            #expect(try await harness.store.cancelRequest(unit: "docs")?.hasPrefix("the admin API") == true)
            let again = try Self.json(try await client.execute(uri: "/sources/docs/cancel", method: .post, headers: Self.bearer))
            #expect(again["droppedQueuedRun"] as? Bool == false, "the queued run is gone")
        }
    }
}
