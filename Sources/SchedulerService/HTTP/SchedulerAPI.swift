public import Engine
import Foundation
public import Hummingbird
import HummingbirdAuth
import HummingbirdCore
public import Indexing
public import Logging
import NIOCore
import PluginAPI
public import Prometheus
public import SchedulerConfig
public import Store
public import ServiceLifecycle

/// The service's HTTP API: the status page, health, Prometheus metrics, status, search, items and their opening,
/// and the admin actions (reindex, pause, resume, cancel, purge, analytics).
public struct SchedulerAPI: Sendable {
    let active: ActiveConfiguration
    let store: any SchedulerStore
    let passLock: LockFile
    let trigger: PassTrigger
    let health: ServiceHealth
    let metrics: SchedulerMetrics
    let metricsRegistry: PrometheusCollectorRegistry
    let authorization: AdminAuthorization
    /// Counts the results people open (`/open`).
    let opens: OpenCounter
    /// Counts the queries people search for (`/search`).
    let searches: SearchCounter
    /// How long a request waits for the store before it answers 503.
    let storeDeadline: StoreDeadline
    /// The search structures the service keeps (the SQLite index's, a replica's search copy's): their rows are a metric.
    let searchStructures: [any SearchStructureKeeping]
    /// The console's sessions, kept in the store given (run it as a service, so expired ones are dropped).
    let sessions: ConsoleSessions
    /// Holds back clients that sign in with wrong tokens.
    let signIns = AttemptThrottle()
    /// Holds back clients that send the admin API wrong bearer tokens.
    let bearerAttempts = AttemptThrottle()
    /// Who may search and read items (`search.access`).
    let searchGate: SearchGate
    /// Searches counted per key and per token subject (`search.rateLimit`).
    let searchRateLimit = SearchRateLimit()
    /// The service's secret search keys derive from; `nil` when it is not set.
    let searchKeySecrets: SearchKeySecrets?
    /// A replica's copy of the shared index: its warming makes the replica not ready, and new replicas fetch it.
    let searchCopy: (any SearchCopy & SearchCopySnapshotting)?

    public init(
        active: ActiveConfiguration, store: any SchedulerStore, passLock: LockFile, trigger: PassTrigger, health: ServiceHealth,
        metrics: SchedulerMetrics, metricsRegistry: PrometheusCollectorRegistry, authorization: AdminAuthorization,
        opens: OpenCounter, searches: SearchCounter, storeDeadline: StoreDeadline = .request,
        sessionStore: any PersistDriver = MemoryPersistDriver(), searchStructures: [any SearchStructureKeeping] = [],
        searchKeySecrets: SearchKeySecrets? = nil, searchCopy: (any SearchCopy & SearchCopySnapshotting)? = nil
    ) {
        sessions = ConsoleSessions(storage: sessionStore)
        self.searchCopy = searchCopy
        self.searchKeySecrets = searchKeySecrets
        searchGate = SearchGate(active: active, store: store, secrets: searchKeySecrets)
        self.searchStructures = searchStructures
        self.opens = opens
        self.searches = searches
        self.storeDeadline = storeDeadline
        self.active = active
        self.store = store
        self.passLock = passLock
        self.trigger = trigger
        self.health = health
        self.metrics = metrics
        self.metricsRegistry = metricsRegistry
        self.authorization = authorization
    }

    /// What one listener serves.
    public enum Routes: Sendable {
        /// Everything: the one listener of a service without `service.adminListen`.
        case all
        /// The pages (read-only, without the console), search, items, opens, health, metrics and status, without the
        /// admin actions and the console (they are on the operators' listener).
        case publicOnly
        /// Everything, the admin actions and the console included: `service.adminListen`.
        case operators
    }

    /// The routes of a listener, ready for an `Application`, each `GET` answering `HEAD` too. The console (sign-in
    /// and the pages' actions) is served where the admin actions are, when an admin token is set.
    public func router(_ routes: Routes = .all) -> HeadRequests<Router<SchedulerRequestContext>> {
        let router = Router(context: SchedulerRequestContext.self)
        let console = routes != .publicOnly && authorization.isEnabled
        if console { router.add(middleware: sessions) }
        router.get("healthz") { _, _ in await healthz() }
        router.get("readyz") { _, _ in await readyz() }

        // While search is keyed, what the pages, `/status` and `/metrics` tell (domains, counts, what people typed) is
        // for operators.
        let operatorPages = router.group().add(middleware: OperatorsWhenSearchIsKeyed(
            active: active, adminOnly: AdminOnly(authorization: authorization, attempts: bearerAttempts)
        ))
        operatorPages.get("status") { _, _ in try await status() }
        operatorPages.get("metrics") { _, _ in await exposition() }
        operatorPages.get("/") { request, context in
            await page { () async throws(APIError) -> Response in
                try await statusPage(
                    showing: UnitTrouble.named(request.queryFields["show"]),
                    console: ConsoleView(available: console, session: context.sessions.session), notice: ConsoleNotice.text(request.queryFields["notice"])
                )
            }
        }
        operatorPages.get("units/**") { request, context in
            await page { () async throws(APIError) -> Response in
                try await unitPage(
                    context.parameters.getCatchAll().joined(separator: "/"),
                    console: ConsoleView(available: console, session: context.sessions.session), notice: ConsoleNotice.text(request.queryFields["notice"])
                )
            }
        }
        addContractRoutes(to: router)
        router.get("assets/status.css") { _, _ in StatusPage.stylesheet() }
        router.get("assets/status.js") { _, _ in StatusPage.script() }
        router.get("search-box.js") { _, _ in
            Response(
                status: .ok,
                headers: [
                    .contentType: "text/javascript; charset=utf-8", .cacheControl: "public, max-age=300", .xContentTypeOptions: "nosniff",
                    // Other sites' pages load it, their Cross-Origin-Embedder-Policy included.
                    .crossOriginResourcePolicy: "cross-origin",
                ],
                body: ResponseBody(byteBuffer: ByteBuffer(string: SearchBoxScript.source))
            )
        }
        addItemRoutes(to: router)
        if routes != .publicOnly {
            let admin = router.group().add(middleware: AdminOnly(authorization: authorization, attempts: bearerAttempts))
            admin.post("sources/{name}/reindex") { request, context in
                try await reindex(source: context.parameters.get("name") ?? "", mode: request.queryFields["mode"])
            }
            admin.post("sources/{name}/pause") { _, context in
                JSONResponse.make(try await pause(
                    source: context.parameters.get("name") ?? "", by: "the admin API (\(ClientKey.of(context.remoteAddress) ?? "in process"))"
                ))
            }
            admin.post("sources/{name}/resume") { _, context in JSONResponse.make(try await resume(source: context.parameters.get("name") ?? "")) }
            admin.post("sources/{name}/cancel") { _, context in
                JSONResponse.make(
                    try await cancel(source: context.parameters.get("name") ?? "", by: "the admin API (\(ClientKey.of(context.remoteAddress) ?? "in process"))"),
                    status: .accepted
                )
            }
            admin.post("domains/{domain}/purge") { _, context in try await purge(domain: context.parameters.get("domain") ?? "") }
            admin.get("analytics") { request, _ in try await analytics(request) }
            addKeyRoutes(to: admin)
            addSearchCopyRoute(to: router)
        }
        if console { addConsoleRoutes(to: router) }
        return HeadRequests(routes: router)
    }

    /// What `/healthz` and `/readyz` answer.
    struct Health: Encodable {
        var loop: Bool
        var database: Bool
        var lastPass: Date?
        var lastPassError: String?
        var problem: String?
    }

    /// 200 while the loop runs, the database answers and is still the file opened at start, and the last pass
    /// did not fail as a whole; else 503 with the reason in `problem`.
    func healthz() async -> Response {
        let report = await healthReport(forSearch: false)
        return JSONResponse.make(report, status: report.problem == nil ? .ok : .serviceUnavailable)
    }

    /// The service's health, and its problem: for `/healthz` the loop, the database and the last pass; for `/readyz`
    /// (`forSearch`) only what serving searches needs, the database, a search copy that is not warming, and search
    /// postings held.
    func healthReport(forSearch: Bool) async -> Health {
        let loop = await health.loopIsAlive
        var databaseProblem: String?
        do {
            try await databaseHealth()
        } catch {
            databaseProblem = "\(error)"
        }
        let lastPassError = await health.lastPassError
        let problem: String?
        if forSearch {
            let (copyWarming, postingsWarming) = (await searchCopy?.isWarming == true, await searchStructuresAreWarming())
            problem = databaseProblem.map { "the database: \($0)" }
                ?? (copyWarming ? "the search copy is being fetched from another replica" : nil)
                ?? (postingsWarming ? "the search postings are being read or built: searches read every row meanwhile" : nil)
        } else {
            problem = !loop ? "the reconcile loop is not running"
                : databaseProblem.map { "the database: \($0)" } ?? lastPassError.map { "the last pass failed: \($0)" }
        }
        return Health(
            loop: loop, database: databaseProblem == nil, lastPass: await health.lastPassFinishedAt, lastPassError: lastPassError,
            problem: problem
        )
    }

    /// Whether any search structures are kept but none held yet (``SearchStructureKeeping/areWarming``).
    private func searchStructuresAreWarming() async -> Bool {
        for structures in searchStructures where await structures.areWarming { return true }
        return false
    }

    /// The Prometheus text, with the store's health checked for this scrape.
    func exposition() async -> Response {
        metrics.recordDatabaseHealth((try? await databaseHealth()) != nil)
        metrics.refreshOverdue(now: Date())
        var (rows, without) = (0, 0)
        for structures in searchStructures {
            rows += await structures.searchStructureRows
            without += await structures.searchesWithoutThem
        }
        metrics.recordSearchPostings(rows: rows, searchesWithoutThem: without)
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: metricsRegistry.emitToBuffer()))
        )
    }

    func status() async throws(APIError) -> Response {
        JSONResponse.make(try await report(configuration: await active.current))
    }

    /// `GET /`: the status page (the report, the configuration in force and the last 50 runs), its units in order of
    /// trouble, only those of `showing` when asked (`?show=`).
    func statusPage(showing: UnitTrouble? = nil, console: ConsoleView, notice: String? = nil) async throws(APIError) -> Response {
        let configuration = await active.current
        let report = try await report(configuration: configuration)
        do {
            let runs = try await storeDeadline.run { [store] in try await store.history(source: nil, limit: 50) }
            let lastWeek = SearchAnalytics.firstDay(of: .seconds(7 * 86_400), now: report.at)
            // Without the searches lacking hits when they cannot be read: the rest of the page still helps.
            let usage = try? await storeDeadline.run { [store] in try await store.index.analytics(since: lastWeek, limit: 10) }
            return StatusPage.response(StatusPageModel(
                report: report, configuration: configuration, runs: runs, queriesWithoutHits: usage?.queriesWithoutHits ?? [], showing: showing,
                console: console, notice: notice
            ))
        } catch {
            throw await unavailable(error)
        }
    }

    /// A page, or its refusal as a page (a browser shown raw JSON for `/units/nope` helps no one): the same status
    /// and sentence, with a link back to the status page.
    func page(_ render: () async throws(APIError) -> Response) async -> Response {
        do {
            return try await render()
        } catch {
            let title = switch error.status {
            case .notFound: "Not found"
            case .serviceUnavailable: "Unavailable"
            default: "Nothing was shown"
            }
            return StatusPage.response(
                RefusalPageModel(title: title, environment: await active.current.scheduler.environment, message: error.message, back: "/"),
                status: error.status
            )
        }
    }

    /// `GET /units/{unit}`: the unit's page (its state, lease, runs and their durations, and the console's actions);
    /// 404 for a unit the configuration in force does not have.
    func unitPage(_ rawUnit: String, console: ConsoleView, notice: String? = nil) async throws(APIError) -> Response {
        let configuration = await active.current
        let unit = rawUnit.removingPercentEncoding ?? rawUnit
        let report = try await report(configuration: configuration)
        guard let status = report.units.first(where: { $0.unit == unit }) else {
            throw APIError(.notFound, "no unit '\(unit.prefix(120))' in the configuration in force; the status page lists them")
        }
        do {
            let (runs, leases) = try await storeDeadline.run { [store] in
                (try await store.history(source: nil, unit: unit, limit: 50), try await store.leases?.liveLeases())
            }
            let source = configuration.scheduler.sources.first { $0.name == status.source }
            return StatusPage.response(UnitPageModel(
                report: report, unit: status, environment: configuration.scheduler.environment, runs: runs, leases: leases, console: console,
                incremental: source?.settings.sync.contains(.incremental) == true, notice: notice
            ))
        } catch {
            throw await unavailable(error)
        }
    }

    /// The status report of the configuration in force, with what the service knows beyond the store.
    private func report(configuration: SchedulerConfiguration) async throws(APIError) -> StatusReport {
        let problems = await active.rejectedProblems
        do {
            let (store, startedAt) = (store, health.startedAt)
            var report = try await storeDeadline.run {
                try await StatusReport.make(configuration: .success(configuration), store: store, now: Date(), watchingSince: startedAt)
            }
            report.configValid = problems.isEmpty
            report.problems = problems
            report.configGeneration = await active.generation
            report.lastPassError = await health.lastPassError
            return report
        } catch {
            throw await unavailable(error)
        }
    }

    /// `GET /search`: the hits of `q` as JSON; the search counted (metrics, ``SearchCounter``) unless not `counted`.
    func search(_ request: Request, audience: SearchAudience = .anyone, client: String?, counted: Bool = true) async throws(APIError) -> Response {
        let parameters = request.queryFields
        guard let text = parameters["q"], !text.isEmpty else {
            throw APIError(.badRequest, "the query parameter q (the text to search for) is required, percent-encoded as UTF-8 (%C3%A9 for é, + or %20 for a space)")
        }
        func integer(_ name: String, default value: Int) -> Int? {
            guard let raw = parameters[name] else { return value }
            return Int(raw)
        }
        guard let limit = integer("limit", default: 20), let offset = integer("offset", default: 0) else {
            throw APIError(.badRequest, "limit and offset must be whole numbers")
        }
        var query: SearchQuery
        let settings = await active.current.scheduler.search
        do {
            let facets = try parameters["facets"].map { names throws(SearchQueryError) in try SearchFacet.list(names) } ?? []
            let sort = try parameters["sort"].map { name throws(SearchQueryError) in try SearchSort.named(name) } ?? .relevance
            let distinct = try parameters["distinct"].map { name throws(SearchQueryError) in try SearchDistinct.named(name) }
            query = try SearchQuery(
                text: text, domain: parameters["domain"], contentType: parameters["type"],
                limit: limit, offset: offset, facets: facets, sort: sort, distinct: distinct, typos: settings.typos, synonyms: settings.synonyms, popularityHalfLife: settings.popularityHalfLife
            )
            query.version = try SearchVersion(parameter: parameters["version"])
        } catch {
            throw APIError(.badRequest, "\(error.parameter): \(error.reason)")
        }
        query.audience = audience
        do {
            let results = try await storeDeadline.run { [store, query] in try await store.index.search(query) }
            if counted {
                metrics.recordSearch(found: results.total > 0)
                await searches.record(text, found: results.total > 0, client: client)
            }
            return JSONResponse.search(results)
        } catch {
            throw await unavailable(error)
        }
    }

    /// The store's health check, within the request deadline.
    func databaseHealth() async throws {
        try await storeDeadline.run { [store] in try await store.checkHealth() }
    }

    /// The 503 for a store call that failed, with `Retry-After`: 1 s when the store missed the request's deadline
    /// (`service.requestDeadline`: busy, a retry soon may pass), 5 s when it failed; the health check's sentence when
    /// the database is down (a driver's own error, such as a pool's, says little to an operator), else the error.
    func unavailable(_ error: any Error) async -> APIError {
        if error is StoreDeadline.Missed { return APIError(.serviceUnavailable, "\(error); retry the request", retryAfter: 1) }
        do {
            try await databaseHealth()
            let said = (error as? any RedactableError)?.redactedDescription ?? "the database did not answer: \(error)"
            return APIError(.serviceUnavailable, said, retryAfter: 5)
        } catch {
            return APIError(.serviceUnavailable, "\(error)", retryAfter: 5)
        }
    }

    /// `POST /sources/{name}/reindex`: 202 once ``queueForcedRun(source:mode:)`` queued it.
    func reindex(source: String, mode: String?) async throws(APIError) -> Response {
        let incremental = try await queueForcedRun(source: source, mode: mode)
        struct Accepted: Encodable { var source: String; var mode: String; var status: String }
        let what = incremental ? "an incremental run" : "a forced run"
        return JSONResponse.make(
            Accepted(source: source, mode: incremental ? "incremental" : "full", status: "\(what) of every unit of the source was queued"), status: .accepted
        )
    }

    /// Queues a forced run of every unit of `source`: full, or incremental with `mode=incremental`; returns whether
    /// it is incremental. Refused for an unknown source, a mode its plugin does not run, or a paused source.
    func queueForcedRun(source: String, mode: String?) async throws(APIError) -> Bool {
        let sources = await active.current.scheduler.sources
        guard let found = sources.first(where: { $0.name == source }) else {
            throw APIError(.badRequest, "unknown source '\(source.prefix(80))'; the sources are \(sources.map(\.name).joined(separator: ", "))")
        }
        let incremental: Bool
        switch mode {
        case nil, "full": incremental = false
        case "incremental": incremental = true
        case let other?: throw APIError(.badRequest, "mode '\(other.prefix(40))' is not one of full, incremental")
        }
        if incremental, !found.settings.sync.contains(.incremental) {
            throw APIError(.badRequest, "plugin '\(found.plugin)' of source '\(source)' runs full syncs only")
        }
        try await refuseIfPaused(source)
        if incremental { try await refuseWithoutSyncState(found) }
        trigger.wake(.force(source: source, incremental: incremental))
        return incremental
    }

    /// Refuses an incremental run of `source` when none of its units would run one (409, with why, as the pass would
    /// decide it: no state committed by a successful run yet, or a full run needed first): the pass would run
    /// nothing, and the operator should know. Reads the source's units only.
    func refuseWithoutSyncState(_ source: Source) async throws(APIError) {
        let plans = await active.current.plans(at: Date()).filter { $0.unit.source == source.name }
        let decisions: [DueDecision]
        do {
            decisions = try await storeDeadline.run { [store] in
                let holding = try await store.index.domainsHoldingItems(among: plans.map(\.unit.domain))
                var decisions: [DueDecision] = []
                for plan in plans where plan.gateDecision.isOn {
                    let state = try await store.unit(plan.unit.key)
                    decisions.append(DueDecision.decide(
                        plan: plan, state: state, domainHasItems: holding.contains(plan.unit.domain), now: Date(), force: .incremental
                    ))
                }
                return decisions
            }
        } catch {
            throw await unavailable(error)
        }
        guard decisions.contains(where: \.isDue) else {
            let why = decisions.first?.reason ?? "its gate is off for every unit"
            throw APIError(.conflict, "no unit of source '\(source.name)' can run an incremental sync: \(why); run a full reindex first (mode=full); nothing was queued")
        }
    }

    /// `POST /domains/{domain}/purge`: 200 with what ``purgeDomain(_:)`` deleted.
    func purge(domain: String) async throws(APIError) -> Response {
        struct Purged: Encodable { var domain: String; var deleted: Int }
        return JSONResponse.make(Purged(domain: domain, deleted: try await purgeDomain(domain)))
    }

    /// Purges `domain` as ``OperatorPurge`` does, under the pass lock; returns how many items were deleted. Refused
    /// for a malformed domain, and while a pass or a replica's run holds it.
    func purgeDomain(_ domain: String) async throws(APIError) -> Int {
        guard DomainIdentifier.isValid(domain) else {
            throw APIError(.badRequest, DomainIdentifier.syntaxProblem(domain))
        }
        do {
            return try await PassLock.withPass(file: passLock) { try await OperatorPurge.purge(domain: domain, store: store) }
        } catch let busy as PassLock.Busy {
            throw APIError(.conflict, "busy: \(busy); try again when the pass has finished")
        } catch let busy as OperatorPurge.UnitBusy {
            throw APIError(.conflict, "busy: \(busy)")
        } catch {
            throw APIError(.serviceUnavailable, "the purge failed: \(error)")
        }
    }
}

extension SchedulerAPI {
    /// The HTTP servers of `settings`, as services: `service.listen`, and `service.adminListen` when set, each with
    /// slots of its own; `onListening` receives each address bound (with the port the system chose for port 0) and
    /// what it serves.
    public func servers(
        settings: SchedulerSettings, logger: Logger, onListening: @escaping @Sendable (String, Routes) -> Void
    ) -> [any Service] {
        guard let admin = settings.adminListen else {
            return [server(.all, on: settings.listen, setting: "service.listen", settings: settings, logger: logger, onListening: onListening)]
        }
        return [
            server(.publicOnly, on: settings.listen, setting: "service.listen", settings: settings, logger: logger, onListening: onListening),
            server(.operators, on: admin, setting: "service.adminListen", settings: settings, logger: logger, onListening: onListening),
        ]
    }

    /// One HTTP server for `routes` on `listen`.
    ///
    /// A connection that sends no request for `settings.idleTimeout` is closed (so is one trickling its request
    /// head), and at most `settings.maxConnections` are served at once: the rest wait in the kernel's accept queue
    /// instead of taking file descriptors the reconcile pass needs, and each closes the idle connection that has
    /// waited longest to be served (``EvictingConnectionLimit``). Within those, one client address holds at most
    /// `maxConnectionsPerClient`, and a connection serves `maxRequestsPerConnection` requests for
    /// `maxConnectionAge` at most (``ConnectionGuard``). A port that cannot be bound throws ``ListenFailure``.
    func server(
        _ routes: Routes, on listen: ListenAddress, setting: String, settings: SchedulerSettings, logger: Logger,
        onListening: @escaping @Sendable (String, Routes) -> Void
    ) -> some Service {
        let policy = ConnectionPolicy(
            maxPerClient: settings.maxConnectionsPerClient, maxRequests: settings.maxRequestsPerConnection,
            maxAge: .nanoseconds(Int64(settings.maxConnectionAge.components.seconds) * 1_000_000_000),
            responseGrace: .nanoseconds(Int64(settings.idleTimeout.components.seconds) * 1_000_000_000)
        )
        let clients = ClientConnections(), idle = IdleConnections()
        let application = Application(
            router: router(routes),
            server: .http1(configuration: .init(
                additionalChannelHandlers: [ConnectionGuard(policy: policy, clients: clients, idle: idle)],
                idleTimeout: .nanoseconds(Int64(settings.idleTimeout.components.seconds) * 1_000_000_000)
            )),
            configuration: ApplicationConfiguration(
                address: .hostname(listen.host, port: listen.port), serverName: "scheduler",
                availableConnectionsDelegate: EvictingConnectionLimit(maximum: settings.maxConnections, idle: idle)
            ),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? listen.port
                onListening(ListenAddress("\(listen.host.contains(":") ? "[\(listen.host)]" : listen.host):\(port)")?.description ?? "\(listen)", routes)
            },
            logger: logger
        )
        return ListeningService(application: application, address: listen, setting: setting)
    }
}
