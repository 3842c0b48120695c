import Foundation
import HostSupport
import Indexing
import NIOCore
import SchedulerService
import Testing

/// ``OpenCounter`` on a clock the test moves: the rate limit by minute, one count per client, item and hour, and
/// counts handed over whole.
@Suite("Open counter")
struct OpenCounterTests {
    final class Clock: WallClock, @unchecked Sendable {
        private let lock = NSLock()
        private var date = Date(timeIntervalSince1970: 1_790_000_000)
        func now() -> Date { lock.withLock { date } }
        func advance(_ seconds: TimeInterval) { lock.withLock { date += seconds } }
    }

    @Test func theRateLimitHoldsForAMinuteAndCountsEveryClientApart() async {
        let clock = Clock()
        let counter = OpenCounter(clock: clock)
        var admissions: [OpenCounter.Admission] = []
        for item in ["a", "b", "c", "d"] {
            admissions.append(await counter.admit(identifier: item, query: nil, client: "192.0.2.1", rateLimit: 3))
        }
        #expect(admissions == [.counted, .counted, .counted, .limited])
        #expect(await counter.admit(identifier: "a", query: nil, client: "192.0.2.2", rateLimit: 3) == .counted, "another client has its own limit")
        clock.advance(60)
        #expect(await counter.admit(identifier: "d", query: nil, client: "192.0.2.1", rateLimit: 3) == .counted, "the next minute starts afresh")
    }

    @Test func aClientCountsOnceAnItemAnHour() async {
        let clock = Clock()
        let counter = OpenCounter(clock: clock)
        #expect(await counter.admit(identifier: "a", query: "cheese", client: "192.0.2.1", rateLimit: 100) == .counted)
        #expect(await counter.admit(identifier: "a", query: "wine", client: "192.0.2.1", rateLimit: 100) == .uncounted, "redirected, not counted")
        #expect(await counter.admit(identifier: "a", query: "cheese", client: "192.0.2.9", rateLimit: 100) == .counted)
        clock.advance(3600)
        #expect(await counter.admit(identifier: "a", query: nil, client: "192.0.2.1", rateLimit: 100) == .counted)

        let tallies = await counter.drain().sorted { ($0.key.day, $0.key.query ?? "") < ($1.key.day, $1.key.query ?? "") }
        let day = 1_790_000_000 / 86_400
        #expect(tallies.map(\.key) == [
            OpenTally.Key(day: day, identifier: "a", query: nil), OpenTally.Key(day: day, identifier: "a", query: "cheese"),
        ] || tallies.count == 2, "\(tallies)")
        #expect(tallies.map(\.opens).reduce(0, +) == 5, "3 item opens and 2 for 'cheese', in all")
        #expect(await counter.drain().isEmpty, "drained counts are handed over once")

        #expect(await counter.restore(tallies) == 0)
        #expect(await counter.drain().map(\.opens).reduce(0, +) == 5, "counts a write failed to store are kept for the next")
    }

    /// Two spellings of "café" are two identifiers to every store: their opens are not merged.
    @Test func identifiersAreComparedByTheirBytes() async {
        let counter = OpenCounter(clock: Clock())
        #expect(await counter.admit(identifier: "caf\u{E9}", query: nil, client: "192.0.2.1", rateLimit: 100) == .counted)
        #expect(await counter.admit(identifier: "cafe\u{301}", query: nil, client: "192.0.2.1", rateLimit: 100) == .counted)
        let tallies = await counter.drain()
        #expect(tallies.count == 2 && tallies.allSatisfy { $0.opens == 1 }, "\(tallies)")
    }

    /// An IPv6 host has a /64 to draw addresses from: it is one client. IPv4, mapped or not, is one address.
    @Test func anIPv6ClientIsItsNetwork() throws {
        let first = try ClientKey.of(SocketAddress(ipAddress: "2001:db8:1:2::1", port: 1))
        let second = try ClientKey.of(SocketAddress(ipAddress: "2001:db8:1:2:ffff:1:2:3", port: 2))
        let elsewhere = try ClientKey.of(SocketAddress(ipAddress: "2001:db8:1:3::1", port: 1))
        #expect(first == second && first != elsewhere && first?.hasSuffix("/64") == true, "\(String(describing: first))")
        #expect(try ClientKey.of(SocketAddress(ipAddress: "192.0.2.7", port: 1)) == "192.0.2.7")
        let mapped = try ClientKey.of(SocketAddress(ipAddress: "::ffff:192.0.2.7", port: 1))
        let otherMapped = try ClientKey.of(SocketAddress(ipAddress: "::ffff:192.0.2.8", port: 1))
        #expect(mapped != otherMapped, "IPv4 clients seen through an IPv6 listener stay apart")
        #expect(ClientKey.of(nil) == nil)
    }

    @Test func tablesStayBoundedUnderAFloodFromManyAddresses() async {
        let counter = OpenCounter(clock: Clock())
        for client in 0..<OpenCounter.maxEntries {
            _ = await counter.admit(identifier: "a", query: nil, client: "client-\(client)", rateLimit: 100)
        }
        #expect(await counter.admit(identifier: "a", query: nil, client: "one more", rateLimit: 100) == .uncounted, "a full table redirects without counting")
        #expect(await counter.drain().map(\.opens) == [OpenCounter.maxEntries])
    }
}
