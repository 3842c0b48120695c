public import Foundation
public import Store

/// What `scheduler.yaml` says: the environment, where the index lives, the service, defaults, and the sources.
public struct SchedulerSettings: Sendable {
    /// Matched by gates' `environments`; `production` unless set.
    public var environment: String
    /// The other environments gates may name (`environments`: where the same config folder also runs); a gate naming
    /// one outside ``environments`` is a config error, not a gate that is off.
    public var otherEnvironments: [String] = []
    /// Every environment gates may name: this service's own first.
    public var environments: [String] { [environment] + otherEnvironments }
    /// Where the index and the scheduler's state live.
    public var store: StoreLocation
    /// The prefix of this machine's files beside the store: the pass and service locks (`.lock`,
    /// `.service.lock`) and the ledger of plugin processes (`.plugins`). The SQLite file itself, or with PostgreSQL
    /// `var/postgres` in the config folder.
    public var localFilesPath: String
    /// How often the service runs the pass.
    public var tick: Duration
    /// Where the service's HTTP API listens.
    public var listen: ListenAddress
    /// How long the HTTP server keeps a connection that sends no request (`service.idleTimeout`).
    public var idleTimeout: Duration
    /// The most HTTP connections served at once; more wait in the kernel's queue (`service.maxConnections`).
    public var maxConnections: Int
    /// The most connections one client address may hold at once; more are closed as they arrive
    /// (`service.maxConnectionsPerClient`).
    public var maxConnectionsPerClient: Int
    /// The most requests one connection serves before it is closed after its response (`service.maxRequestsPerConnection`).
    public var maxRequestsPerConnection: Int
    /// How long one connection is kept, busy or not: closed after the response in progress, or at once when idle
    /// (`service.maxConnectionAge`).
    public var maxConnectionAge: Duration
    /// A second listener for operators (`service.adminListen`): health, metrics, status and the admin actions,
    /// with connection slots of its own, so clients filling `listen` never lock out a probe; `nil` for none.
    public var adminListen: ListenAddress?
    /// How long past its schedule's due instant a unit may go without a success before the service calls it
    /// overdue (`service.overdueGrace`): on the status page and as `scheduler_unit_overdue`.
    public var overdueGrace: Duration
    /// How long an HTTP request waits for the store before it is answered 503 with `Retry-After`
    /// (`service.requestDeadline`; read at start).
    public var requestDeadline: Duration
    /// The URL schemes `/open` redirects to (`service.openSchemes`), lowercased; `nil` for the default
    /// (``OpenSchemes/allowed(in:)``: `https`, `http` and the schemes of the sources' `deepLink` templates).
    public var openSchemes: Set<String>?
    /// How many opens one client address may make a minute before `/open` answers 429 (`service.openRateLimit`).
    public var openRateLimit: Int
    /// Lifetime of items that carry no expiration date.
    public var defaultExpiration: Duration
    /// The largest share of a domain one run may delete, unless a source says otherwise.
    public var defaultMaxDeleteRatio: Double
    /// How far back the delete-ratio guard looks for the domain's healthy size, unless a source says otherwise.
    public var defaultMaxDeleteWindow: Duration
    /// The time zone of calendar schedules for sources that do not name one (`defaults.timeZone`, else UTC).
    public var defaultTimeZone: TimeZone
    /// How many units run at once in one replica (`service.concurrency`): a slow source holds back no other.
    public var concurrency = SchedulerSettings.defaultConcurrency
    /// Units run at once unless `service.concurrency` says otherwise.
    public static let defaultConcurrency = 4
    /// The most units `service.concurrency` may run at once: each holds a plugin's process, its pipes and a store
    /// connection while it writes.
    public static let maxConcurrency = 64
    /// The most scheduled runs the service starts in any minute (`service.maxStartsPerMinute`); `nil`: no limit.
    public var maxStartsPerMinute: Int?
    /// What sources do with missed runs unless they say (`defaults.missedRuns`).
    public var defaultMissedRuns: MissedRuns = .once
    /// How late a scheduled run may start, unless a source says (`defaults.startingDeadline`); `nil`: however late.
    public var defaultStartingDeadline: Duration?
    /// How long a purge that turning a gate off caused can be undone, unless a source says (`defaults.purgeGrace`).
    public var defaultPurgeGrace: Duration
    /// How many runs `scheduler history` keeps (`store.history`).
    public var historyLength: Int
    /// How searches treat what people type (`search:`).
    public var search = SearchSettings()
    /// The prefix of the local files of the replica named `replicaID` (`--replica-id`): on a shared store, replicas
    /// started on one machine with ids of their own keep their own locks and plugin ledger (`var/postgres-<id>`),
    /// and a restarted replica finds what its predecessor of the same id left. Without an id, or with SQLite, it is
    /// ``localFilesPath``, so a second `scheduler run` on the same folder is refused as before.
    public func localFilesPath(replicaID: String?) -> String {
        guard case .postgres = store, let replicaID else { return localFilesPath }
        let safe = String(replicaID.unicodeScalars.prefix(100).map { scalar in
            scalar.properties.isAlphabetic && scalar.isASCII || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar)
                ? Character(scalar) : "_"
        })
        return localFilesPath + "-" + safe
    }

    /// The file of the copy of a shared store's index that the service keeps on this machine (``PostgresLocation/searchCopy``);
    /// `nil` for SQLite, or when turned off.
    public func searchCopyPath(replicaID: String?) -> String? {
        guard case .postgres(let location) = store, location.searchCopy else { return nil }
        return localFilesPath(replicaID: replicaID) + ".search.sqlite"
    }

    /// How long a unit's lease lasts on a shared store (`store.postgres.leaseTTL`); the default otherwise, unused.
    public var leaseDuration: Duration {
        if case .postgres(let location) = store { location.leaseTTL } else { StoreDefaults.leaseDuration }
    }
    /// The sources, in file order.
    public var sources: [Source]

    /// The source named `name`.
    public func source(named name: String) -> Source? {
        sources.first { $0.name == name }
    }

    /// Settings with the default of every key `scheduler.yaml` may leave out: the one place they are written
    /// (docs/configuration.md lists them).
    public init(store: StoreLocation, localFilesPath: String, sources: [Source] = []) {
        environment = "production"
        self.store = store
        self.localFilesPath = localFilesPath
        tick = .seconds(60)
        listen = ListenAddress("127.0.0.1:8080")!
        idleTimeout = .seconds(30)
        maxConnections = 256
        maxConnectionsPerClient = 32
        maxRequestsPerConnection = 1000
        maxConnectionAge = .seconds(300)
        adminListen = nil
        overdueGrace = .seconds(3600)
        requestDeadline = .seconds(3)
        openSchemes = nil
        openRateLimit = 60
        defaultExpiration = StoreDefaults.timeToLive
        defaultMaxDeleteRatio = 0.5
        defaultMaxDeleteWindow = .seconds(7 * 86_400)
        defaultTimeZone = .utc
        defaultPurgeGrace = .seconds(3600)
        historyLength = StoreDefaults.historyLength
        self.sources = sources
    }
}

/// A host and port to listen on: `127.0.0.1:8080`, `[::1]:8080`.
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int

    /// Parses `host:port`.
    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            return nil
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { return nil }
        self.host = host
        self.port = port
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
