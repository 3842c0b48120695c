import Foundation
import FuzzSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Hostile input against the real binary and the real server: seeded, bounded, a few seconds each.
@Suite("Fuzzing the binary and the service")
struct FuzzTests {
    /// Runs `scheduler arguments…` and waits at most `seconds`; `nil` when it hung (it is then killed). The wait is
    /// generous: a run takes a second or two alone, but the whole suite on two cores once starved one past 20 s.
    func run(_ arguments: [String], input: Data = Data(), within seconds: Double = 120) async throws -> SchedulerProcess.Outcome? {
        let (process, stdin, stdout, stderr) = try SchedulerProcess.start(arguments)
        let output = Drain(stdout), errors = Drain(stderr)
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            _ = await process.exited()
            return nil
        }
        return SchedulerProcess.Outcome(status: process.terminationStatus, stdout: output.text(), stderr: errors.text())
    }

    @Test func mutatedConfigFilesExitZeroOrTwoWithAMessage() async throws {
        var mutator = Mutator(seed: 41)
        for round in 0..<45 {
            let workspace = try Workspace()
            let config = URL(fileURLWithPath: try workspace.copyExampleConfig())
            let file = ["scheduler.yaml", "gates.yaml", "experiments.yaml"][round % 3]
            let path = config.appendingPathComponent(file).path
            let mutated = mutator.mutate(try String(contentsOfFile: path, encoding: .utf8), maxMutations: 3)
            try mutated.write(toFile: path, atomically: true, encoding: .utf8)
            let outcome = try await #require(try run(["validate", "--config", config.path]), "validate hung on:\n\(mutated)")
            #expect([0, 2].contains(outcome.status), "exit \(outcome.status) on:\n\(mutated)\n\(outcome.stderr)")
            if outcome.status == 2 { #expect(!outcome.stderr.isEmpty) }
        }
    }

    /// Posts with mutated TOML front matter (the Hugo and Zola fixtures, and the texts that aborted the process
    /// under toml++), read by `run-once` through the posts plugin: every run ends with 0 and a report, never a
    /// signal, never a hang.
    @Test func mutatedTOMLPostsNeverKillARun() async throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sites = repository.appendingPathComponent("Tests/PluginTests/Fixtures/Sites")
        let seeds = try FileManager.default.enumerator(atPath: sites.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".md") }.sorted()
            .map { try String(contentsOf: sites.appendingPathComponent($0), encoding: .utf8) }.filter { $0.hasPrefix("+++") }
            + ["+++\ndate = 2024-05-01Tcol:07:00\n+++\n", "+++\nx = { date = 2024-05-01Tcol:07:00 }\n+++\n", "+++\nx = [2024-05-01Tcol:07:00]\n+++\n",
               "+++\na = [}\n+++\n", "+++\n\u{FEFF}[[[a]]]\n+++\n", "+++\n\u{FEFF}[ =]\n+++\n",
               "+++\n" + Array(repeating: "a", count: 30_000).joined(separator: ".") + " = 1\n+++\n"]
        #expect(seeds.count > 10)
        let setup = try SourceWorkspace()
        try setup.editConfig(replacing: "plugin: command", with: "plugin: posts")
        try setup.editConfig(replacing: "options: { command: [./feed.sh], timeout: 30m }", with: "options: { directory: posts, flavor: hugo }")
        var mutator = Mutator(seed: 43)
        for round in 0..<12 {
            try? FileManager.default.removeItem(atPath: setup.workspace.path("posts"))
            for (index, seed) in seeds.enumerated() {
                let text = round == 0 ? seed : mutator.mutate(seed, maxMutations: 3)
                try setup.workspace.write("posts/post-\(index).md", text)
            }
            let outcome = try await #require(try run(["run-once", "--force", "--json"] + setup.config, within: 120), "run-once hung in round \(round)")
            #expect(outcome.status == 0, "round \(round): exit \(outcome.status)\n\(outcome.stderr.suffix(2_000))")
            #expect(outcome.stdout.contains("\"decision\""), "round \(round): no report: \(outcome.stdout.prefix(500))")
        }
    }

    @Test func mutatedItemLinesAreImportedOrRejectedLineByLine() async throws {
        let workspace = try Workspace()
        var mutator = Mutator(seed: 42)
        let valid = #"{"uniqueIdentifier":"ITEM","domainIdentifier":"com.fuzz","title":"Fuzzed cheese","keywords":["brie"],"expirationDate":"2099-01-31T10:00:00Z"}"#
        let lines = (0..<1500).map { mutator.mutate(valid.replacingOccurrences(of: "ITEM", with: "i\($0)"), maxMutations: 2) }
        let outcome = try await #require(try run(["index", "import", "-"] + workspace.database, input: Data(lines.joined(separator: "\n").utf8)))
        #expect([0, 1].contains(outcome.status), "\(outcome.stderr.suffix(500))")
        #expect(outcome.stdout.contains("imported "), "\(outcome.stdout)")
        let search = try await #require(try run(["search", "fuzzed", "--json"] + workspace.database))
        #expect(search.status == 0)
    }

    @Test func randomRequestsNeverGetA500AndNeverStopTheService() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a b c")
        let service = try await RunningService(setup.config, environment: ["SCHEDULER_ADMIN_TOKEN": "fuzz-token"])
        #expect(try await eventually { try await service.searchTotal() == 3 })
        var mutator = Mutator(seed: 43)
        var random = SeededGenerator(seed: 44)
        let paths = ["/search?q=doc", "/search?q=doc&limit=5&offset=0&domain=com.test.docs&type=public.item", "/status", "/healthz",
                     "/metrics", "/sources/docs/reindex", "/domains/com.test.docs/purge", "/", "/search"]
        let port = try #require(service.base.port)
        var statuses: [Int: Int] = [:]
        for round in 0..<250 {
            let target = mutator.mutate(paths.randomElement(using: &random)!, maxMutations: 3)
            let method = ["GET", "POST", "DELETE", "PUT", "G\u{0}T"][round % 5]
            // Never a purge of the real domain by chance: the fuzzer targets parsing, not the admin's intent.
            if target.contains("/purge"), target.contains("com.test.docs") { continue }
            let connection = try RawConnection(port: port)
            connection.send("\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + (round % 3 == 0 ? "Authorization: Bearer fuzz-token\r\n" : "") + "Connection: close\r\n\r\n")
            let response = await connection.response(within: 10)
            // A request line the parser refuses may be answered 400 or simply closed; never a 5xx.
            guard let status = response.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap({ Int($0) }) else { continue }
            statuses[status, default: 0] += 1
            #expect(status < 500, "\(method) \(target) answered \(status)")
        }
        #expect(statuses.keys.contains(200) && statuses.keys.contains(where: { (400..<500).contains($0) }), "\(statuses)")
        #expect(try await service.request("/healthz").status == 200)
        #expect(await service.terminate() == 0, "\(service.log)")
    }
}
