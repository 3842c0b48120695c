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
        let message = try await PgBouncer.with(server: server, ignoring: []) { location in await PostgresOpeningTests.opening(location) }
        #expect(message.contains("unsupported startup parameter"), "\(message)")
        #expect(message.contains("ignore_startup_parameters = idle_in_transaction_session_timeout, jit"), "\(message)")
        #expect(message.contains("docs/operating.md"), "\(message)")
    }

    /// Through a PgBouncer that ignores the settings, as the guide says, until the server sets them for the role: the
    /// store works, and warns that its sessions run without them.
    @Test func throughAPoolerSetUpAsTheGuideSaysTheStoreIndexesAndSearches() async throws {
        guard case .postgres(let direct) = try await StoreBackend.postgres.freshLocation(in: FileManager.default.temporaryDirectory) else {
            Issue.record("not a PostgreSQL location")
            return
        }
        let throughThePooler = LogRecorder()
        let found = try await PgBouncer.with(server: direct, ignoring: ["idle_in_transaction_session_timeout", "jit"]) { location in
            try await StoreOpener.withStore(.postgres(location), logger: throughThePooler.logger()) { store in
                try await store.index.upsert([
                    SearchableItem(uniqueIdentifier: "delivery", domainIdentifier: "com.shop.help", title: "Délais de livraison"),
                    SearchableItem(uniqueIdentifier: "returns", domainIdentifier: "com.shop.help", title: "Retours"),
                ])
                return try await store.index.search(try SearchQuery(text: "livr")).hits.map(\.uniqueIdentifier)
            }
        }
        #expect(found == ["delivery"])
        // The tests' server runs PostgreSQL's defaults: JIT on, idle transactions never ended.
        #expect(throughThePooler.count("sessions run with idle_in_transaction_session_timeout = 0, jit = on instead of") == 1, "\(throughThePooler.messages)")
        let directly = LogRecorder()
        try await StoreOpener.withStore(.postgres(direct), logger: directly.logger()) { _ in }
        #expect(!directly.contains("sessions run with"), "\(directly.messages)")
    }
}

/// A PgBouncer (Debian's) in front of a server, in a folder of its own, on a free port of 127.0.0.1, in transaction mode,
/// passing every client on with the server's user and password: what ``with(server:ignoring:_:)`` runs.
enum PgBouncer {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `body` with `server`'s database through a PgBouncer that ignores the startup parameters `ignoring` names,
    /// then stops it and removes its folder. Run as the `postgres` user (Debian's `postgresql` makes it) when this
    /// process is root, which PgBouncer refuses to run as. Started again on another port when another program took
    /// the one it was given first.
    static func with<Value: Sendable>(
        server: PostgresLocation, ignoring: [String], _ body: (PostgresLocation) async throws -> Value
    ) async throws -> Value {
        let executable = "/usr/sbin/pgbouncer"
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw Failure(description: "pgbouncer is not installed: apt-get install -y pgbouncer (.ci/run does)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pgbouncer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "\"\(server.username)\" \"\(server.password ?? "")\"\n".write(to: folder.appendingPathComponent("users.txt"), atomically: true, encoding: .utf8)
        let asPostgres = geteuid() == 0
        if asPostgres, let user = getpwnam("postgres") { _ = chown(folder.path, user.pointee.pw_uid, user.pointee.pw_gid) }
        var failures: [String] = []
        for _ in 0..<3 {
            let port = try freePort()
            let ini = folder.appendingPathComponent("pgbouncer-\(port).ini")
            try configuration(server: server, port: port, ignoring: ignoring, folder: folder).write(to: ini, atomically: true, encoding: .utf8)
            // setpriv becomes PgBouncer, which then gets the SIGTERM that stops it (runuser would wait 2 s to pass it on).
            let process = asPostgres
                ? try ChildProcess(URL(fileURLWithPath: "/usr/bin/setpriv"), arguments: ["--reuid=postgres", "--regid=postgres", "--init-groups", executable, ini.path])
                : try ChildProcess(URL(fileURLWithPath: executable), arguments: [ini.path])
            let started = try await accepting(process, port: port)
            guard started else {
                _ = await process.exited()
                failures.append((try? String(contentsOf: folder.appendingPathComponent("pgbouncer-\(port).log"), encoding: .utf8)) ?? "no log")
                continue
            }
            var location = server
            (location.host, location.port) = ("127.0.0.1", Int(port))
            let outcome: Result<Value, any Error>
            do { outcome = .success(try await body(location)) } catch { outcome = .failure(error) }
            process.terminate()
            _ = await process.exited()
            return try outcome.get()
        }
        throw Failure(description: "pgbouncer did not start, three times; its logs: \(failures.joined(separator: "\n"))")
    }

    private static func configuration(server: PostgresLocation, port: UInt16, ignoring: [String], folder: URL) -> String {
        """
        [databases]
        * = host=\(server.host) port=\(server.port)
        [pgbouncer]
        listen_addr = 127.0.0.1
        listen_port = \(port)
        unix_socket_dir =
        auth_type = trust
        auth_file = \(folder.path)/users.txt
        logfile = \(folder.path)/pgbouncer-\(port).log
        pool_mode = transaction
        ignore_startup_parameters = \(ignoring.joined(separator: ", "))

        """
    }

    /// Whether `process` accepts connections on `port` within 10 s (false when it ended: another program took the port).
    private static func accepting(_ process: ChildProcess, port: UInt16) async throws -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while process.isRunning, ContinuousClock.now < deadline {
            if accepts(port: port) { return process.isRunning }
            try await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning {
            process.terminate()
            throw Failure(description: "pgbouncer did not accept connections on port \(port) within 10 s")
        }
        return false
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
