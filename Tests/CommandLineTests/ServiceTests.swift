import Foundation
import ProcessSupport
import Testing

@Suite("scheduler run: the service")
struct ServiceTests {
    @Test func itPassesOnStartAndFollowsGateChangesButNotInvalidFiles() async throws {
        let setup = try SourceWorkspace(extraLines: "    purgeGrace: 0")
        try setup.setFeed("a b c")
        let service = try await RunningService(setup.config)

        #expect(try await eventually { try await service.searchTotal() == 3 }, "the pass ran on start")
        #expect(try await service.request("/healthz").status == 200)

        // A broken gates file that would turn the gate off: refused, nothing purged, the problem in /status.
        try setup.workspace.write("gates.yaml", "gates:\n  docs_gate: { enabled: false\n")
        #expect(try await eventually { try await service.json("/status")["configValid"] as? Bool == false })
        let status = try await service.json("/status")
        let problems = try #require(status["problems"] as? [[String: Any]])
        #expect(problems.first?["file"] as? String == "gates.yaml")
        #expect(problems.first?["line"] as? Int != nil)
        #expect(try await service.searchTotal() == 3)

        // Valid again, and off: the domain is purged within seconds.
        try setup.setGate(on: false)
        #expect(try await eventually { try await service.searchTotal() == 0 }, "turning the gate off purged the domain")
        #expect(try await eventually { (try await service.json("/status")["pendingPurges"] as? [Any])?.isEmpty == true }, "its rows were reclaimed in the background")
        #expect(try await service.json("/status")["configValid"] as? Bool == true)

        let metrics = try await service.request("/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.body.contains(#"scheduler_runs_total{source="docs",result="reindexed",mode="full"} 1"#))
        #expect(metrics.body.contains(#"scheduler_runs_total{source="docs",result="purged",mode="full"} 1"#))
        #expect(metrics.body.contains("scheduler_config_reload_failures_total 1"))
        #expect(metrics.body.contains("scheduler_run_duration_seconds_count"))
        let sample = #/^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="[^"]*",?)*\})? (-?[0-9.e+-]+|\+Inf|-Inf|NaN)$/#
        for line in metrics.body.split(separator: "\n") where !line.hasPrefix("#") {
            #expect(line.wholeMatch(of: sample) != nil, "not Prometheus text: \(line)")
        }

        #expect(await service.terminate() == 0, "\(service.log)")
    }

    /// What a person searched for, as they finished typing it, and opened, reaches `scheduler analytics` once the
    /// service stops: the last counts are written at shutdown.
    @Test func searchesAndOpensAreWrittenAtShutdownAndReported() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a b c")
        let service = try await RunningService(setup.config)
        #expect(try await eventually { try await service.searchTotal() == 3 })
        for text in ["d", "do", "doc%20a", "zebra"] {
            #expect(try await service.request("/search?q=\(text)").status == 200)
        }
        #expect(try await service.request("/open/a?q=doc%20a").status == 404, "an item without a link is not opened")
        // A query of 1 MB never reaches a handler: the HTTP parser refuses the request head, and the service goes on.
        for path in ["/open/a", "/search"] {
            let connection = try RawConnection(port: try #require(service.base.port))
            connection.send("GET \(path)?q=\(String(repeating: "a", count: 1_000_000)) HTTP/1.1\r\nHost: localhost\r\n\r\n")
            // (A 400, or a reset when the server closes while the rest of the line is still coming.)
            let response = await connection.response(within: 10)
            #expect(response.isEmpty || response.hasPrefix("HTTP/1.1 400 Bad Request"), "\(path): \(response.prefix(200))")
        }
        #expect(try await service.request("/healthz").status == 200)
        #expect(await service.terminate() == 0, "\(service.log)")

        let outcome = try await setup.run(["analytics", "--since", "1d", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let top = (report["topQueries"] as? [[String: Any]] ?? []).compactMap { $0["query"] as? String }.sorted()
        // (How keystrokes group into one search is tested on a clock the test moves: here a slow machine may pause.)
        #expect(top.contains("doc a") && top.contains("zebra"), "\(report)")
        // ("doc" may have found nothing too, polled before the first pass ended.)
        #expect((report["queriesWithoutHits"] as? [[String: Any]])?.compactMap { $0["query"] as? String }.contains("zebra") == true, "\(report)")
        let text = try await setup.run(["analytics"])
        let withoutHits = text.stdout.components(separatedBy: "queries without hits\n").last ?? ""
        #expect(withoutHits.contains("  zebra ") && withoutHits.contains("1 searches, 1 without hits, 0 opens"), "\(text.stdout)")
        #expect(try await setup.run(["analytics", "--since", "1h"]).stderr.contains("--since must be a duration of a day or more"))
    }

    /// The service saves its search postings beside the database, and a restart reads them instead of building them;
    /// a damaged file is refused with its reason and they are built again, searches right all along.
    @Test func aRestartReadsTheSavedSearchPostingsAndRefusesADamagedFile() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a b c")
        let saved = setup.workspace.path("index.sqlite.postings")
        var service = try await RunningService(setup.config)
        #expect(try await eventually { try await service.searchTotal() == 3 })
        #expect(try await eventually { FileManager.default.fileExists(atPath: saved) }, "\(service.logSoFar)")
        #expect(await service.terminate() == 0, "\(service.log)")

        service = try await RunningService(setup.config)
        #expect(try await eventually { service.logSoFar.contains("read the saved search postings") }, "\(service.logSoFar)")
        #expect(try await service.searchTotal() == 3)
        #expect(await service.terminate() == 0, "\(service.log)")

        let handle = try #require(FileHandle(forWritingAtPath: saved))
        try handle.truncate(atOffset: try handle.seekToEnd() / 2)
        try handle.close()
        service = try await RunningService(setup.config)
        #expect(try await eventually { service.logSoFar.contains("it is cut short or damaged") }, "\(service.logSoFar)")
        #expect(try await service.searchTotal() == 3)
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    @Test func aHugeNumberOnHotReloadKeepsTheServiceAndItsLastGoodConfig() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a b c")
        let service = try await RunningService(setup.config)
        #expect(try await eventually { try await service.searchTotal() == 3 })

        try setup.workspace.write("gates.yaml", "gates:\n  docs_gate: { enabled: true, rollout: 1e19 }\n")
        #expect(try await eventually { try await service.json("/status")["configValid"] as? Bool == false })
        let problems = try #require(try await service.json("/status")["problems"] as? [[String: Any]])
        #expect((problems.first?["message"] as? String)?.contains("rollout must be between 0 and 100 (got 1e+19)") == true, "\(problems)")
        #expect(try await service.request("/healthz").status == 200)
        #expect(try await service.searchTotal() == 3)
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    @Test func idleConnectionsAreClosedAndCannotCrowdOutTheService() async throws {
        let setup = try SourceWorkspace()
        try setup.editConfig(replacing: "service: { tick: 1h, listen: 127.0.0.1:0 }",
                             with: "service: { tick: 1h, listen: 127.0.0.1:0, idleTimeout: 1s, maxConnections: 4 }")
        try setup.setFeed("a b c")
        let service = try await RunningService(setup.config)
        let port = try #require(service.base.port)
        #expect(try await eventually { try await service.searchTotal() == 3 })

        // Twenty clients that connect and send nothing, and one that trickles half a request head.
        let idle = try (0..<20).map { _ in try RawConnection(port: port) }
        let trickle = try RawConnection(port: port)
        trickle.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")

        // Four at a time are served; each is closed after a second of silence, so all are gone within seconds.
        let deadline = Date().addingTimeInterval(30)
        for connection in idle + [trickle] {
            #expect(await connection.isClosedByServer(within: max(1, Int(deadline.timeIntervalSinceNow.rounded(.up)))))
        }
        #expect(try await service.request("/healthz").status == 200)
        #expect(try await service.searchTotal() == 3)
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    @Test func aDatabaseRemovedUnderTheServiceMakesItUnhealthyAndNothingIsWrittenToTheGoneFile() async throws {
        let setup = try SourceWorkspace()
        try setup.editConfig(replacing: "tick: 1h", with: "tick: 1s")
        try setup.setFeed("a b c")
        let service = try await RunningService(setup.config)
        #expect(try await eventually { try await service.searchTotal() == 3 })
        #expect(try await service.request("/healthz").status == 200)

        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: setup.workspace.path("index.sqlite" + suffix)) }

        let health = try await service.request("/healthz")
        #expect(health.status == 503)
        #expect(health.body.contains("was removed or replaced after this process opened it"), "\(health.body)")
        // The passes go on failing, visibly, and the service stays up.
        #expect(try await eventually {
            (try await service.json("/status")["lastPassError"] as? String)?.contains("removed or replaced") == true
        })
        #expect(try await eventually { try await service.request("/metrics").body.contains("scheduler_pass_failures_total 2") })
        #expect(service.process.isRunning)
        #expect(!FileManager.default.fileExists(atPath: setup.workspace.path("index.sqlite")), "no new database was made behind the operator's back")
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    @Test func aPassLockThatCannotBeOpenedStopsTheStartNotARunningService() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a")
        try FileManager.default.createDirectory(atPath: setup.workspace.path("index.sqlite.lock"), withIntermediateDirectories: true)
        let outcome = try await SchedulerProcess.run(["run"] + setup.config)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("refusing to start: cannot open the lock file"), "\(outcome.stderr)")
    }

    /// Kubernetes mounts a ConfigMap as links to `..data/FILE`, and updates it by pointing `..data` at a
    /// new folder: the watcher must see the new contents.
    @Test func aConfigMapStyleSymbolicLinkSwapIsSeenAndSIGHUPReloads() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a b")
        let files = FileManager.default, folder = setup.workspace.url
        try files.createDirectory(at: folder.appendingPathComponent("..v1"), withIntermediateDirectories: true)
        try files.moveItem(at: folder.appendingPathComponent("gates.yaml"), to: folder.appendingPathComponent("..v1/gates.yaml"))
        try files.createSymbolicLink(atPath: setup.workspace.path("..data"), withDestinationPath: "..v1")
        try files.createSymbolicLink(atPath: setup.workspace.path("gates.yaml"), withDestinationPath: "..data/gates.yaml")
        let service = try await RunningService(setup.config + ["--log-format", "json"])
        #expect(try await eventually { try await service.searchTotal() == 2 })

        try setup.workspace.write("..v2/gates.yaml", "gates:\n  docs_gate: { enabled: false }\n")
        try files.createSymbolicLink(atPath: setup.workspace.path("..data.new"), withDestinationPath: "..v2")
        #expect(rename(setup.workspace.path("..data.new"), setup.workspace.path("..data")) == 0)
        #expect(try await eventually { try await service.searchTotal() == 0 }, "the swapped gates file turned the gate off")

        let generation = try #require(try await service.json("/status")["configGeneration"] as? Int)
        kill(service.process.processIdentifier, SIGHUP)
        #expect(try await eventually { try await service.json("/status")["configGeneration"] as? Int == generation + 1 })
        #expect(await service.terminate() == 0, "\(service.log)")
        let lines = await service.finalLog.split(separator: "\n")
        #expect(lines.contains { $0.contains("SIGHUP") })
        for line in lines {
            let record = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(record?["level"] is String && record?["message"] is String, "not a JSON log line: \(line)")
        }
    }

    @Test func badRequestsGetFourHundredWithAJSONReason() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a")
        let service = try await RunningService(setup.config)
        for path in ["/search", "/search?q=", "/search?q=a&limit=0", "/search?q=a&limit=abc", "/search?q=a&offset=-1", "/search?q=a&domain=bad..domain"] {
            let (status, body) = try await service.request(path)
            #expect(status == 400, "\(path)")
            #expect(body.hasPrefix(#"{"error":"#), "\(path): \(body)")
        }
        let hostile = try await service.request("/search?q=%22%20OR%20*%20NEAR(%27%3B%20DROP%20TABLE%20item")
        #expect(hostile.status == 200)
        #expect(try await service.request("/nowhere").status == 404)
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    @Test func adminEndpointsAreClosedWithoutATokenAndRefuseAWrongOne() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a b")
        let closed = try await RunningService(setup.config)
        #expect(try await closed.request("/sources/docs/reindex", method: "POST").status == 403)
        #expect(try await closed.request("/domains/com.test.docs/purge", method: "POST", token: "anything").status == 403)
        #expect(await closed.terminate() == 0, "\(closed.log)")

        let service = try await RunningService(setup.config, environment: ["SCHEDULER_ADMIN_TOKEN": "s3cret-token"])
        #expect(try await eventually { try await service.searchTotal() == 2 })
        #expect(try await service.request("/sources/docs/reindex", method: "POST").status == 401)
        #expect(try await service.request("/sources/docs/reindex", method: "POST", token: "s3cret-tokem").status == 401)
        #expect(try await service.request("/sources/docs/reindex", method: "POST", token: "s3cret").status == 401)
        #expect(try await service.request("/sources/nothing/reindex", method: "POST", token: "s3cret-token").status == 400)

        try setup.setFeed("a b c")
        #expect(try await service.request("/sources/docs/reindex", method: "POST", token: "s3cret-token").status == 202)
        #expect(try await eventually { try await service.searchTotal() == 3 }, "the forced run indexed the new item")

        #expect(try await service.request("/domains/com..bad/purge", method: "POST", token: "s3cret-token").status == 400)
        let long = try await service.request("/domains/com.\(String(repeating: "a", count: 10_000))/purge", method: "POST", token: "s3cret-token")
        #expect(long.status == 400)
        #expect(long.body.contains("is 10004 bytes long, over the limit of 255"), "\(long.body)")
        #expect(long.body.utf8.count < 500, "the error does not echo the whole name")
        let purged = try await service.request("/domains/com.test.docs/purge", method: "POST", token: "s3cret-token")
        #expect(purged.status == 200)
        #expect(purged.body.contains(#""deleted":3"#))
        #expect(try await service.searchTotal() == 0)
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    @Test func aSecondServiceOnTheSameDatabaseRefusesToStart() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a")
        let first = try await RunningService(setup.config)
        let second = try await SchedulerProcess.run(["run"] + setup.config)
        #expect(second.status == 3)
        #expect(second.stderr.contains("already serving this database"))
        #expect(await first.terminate() == 0, "\(first.log)")
    }

    /// SIGTERM in the middle of a run: the process exits 0, the committed batch stays, no success is
    /// recorded, and the next pass redoes the run.
    @Test func sigtermDuringARunExitsZeroAndLosesNoCommittedItem() async throws {
        let setup = try SourceWorkspace()
        // A first batch of 5,000 items (the default batch size) is committed, then the feed waits.
        try setup.setFeed((1...5100).map { "i\($0)" }.joined(separator: " ") + " WAIT last")
        defer { try? setup.workspace.write("release", "") }
        let service = try await RunningService(setup.config)
        #expect(try await eventually { try await service.searchTotal() >= 1000 }, "the first batch was committed (a search counts up to 1,000)")

        #expect(await service.terminate() == 0, "\(service.log)")
        #expect(await service.finalLog.contains("stopped"))
        let committed = try await SchedulerProcess.run(["index", "stats", "--json"] + setup.config)
        #expect(committed.stdout.contains(#""total":5000"#), "\(committed.stdout)")
        let status = try await SchedulerProcess.run(["status", "--json"] + setup.config)
        #expect(!status.stdout.contains("lastSuccess"), "no success was recorded: \(status.stdout)")

        try setup.workspace.write("release", "")
        let next = try await SchedulerProcess.run(["run-once"] + setup.config)
        #expect(next.status == 0, "\(next.stderr)")
        let history = try await SchedulerProcess.run(["history"] + setup.config).stdout
        #expect(next.stdout.contains("the last run was interrupted"), "\(service.log)\n---\n\(history)")
        let after = try await SchedulerProcess.run(["index", "stats", "--json"] + setup.config)
        #expect(after.stdout.contains(#""total":5101"#), "\(after.stdout)")
    }

    /// `HEAD` answers as `GET` does, without the body, on every read endpoint (load balancers probe with it): on one
    /// kept-alive connection, each answer ends where its headers do, the next one follows intact, and a `HEAD` of a
    /// search is not counted as a search.
    @Test func headAnswersLikeGetWithoutABodyAndCountsNothing() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a b c")
        let service = try await RunningService(setup.config)
        #expect(try await eventually { try await service.searchTotal() == 3 }, "the pass ran on start")
        func searches() async throws -> [Substring] {
            try await service.request("/metrics").body.split(separator: "\n").filter { $0.hasPrefix("scheduler_searches_total{") }
        }
        let searchesBefore = try await searches()
        let get = try await service.request("/search?q=doc")

        let connection = try RawConnection(port: try #require(service.base.port))
        let paths = ["/healthz", "/search?q=doc", "/items/a", "/status", "/", "/metrics", "/no/such/page", "/items/none"]
        connection.send(paths.map { "HEAD \($0) HTTP/1.1\r\nHost: localhost\r\n\r\n" }.joined()
            + "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        let answers = await connection.response(within: 10).components(separatedBy: "HTTP/1.1 ").dropFirst()
        #expect(answers.count == paths.count + 1, "\(answers)")
        for (path, answer) in zip(paths, answers) {
            let parts = answer.components(separatedBy: "\r\n\r\n")
            #expect(parts.count == 2 && parts[1].isEmpty, "HEAD \(path) sent a body: \(answer)")
            let expected = path.hasPrefix("/no/") || path == "/items/none" ? "404" : "200"
            #expect(answer.hasPrefix(expected), "HEAD \(path): \(answer)")
        }
        let headSearch = try #require(answers.dropFirst().first).lowercased()
        #expect(headSearch.contains("content-length: \(get.body.utf8.count)\r\n"), "the length GET sends: \(headSearch)")
        #expect(try #require(answers.last).hasPrefix("200") && answers.last?.hasSuffix("\r\n\r\n") == false, "the GET after them is whole")

        let searchesAfter = try await searches()
        #expect(searchesAfter.count == searchesBefore.count && searchesAfter != searchesBefore, "the GET counted: \(searchesBefore) → \(searchesAfter)")
        _ = try await service.request("/search?q=doc", method: "HEAD")
        #expect(try await searches() == searchesAfter, "a HEAD is no search")
        #expect(await service.terminate() == 0, "\(service.log)")
    }
}
