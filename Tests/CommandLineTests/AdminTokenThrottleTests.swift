import Foundation
import ProcessSupport
import Testing

/// The admin API's bearer token has the console's attempt limit: a client sending wrong tokens is held back with 429
/// and `Retry-After` (its tokens no longer even compared), while the right token from another client still works,
/// even once wrong tokens from many addresses pass the overall limit.
@Suite("The admin token's attempt limit")
struct AdminTokenThrottleTests {
    /// `POST /sources/docs/pause` from `address` with `token`, on a connection of its own; the status line and headers.
    func pause(port: Int, from address: String, token: String) async throws -> String {
        let connection = try RawConnection(port: port, from: address)
        connection.send("POST /sources/docs/pause HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        return await connection.response(within: 20)
    }

    @Test func wrongTokensAreHeldBackPerClientAndOverallWithoutLockingOutTheRightOne() async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a")
        let service = try await RunningService(setup.config, environment: ["SCHEDULER_ADMIN_TOKEN": "secret-token"])
        let port = try #require(service.base.port)
        // A burst with the right token is never held back by its own attempts, even after a few typos.
        for _ in 0..<4 { _ = try await pause(port: port, from: "127.0.0.30", token: "typo") }
        let burst = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<10 { group.addTask { String(try await pause(port: port, from: "127.0.0.30", token: "secret-token").prefix(12)) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(burst.allSatisfy { $0 == "HTTP/1.1 200" }, "\(burst)")
        // One client: five wrong tokens are refused as wrong, then every attempt waits, the right token included.
        var statuses: [String] = []
        for _ in 0..<30 { statuses.append(String(try await pause(port: port, from: "127.0.0.2", token: "guess").prefix(12))) }
        #expect(statuses.prefix(5).allSatisfy { $0 == "HTTP/1.1 401" }, "\(statuses)")
        #expect(statuses.dropFirst(5).allSatisfy { $0 == "HTTP/1.1 429" }, "\(statuses)")
        let heldBack = try await pause(port: port, from: "127.0.0.2", token: "secret-token")
        #expect(heldBack.hasPrefix("HTTP/1.1 429") && heldBack.lowercased().contains("retry-after: "), "\(heldBack)")
        // Wrong tokens from many addresses pass the overall limit; a clean client's right token still works.
        for host in 3..<14 { for _ in 0..<5 { _ = try await pause(port: port, from: "127.0.0.\(host)", token: "guess") } }
        let overall = try await pause(port: port, from: "127.0.0.3", token: "secret-token")
        #expect(overall.hasPrefix("HTTP/1.1 429"), "a client that guessed waits: \(overall.prefix(80))")
        let operator_ = try await pause(port: port, from: "127.0.0.20", token: "secret-token")
        #expect(operator_.hasPrefix("HTTP/1.1 200"), "\(operator_.prefix(200))")
        #expect(await service.terminate() == 0, "\(service.log)")
    }
}
