import Foundation
import ProcessSupport
import StoreSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What an operator and a service manager see when the service cannot start, or loses its database: exit codes
/// that say whether a restart may help, and answers within seconds that say what is wrong.
@Suite("Starting, and losing the database")
struct StartupAndOutageTests {
    func postgresWorkspace(port: Int? = nil, settings: String = "") async throws -> (SourceWorkspace, serverPort: Int) {
        try await SourceWorkspace.onPostgres(port: port, settings: settings)
    }

    @Test func aStoppedPostgreSQLGets503sWithASentenceWithinSeconds() async throws {
        let server = try await postgresWorkspace()
        let proxy = try TCPProxy(to: server.serverPort)
        let (setup, _) = try await postgresWorkspace(port: proxy.port)
        try setup.setFeed("a")
        let service = try await RunningService(setup.config)
        #expect(try await eventually { try await service.searchTotal() == 1 })

        proxy.stop()
        for path in ["/healthz", "/search?q=doc", "/status"] {
            var request = URLRequest(url: URL(string: path, relativeTo: service.base)!)
            // Before: the first of each hung past 20 s, then a raw ConnectionPoolError.
            request.timeoutInterval = 15
            let (data, response) = try await URLSession.shared.data(for: request)
            let body = String(decoding: data, as: UTF8.self)
            #expect((response as? HTTPURLResponse)?.statusCode == 503, "\(path): \(body)")
            // A request's own deadline (3 s), or the shared head read's a search waits on (2 s), or the pool's refusal,
            // or a connection the stop closed under a statement (ConnectionLost).
            let sentences = ["did not answer within 3 s", "did not answer within 2 s", "cannot be reached", "check that the server runs", "the database closed the connection before answering"]
            #expect(sentences.contains { body.contains($0) }, "\(path): \(body)")
            #expect(!body.contains("ConnectionPoolError"), "\(path): \(body)")
            if path != "/healthz" {
                let retry = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Retry-After")
                #expect(retry == "1" || retry == "5", "\(path): a client is told when to try again")
            }
        }
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    @Test func aMissingPasswordVariableOrDatabaseExitsTwoAndNothingAnsweringExitsOne() async throws {
        let missing = try await postgresWorkspace(settings: ", passwordFromEnvironment: SCHEDULER_TEST_NO_SUCH_PASSWORD").0
        let outcome = try await missing.run(["run"])
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("SCHEDULER_TEST_NO_SUCH_PASSWORD, which is not set"), "\(outcome.stderr)")

        let noDatabase = try await postgresWorkspace().0
        try noDatabase.editConfig(replacing: "/scheduler_test_", with: "/missing_scheduler_test_")
        let refused = try await noDatabase.run(["run"])
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("does not exist"), "\(refused.stderr)")

        let proxy = try TCPProxy(to: 1)
        proxy.stop()
        let nothing = try await postgresWorkspace(port: proxy.port).0
        let unanswered = try await nothing.run(["run"])
        #expect(unanswered.status == 1, "a server still starting may answer after a restart: \(unanswered.stderr)")
        #expect(unanswered.stderr.contains("nothing answers at 127.0.0.1:\(proxy.port)"), "\(unanswered.stderr)")
    }

    /// A state folder the service's user cannot write (as root, the service runs as `nobody` for this test).
    @Test func aReadOnlyStateFolderExitsTwo() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a")
        try setup.editConfig(replacing: "path: index.sqlite", with: "path: state/index.sqlite")
        try FileManager.default.createDirectory(atPath: setup.workspace.path("state"), withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: setup.workspace.path("state"))
        let run = ["run"] + setup.config
        // As root, through setpriv as `nobody`, who cannot write the folder either.
        let (executable, arguments) = getuid() == 0
            ? (URL(fileURLWithPath: "/usr/bin/setpriv"), ["--reuid=65534", "--regid=65534", "--clear-groups", "--", SchedulerProcess.executable.path] + run)
            : (SchedulerProcess.executable, run)
        let errors = Pipe()
        let process = try ChildProcess(executable, arguments: arguments, standardError: .pipe(errors))
        let drained = Drain(errors)
        _ = await process.exited()
        let text = drained.text()
        #expect(process.terminationStatus == 2, "\(text)")
        #expect(text.contains("refusing to start") && text.contains(setup.workspace.path("state")), "\(text)")
    }
}
