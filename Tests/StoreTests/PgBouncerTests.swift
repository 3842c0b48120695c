import Foundation
import Indexing
import Logging
import PluginAPI
import ProcessSupport
import SchedulerService
import Store
import StoreSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The PostgreSQL store through PgBouncer (Debian's `pgbouncer`, started here in front of the tests' server, in
/// transaction mode), as docs/operating.md says to set it up: a PgBouncer that refuses the store's session settings is
/// named with what to set; one that ignores them, as the guide says, serves the store.
@Suite("The PostgreSQL store through PgBouncer", .timeLimit(.minutes(5)))
struct PgBouncerTests {
    @Test func aPoolerThatRefusesTheSessionSettingsIsNamedWithWhatToSet() async throws {
        let server = try StoreBackend.postgresServer()
        let bouncer = try PgBouncer(server: server, ignoring: [])
        defer { bouncer.stop() }
        let message = await PostgresOpeningTests.opening(try await bouncer.location(database: server.database))
        #expect(message.contains("unsupported startup parameter"), "\(message)")
        #expect(message.contains("ignore_startup_parameters = idle_in_transaction_session_timeout, jit"), "\(message)")
        #expect(message.contains("docs/operating.md"), "\(message)")
    }

    @Test func throughAPoolerSetUpAsTheGuideSaysTheStoreIndexesAndSearches() async throws {
        guard case .postgres(let direct) = try await StoreBackend.postgres.freshLocation(in: FileManager.default.temporaryDirectory) else {
            Issue.record("not a PostgreSQL location")
            return
        }
        let bouncer = try PgBouncer(server: direct, ignoring: ["idle_in_transaction_session_timeout", "jit"])
        defer { bouncer.stop() }
        let location = try await bouncer.location(database: direct.database)
        let found = try await StoreOpener.withStore(.postgres(location), logger: PostgresOpeningTests.quiet) { store in
            try await store.index.upsert([
                SearchableItem(uniqueIdentifier: "delivery", domainIdentifier: "com.shop.help", title: "Délais de livraison"),
                SearchableItem(uniqueIdentifier: "returns", domainIdentifier: "com.shop.help", title: "Retours"),
            ])
            return try await store.index.search(try SearchQuery(text: "livr")).hits.map(\.uniqueIdentifier)
        }
        #expect(found == ["delivery"])
    }
}

/// A PgBouncer in front of `server`, in a folder of its own, on a free port of 127.0.0.1, every client trusted, in
/// transaction mode, ignoring the startup parameters `ignoring` names; run as the `postgres` user (Debian's
/// `postgresql` makes it) when this process is root, which PgBouncer refuses to run as. Its files are readable by all.
final class PgBouncer: Sendable {
    private let process: ChildProcess
    private let folder: URL
    let port: UInt16

    struct NotInstalled: Error, CustomStringConvertible {
        var description: String { "pgbouncer is not installed: apt-get install -y pgbouncer (.ci/run does)" }
    }

    init(server: PostgresLocation, ignoring: [String]) throws {
        let executable = URL(fileURLWithPath: "/usr/sbin/pgbouncer")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else { throw NotInstalled() }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pgbouncer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try Self.freePort()
        try "\"\(server.username)\" \"\"\n".write(to: folder.appendingPathComponent("users.txt"), atomically: true, encoding: .utf8)
        try """
            [databases]
            * = host=\(server.host) port=\(server.port)
            [pgbouncer]
            listen_addr = 127.0.0.1
            listen_port = \(port)
            unix_socket_dir =
            auth_type = trust
            auth_file = \(folder.path)/users.txt
            pool_mode = transaction
            ignore_startup_parameters = \(ignoring.joined(separator: ", "))

            """.write(to: folder.appendingPathComponent("pgbouncer.ini"), atomically: true, encoding: .utf8)
        let ini = folder.appendingPathComponent("pgbouncer.ini").path
        if geteuid() == 0 {
            process = try ChildProcess(URL(fileURLWithPath: "/usr/sbin/runuser"), arguments: ["-u", "postgres", "--", executable.path, ini])
        } else {
            process = try ChildProcess(executable, arguments: [ini])
        }
    }

    /// `database` on the server through this PgBouncer, once it accepts connections.
    func location(database: String) async throws -> PostgresLocation {
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while !Self.accepts(port: port) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                throw PgBouncerDidNotStart(running: process.isRunning)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        var location = try StoreBackend.postgresServer()
        (location.host, location.port, location.database) = ("127.0.0.1", Int(port), database)
        return location
    }

    struct PgBouncerDidNotStart: Error, CustomStringConvertible {
        let running: Bool
        var description: String { "pgbouncer did not accept connections within 10 s (\(running ? "still running" : "it exited"))" }
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    /// A port of 127.0.0.1 nobody listens on now: the kernel's choice for a socket bound to port 0.
    private static func freePort() throws -> UInt16 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EINVAL) }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Whether something accepts a TCP connection on 127.0.0.1:`port`.
    private static func accepts(port: UInt16) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
