public import Foundation

/// Where the index and the scheduler's state live: `store: { sqlite: … }` or `store: { postgres: … }` in
/// `scheduler.yaml`, exactly one of them.
public enum StoreLocation: Sendable, Hashable {
    /// One SQLite file, its path resolved against the config folder: the embedded default.
    case sqlite(path: String)
    /// A PostgreSQL database, which several replicas can share.
    case postgres(PostgresLocation)

    /// The prefix of this machine's files beside the store (locks, the plugin ledger): the SQLite file itself, or
    /// `var/postgres` in the config folder.
    public func localFilesPath(configDirectory: URL) -> String {
        switch self {
        case .sqlite(let path): path
        case .postgres: configDirectory.appendingPathComponent("var/postgres").standardizedFileURL.path
        }
    }
}

extension StoreLocation {
    /// The SQLite file at `path`, named by its real path: absolute, its symbolic links resolved (a link whose target
    /// does not exist yet followed all the same, since SQLite creates the target; the folder's alone when the file does
    /// not exist). Every file beside it (the pass and service locks, the plugin ledger, the saved search postings) is
    /// named after it, so a process reaching the same database through a link, a relative path or `..` shares them:
    /// `scheduler purge --database LINK` is told a pass is running where `scheduler run` serves the real path,
    /// instead of purging beside it.
    public static func sqlite(resolving path: String) -> StoreLocation {
        var path = path
        // A link to a file not made yet: its target, as SQLite will create it (at most 40 links, as the kernel follows).
        for _ in 0..<40 {
            if let real = realPath(path) { return .sqlite(path: real) }
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else { break }
            path = target.hasPrefix("/") ? target : URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(target).path
        }
        return .sqlite(path: realPath(parentOf: path) ?? path)
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The real path of `path`'s folder, joined with its last component.
    private static func realPath(parentOf path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        guard let folder = realPath(url.deletingLastPathComponent().path) else { return nil }
        return URL(fileURLWithPath: folder).appendingPathComponent(url.lastPathComponent).path
    }
}

/// A PostgreSQL database as `store.postgres` names it.
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
    /// How the connection is encrypted (`tls:`): `prefer` (TLS when the server offers it, its certificate not
    /// checked; the default), `require` (refuse a server without TLS; its certificate is verified against the
    /// system's roots) or `disable`.
    public enum TLSMode: String, Sendable, Hashable, CaseIterable {
        case disable, prefer, require
    }

    public var host: String
    public var port: Int
    public var username: String
    public var database: String
    /// A password written in the URL (better kept out of files: see ``passwordFromEnvironment``).
    public var password: String?
    /// The environment variable holding the password, read when the store is opened.
    public var passwordFromEnvironment: String?
    /// The most connections this process opens (`pool:`, ``StoreDefaults/postgresPoolSize`` unless set).
    public var poolSize: Int
    /// How long a unit's lease lasts unless renewed (`leaseTTL:`, ``StoreDefaults/leaseDuration`` unless set): a replica killed mid-run
    /// holds its unit that long before another one redoes it.
    public var leaseTTL: Duration = StoreDefaults.leaseDuration
    /// Whether `scheduler run` keeps a copy of the index on this machine that answers searches (`searchCopy:`, on
    /// unless set to `false`): searches in the embedded index's time, spread over the replicas.
    public var searchCopy = true
    public var tls: TLSMode

    public init(
        host: String, port: Int = 5432, username: String, database: String, password: String? = nil,
        passwordFromEnvironment: String? = nil, poolSize: Int = StoreDefaults.postgresPoolSize, tls: TLSMode = .prefer
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.database = database
        self.password = password
        self.passwordFromEnvironment = passwordFromEnvironment
        self.poolSize = poolSize
        self.tls = tls
    }

    /// Parses `postgres://user[:password]@host[:port]/database`; `nil` with the reason when it is not one.
    public static func parse(url text: String) -> Result<PostgresLocation, URLProblem> {
        guard let components = URLComponents(string: text), let scheme = components.scheme else {
            return .failure(URLProblem(reason: "is not a URL; write postgres://user@host:5432/database"))
        }
        guard ["postgres", "postgresql"].contains(scheme.lowercased()) else {
            return .failure(URLProblem(reason: "has scheme '\(scheme)'; write postgres://user@host:5432/database"))
        }
        guard var host = components.host, !host.isEmpty else {
            return .failure(URLProblem(reason: "names no host; write postgres://user@host:5432/database"))
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard let user = components.user, !user.isEmpty else {
            return .failure(URLProblem(reason: "names no user; write postgres://user@\(host)/database"))
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            return .failure(URLProblem(reason: "names no database; write postgres://\(user)@\(host)/database"))
        }
        if let query = components.query, !query.isEmpty {
            return .failure(URLProblem(reason: "has query parameters ('\(query)'), which are not read; set tls: and pool: beside url:"))
        }
        return .success(PostgresLocation(
            host: host, port: components.port ?? 5432, username: user, database: database, password: components.password
        ))
    }

    /// Why a `url:` is not a PostgreSQL URL.
    public struct URLProblem: Error, Sendable, Hashable {
        public var reason: String
    }

    /// The URL without its password, for logs and status pages.
    public var description: String {
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        return "postgres://\(username)@\(host):\(port)/\(database)"
    }
}
