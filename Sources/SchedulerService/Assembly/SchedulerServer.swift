public import Engine
import Foundation
public import HostSupport
import Hummingbird
public import Logging
import PluginAPI
public import Prometheus
public import SchedulerConfig
import ServiceLifecycle
import SQLiteStore
import Indexing
import Store

/// `scheduler run` assembled: the reconcile loop, the config watcher and the HTTP API over one store, run in one
/// `ServiceGroup` until SIGTERM or SIGINT. The executable parses flags, takes the locks and bootstraps logging
/// and metrics; everything else is here.
public struct SchedulerServer: Sendable {
    let loader: ConfigLoader
    let loadedFrom: ConfigFolderSnapshot
    let configuration: SchedulerConfiguration
    let passLock: LockFile
    let metricsRegistry: PrometheusCollectorRegistry
    let adminToken: String?
    let searchKeySecrets: SearchKeySecrets?
    let replica: ReplicaName
    /// Where other replicas reach this one's operators' listener (`--advertise-url`); the address it binds when `nil`.
    let advertiseURL: String?
    let clock: any WallClock
    let logger: Logger

    /// - Parameters:
    ///   - loadedFrom: the config folder as it was when `configuration` was loaded, so a change made since is seen.
    ///   - passLock: the pass lock's file, opened once at start.
    ///   - metricsRegistry: the registry the executable bootstrapped swift-metrics with, served at `/metrics`.
    ///   - adminToken: the bearer token of the admin endpoints; they are refused when `nil`.
    ///   - searchKeySecrets: the service's secret search keys derive from; without it no search key is recognized.
    ///   - replica: this replica's id on a shared store, and whether it was given.
    ///   - advertiseURL: the base URL other replicas fetch this one's search copy from; without it, the address its
    ///     operators' listener binds, unless that is every interface (`0.0.0.0`, `::`), which others cannot dial.
    ///   - clock: the wall clock the passes decide by (the system's, unless a drill moves it).
    public init(
        loader: ConfigLoader, loadedFrom: ConfigFolderSnapshot, configuration: SchedulerConfiguration,
        passLock: LockFile, metricsRegistry: PrometheusCollectorRegistry, adminToken: String?, searchKeySecrets: SearchKeySecrets? = nil,
        replica: ReplicaName, advertiseURL: String? = nil, clock: any WallClock = SystemWallClock(), logger: Logger
    ) {
        self.advertiseURL = advertiseURL
        self.searchKeySecrets = searchKeySecrets
        self.clock = clock
        self.loader = loader
        self.loadedFrom = loadedFrom
        self.configuration = configuration
        self.passLock = passLock
        self.metricsRegistry = metricsRegistry
        self.adminToken = adminToken
        self.replica = replica
        self.logger = logger
    }

    /// Opens the store and serves until a shutdown signal; `onListening` receives each bound address and what it serves.
    public func run(onListening: @escaping @Sendable (String, SchedulerAPI.Routes) -> Void) async throws {
        let settings = configuration.scheduler
        // The signals reach the store's group, which passes the shutdown on to this one, then stops the store's pool.
        let clock = clock
        let searchCopy = settings.searchCopyPath(replicaID: replica.given).map {
            SQLiteSearchCopy(
                path: $0, postings: settings.search.postings, rowCacheBytes: SQLiteSearchIndex.rowCacheBytes(megabytes: settings.search.rowCacheMegabytes),
                clock: clock, logger: logger
            )
        }
        try await StoreOpener.withStore(settings, clock: clock, shutdownSignals: [.sigterm, .sigint], searchCopy: searchCopy, logger: logger) { store in
            let peers = store.leases.map { PeerSearchCopies(leases: $0, replica: replica.id, adminToken: adminToken, logger: logger) }
            if let peers { await searchCopy?.fetchNewCopies(from: peers) }
            let active = ActiveConfiguration(configuration)
            let trigger = PassTrigger(), health = ServiceHealth(), metrics = SchedulerMetrics()
            let opens = OpenCounter(), searches = SearchCounter(), sessions = MemoryPersistDriver()
            metrics.prepare(for: configuration)
            let loop = ReconcileLoop(
                active: active, store: store, processes: StoreOpener.processLedger(settings, replicaID: replica.given), passLock: passLock,
                trigger: trigger, health: health, metrics: metrics, clock: clock, replica: replica.id, logger: logger
            )
            let watcher = ConfigWatcher(loader: loader, loadedFrom: loadedFrom, active: active, trigger: trigger, metrics: metrics, logger: logger)
            let searchStructures = Self.searchStructures(store: store, searchCopy: searchCopy)
            let api = SchedulerAPI(
                active: active, store: store, passLock: passLock, trigger: trigger, health: health, metrics: metrics, metricsRegistry: metricsRegistry,
                authorization: AdminAuthorization(token: adminToken), opens: opens, searches: searches,
                storeDeadline: StoreDeadline(limit: settings.requestDeadline), sessionStore: sessions, searchStructures: searchStructures,
                searchKeySecrets: searchKeySecrets, searchCopy: searchCopy
            )
            let servers = api.servers(settings: settings, logger: logger) { [advertiseURL] address, routes in
                if let peers, routes != .publicOnly, let url = advertiseURL ?? Self.dialableURL(of: address) { peers.listening(at: url) }
                onListening(address, routes)
            }
            var group = ServiceGroupConfiguration(
                services: [.init(service: loop), .init(service: watcher), .init(service: PurgeReclaimService(store: store, logger: logger)), .init(service: sessions),
                    .init(service: UsageWriter(
                        counter: opens, searches: searches, index: store.index, retention: { await active.current.scheduler.search.analyticsRetention }, logger: logger
                    ))]
                    + servers.map { .init(service: $0) }
                    + Self.searchCopyFollowers(searchCopy, store: store, peers: peers, logger: logger).map { .init(service: $0) }
                    // With `search.postings: off` nobody keeps any: the metrics still count the searches without them.
                    + (settings.search.postings == .off ? [] : searchStructures).map { .init(service: SearchStructureKeeper(index: $0, logger: logger)) },
                logger: logger
            )
            group.maximumGracefulShutdownDuration = StoreOpener.maximumGracefulShutdown
            try await ServiceGroup(configuration: group).run()
        }
    }

    /// The search structures the service keeps up to date (each by a ``SearchStructureKeeper``, unless
    /// `search.postings` is `off`) and counts in its metrics: those of the index of `store`, when it keeps any
    /// (SQLite's), and those of a replica's search copy.
    static func searchStructures(store: any SchedulerStore, searchCopy: (any SearchCopy)?) -> [any SearchStructureKeeping] {
        return [store.index as? any SearchStructureKeeping, searchCopy as? any SearchStructureKeeping].compactMap { $0 }
    }

    /// The service keeping `copy` up to date with the index of `store`, when there is a copy and the index can be
    /// followed (PostgreSQL's).
    static func searchCopyFollowers(_ copy: (any SearchCopy)?, store: any SchedulerStore, peers: PeerSearchCopies?, logger: Logger) -> [SearchCopyFollower] {
        guard let copy, let feed = store.index as? any IndexChangeFeed else { return [] }
        return [SearchCopyFollower(copy: copy, feed: feed, peers: peers, logger: logger)]
    }

    /// `http://` and `address` (as a listener reports it) when other machines can dial it: not every interface.
    static func dialableURL(of address: String) -> String? {
        address.hasPrefix("0.0.0.0:") || address.hasPrefix("[::]:") ? nil : "http://\(address)"
    }
}
