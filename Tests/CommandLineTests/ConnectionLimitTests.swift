import Foundation
import ProcessSupport
import Testing

/// Clients that hold connections (silent, or keep-alive with a request now and then) cannot lock operators out:
/// one client address holds a bounded share, connections are recycled, and `service.adminListen` has slots of its own.
@Suite("scheduler run: connection limits")
struct ConnectionLimitTests {
    static let healthz = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    /// A workspace with one item to index, whose `service:` mapping gains `settings`.
    func workspace(service settings: String) throws -> SourceWorkspace {
        let setup = try SourceWorkspace()
        try setup.editConfig(replacing: "service: { tick: 1h, listen: 127.0.0.1:0 }", with: "service: { tick: 1h, listen: 127.0.0.1:0, \(settings) }")
        try setup.setFeed("a")
        return setup
    }

    @Test func aThousandConnectionsFromOneClientLeaveHealthAnsweredForOthers() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a")
        let service = try await RunningService(setup.config)
        let port = try #require(service.base.port)
        // Silent connections from one address: without a per-client limit, 256 of them held every slot for the idle
        // timeout and the rest queued in front of everyone else.
        // Opened on a thread of their own: a connect may wait while the server's backlog is full.
        let held = try await onOwnThread { try (0..<1_000).map { _ in try RawConnection(port: port) } }
        let probe = try RawConnection(port: port, from: "127.0.0.2")
        probe.send(Self.healthz.replacingOccurrences(of: "\r\n\r\n", with: "\r\nConnection: close\r\n\r\n"))
        // Answered at once when it passes; the bound only stops a failing test (the machine may be busy).
        let answer = await probe.response(within: 30)
        #expect(answer.hasPrefix("HTTP/1.1 200"), "healthz from another client: \(answer.prefix(200))")
        // Past the client's share, connections were closed as they arrived.
        var closed = 0
        for connection in held.suffix(200) where await connection.isClosedByServer(within: 5) { closed += 1 }
        #expect(closed == 200, "\(closed) of the last 200 connections were closed")
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    /// Idle keep-alive connections from many addresses, each within its client's share, more than the server's slots:
    /// under slot pressure the idle connection that waited longest is closed, so another client is served at once
    /// instead of after an idle timeout (before, 272 such connections from 16 addresses kept `/healthz` from answering).
    @Test func idleConnectionsFromManyAddressesMakeRoomForANewClient() async throws {
        let setup = try workspace(service: "idleTimeout: 5m, maxConnectionsPerClient: 64")
        let service = try await RunningService(setup.config)
        let port = try #require(service.base.port)
        // 2,000 connections from 50 addresses: half have had a request answered (keep-alive), half sent nothing.
        let held = try await onOwnThread {
            try (0..<2_000).map { index in
                let connection = try RawConnection(port: port, from: "127.0.0.\(10 + index % 50)")
                if index.isMultiple(of: 2) { connection.send(Self.healthz) }
                return connection
            }
        }
        let started = Date()
        let probe = try RawConnection(port: port, from: "127.0.1.1")
        probe.send(Self.healthz.replacingOccurrences(of: "\r\n\r\n", with: "\r\nConnection: close\r\n\r\n"))
        // Answered at once when it passes; the bound only stops a failing test (the machine may be busy).
        let answer = await probe.response(within: 30)
        #expect(answer.hasPrefix("HTTP/1.1 200"), "healthz from another client: \(answer.prefix(200))")
        let waited = Date().timeIntervalSince(started)
        #expect(waited < 30, "answered after \(waited) s")
        withExtendedLifetime(held) {}
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    @Test func theOperatorsListenerAnswersWhileClientsHoldEveryPublicSlot() async throws {
        let setup = try workspace(service: "adminListen: 127.0.0.1:0, maxConnections: 8")
        let service = try await RunningService(setup.config, environment: ["SCHEDULER_ADMIN_TOKEN": "secret-token"], operators: true)
        let port = try #require(service.base.port), operators = try #require(service.operatorsBase)
        #expect(try await eventually { try await service.searchTotal() == 1 })

        // Eight clients, each within its own limit, hold every public slot.
        let held = try (2..<10).map { try RawConnection(port: port, from: "127.0.0.\($0)") }
        #expect(try await service.request("/healthz", on: operators).status == 200)
        #expect(try await service.request("/metrics", on: operators).body.contains("scheduler_runs_total"))
        // Admin actions and the console move to the operators' listener, which serves the pages and search too.
        #expect(try await service.request("/sources/docs/reindex", method: "POST", token: "secret-token", on: operators).status == 202)
        #expect(try await service.request("/signin", on: operators).status == 200)
        withExtendedLifetime(held) {}
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    @Test func theAdminActionsAreNotOnThePublicListenerOnceOperatorsHaveTheirOwn() async throws {
        let setup = try workspace(service: "adminListen: 127.0.0.1:0")
        let service = try await RunningService(setup.config, environment: ["SCHEDULER_ADMIN_TOKEN": "secret-token"], operators: true)
        #expect(try await service.request("/sources/docs/reindex", method: "POST", token: "secret-token").status == 404)
        #expect(try await service.request("/signin").status == 404, "no console on the public listener")
        #expect(try await service.request("/").body.contains("Sign in") == false, "its pages stay read-only")
        #expect(try await service.request("/healthz").status == 200, "health stays on the public listener too")
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    @Test func aKeepAliveConnectionServesAtMostItsShareOfRequests() async throws {
        let setup = try workspace(service: "maxRequestsPerConnection: 3")
        let service = try await RunningService(setup.config)
        let connection = try RawConnection(port: try #require(service.base.port))
        connection.send(String(repeating: Self.healthz, count: 5))
        // Three answers, the last saying it closes, then the server closes: well before the idle timeout.
        let answers = await connection.response(within: 20)
        #expect(answers.components(separatedBy: "HTTP/1.1 200").count - 1 == 3, "\(answers)")
        #expect(answers.lowercased().contains("connection: close"), "\(answers)")
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    @Test func aConnectionThatSendsARequestNowAndThenIsClosedAtItsMaximumAge() async throws {
        let setup = try workspace(service: "idleTimeout: 60s, maxConnectionAge: 2s")
        let service = try await RunningService(setup.config)
        let connection = try RawConnection(port: try #require(service.base.port))
        connection.send(Self.healthz)
        // The idle timeout is a minute away; the age limit closes it within seconds.
        #expect(await connection.isClosedByServer(within: 20))
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    @Test func aPortInUseNamesTheAddressAndTheSettingAndExitsTwo() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a")
        let service = try await RunningService(setup.config)
        let port = try #require(service.base.port)
        let other = try SourceWorkspace()
        try other.editConfig(replacing: "listen: 127.0.0.1:0", with: "listen: 127.0.0.1:\(port)")
        try other.setFeed("a")
        let outcome = try await SchedulerProcess.run(["run"] + other.config)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("cannot listen on 127.0.0.1:\(port) (service.listen): the address is already in use"), "\(outcome.stderr)")
        #expect(await service.terminate() == 0, "\(service.log)")
    }
}
