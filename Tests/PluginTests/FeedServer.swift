import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// A real HTTP server on 127.0.0.1 serving category feeds and images, good and bad, for the category-feed
/// plugin's tests. It counts image requests and the most that were in flight at once.
final class FeedServer: Sendable {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 120))

    private let counters = Mutex((imageRequests: 0, inFlight: 0, maxInFlight: 0, flakyFailures: 0, internalRequests: 0, notModified: 0))
    /// The categories `versioned/feed.json` and `plain/feed.json` serve; a test changes them between runs.
    private let categories = Mutex(["Cheese", "Wine", "Bread"])

    /// Makes the changing feeds serve these categories, numbered from 1.
    func serve(categories names: [String]) { categories.withLock { $0 = names } }
    /// The `304 Not Modified` answers `versioned/feed.json` gave.
    var notModified: Int { counters.withLock { $0.notModified } }

    var imageRequests: Int { counters.withLock { $0.imageRequests } }
    /// Requests that reached `internal/…`: what a feed must never make the scheduler fetch.
    var internalRequests: Int { counters.withLock { $0.internalRequests } }
    var maxInFlight: Int { counters.withLock { $0.maxInFlight } }

    /// Runs `body` with the server's base URL, then stops the server.
    ///
    /// The server stops gracefully (it closes its listening socket, then its connections once their requests are
    /// answered) and is cancelled only if that takes more than a second. Cancelling a server first can drop a
    /// connection it accepted but had not handed to a handler yet, which traps in NIO ("Deinited NIOAsyncWriter
    /// without calling finish()", swift-server/swift-http-server#137).
    func run(_ body: (URL) async throws -> Void) async throws {
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let logger = Logger(label: "feed-server") { _ in SwiftLogNoOpLogHandler() }
        let app = Application(
            router: router(),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { portSink.yield($0.localAddress?.port ?? 0) },
            logger: logger
        )
        var configuration = ServiceGroupConfiguration(services: [app], logger: logger)
        configuration.maximumGracefulShutdownDuration = .seconds(1)
        let server = ServiceGroup(configuration: configuration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            var iterator = ports.makeAsyncIterator()
            let port = await iterator.next() ?? 0
            do {
                try await body(URL(string: "http://127.0.0.1:\(port)")!)
            } catch {
                await server.triggerGracefulShutdown()
                throw error
            }
            await server.triggerGracefulShutdown()
            try await group.waitForAll()
        }
    }

    /// The feed: one good category, and one of every way a category can fail; `BASE` is the server's URL.
    static let feed = """
        [
          {"id": 1, "name": "Cheese", "keywords": "brie, comté camembert", "metaDescription": "Soft and hard.", "imageURL": "BASE/images/good.png", "extra": true},
          {"id": "2", "name": "Wine", "keywords": ["red", "white"], "imageURL": "ht!tp://not a url"},
          {"id": 3, "name": "Bread", "imageURL": "BASE/images/missing.png"},
          {"id": 4, "name": "Butter", "imageURL": "BASE/images/huge.png"},
          {"id": 5, "name": "Honey", "imageURL": "BASE/images/slow.png"},
          {"id": 6, "name": "Jam", "imageURL": "BASE/images/page.html"},
          {"id": 7, "name": "Olives"},
          {"name": "No identifier"},
          {"id": 8, "name": "Tea", "imageURL": "file:///etc/passwd"},
          {"id": 9, "name": "Salt", "imageURL": "BASE/images/redirect.png"}
        ]
        """

    /// Image URLs that point at this machine in the ways attackers write them; `PORT` is the server's port.
    static let hostileFeed = """
        [
          {"id": 1, "name": "Loopback", "imageURL": "http://127.0.0.1:PORT/internal/a.png"},
          {"id": 2, "name": "Localhost", "imageURL": "http://localhost:PORT/internal/b.png"},
          {"id": 3, "name": "Decimal", "imageURL": "http://2130706433:PORT/internal/c.png"},
          {"id": 4, "name": "User info", "imageURL": "http://cdn.example.com@127.0.0.1:PORT/internal/d.png"},
          {"id": 5, "name": "Metadata", "imageURL": "http://169.254.169.254/latest/meta-data/"},
          {"id": 6, "name": "IPv6 loopback", "imageURL": "http://[::1]:PORT/internal/f.png"},
          {"id": 7, "name": "Mapped", "imageURL": "http://[::ffff:127.0.0.1]:PORT/internal/g.png"},
          {"id": 8, "name": "Zero", "imageURL": "http://0.0.0.0:PORT/internal/h.png"}
        ]
        """

    private func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("hostile/feed.json") { request, _ in
            let port = request.head.authority?.split(separator: ":").last.map(String.init) ?? "0"
            return Self.body(Self.hostileFeed.replacingOccurrences(of: "PORT", with: port), type: "application/json")
        }
        router.get("redirecting/feed.json") { request, _ in
            Response(status: .found, headers: [.location: "http://\(request.head.authority ?? "127.0.0.1")/internal/feed.json"])
        }
        router.get("internal/{name}") { request, _ in
            self.counters.withLock { $0.internalRequests += 1 }
            return Self.feedResponse(request)
        }
        router.get("feed.json") { request, _ in Self.feedResponse(request) }
        router.get("flaky/feed.json") { request, _ in
            let fail = self.counters.withLock { counters in
                counters.flakyFailures += 1
                return counters.flakyFailures <= 2
            }
            return fail ? Response(status: .serviceUnavailable) : Self.feedResponse(request)
        }
        // The changing feed with an ETag (its categories') and a Last-Modified, answering 304 when they match.
        router.get("versioned/feed.json") { request, _ in
            let (text, etag) = self.changingFeed()
            if request.headers[.ifNoneMatch] == etag {
                self.counters.withLock { $0.notModified += 1 }
                return Response(status: .notModified, headers: [.eTag: etag])
            }
            var response = Self.body(text, type: "application/json")
            response.headers[.eTag] = etag
            response.headers[.lastModified] = "Wed, 21 Oct 2026 07:28:00 GMT"
            return response
        }
        // Validators no one should send back: 2,000 bytes long, and with a control character.
        router.get("hostile-validators/feed.json") { _, _ in
            var response = Self.body(self.changingFeed().text, type: "application/json")
            response.headers[.eTag] = "\"" + String(repeating: "e", count: 2000) + "\""
            response.headers[.lastModified] = "Wed, 21 Oct 2026\t07:28:00 GMT"
            return response
        }
        // The same feed from a server that sends no validators.
        router.get("plain/feed.json") { _, _ in Self.body(self.changingFeed().text, type: "application/json") }
        router.get("down/feed.json") { _, _ in Response(status: .internalServerError) }
        router.get("notjson/feed.json") { _, _ in Self.body("<html>maintenance</html>", type: "text/html") }
        router.get("many/feed.json") { request, _ in
            let entries = (1...12).map { #"{"id": \#($0), "name": "Item \#($0)", "imageURL": "BASE/images/delayed.png"}"# }
            return Self.json("[" + entries.joined(separator: ",") + "]", for: request)
        }
        router.get("images/{name}") { request, context in
            self.counters.withLock { counters in
                counters.imageRequests += 1
                counters.inFlight += 1
                counters.maxInFlight = max(counters.maxInFlight, counters.inFlight)
            }
            defer { self.counters.withLock { $0.inFlight -= 1 } }
            switch context.parameters.get("name") ?? "" {
            case "good.png": return Self.body(Self.png, type: "image/png")
            case "huge.png": return Self.body(Data(repeating: 1, count: 2 << 20), type: "image/png")
            case "slow.png":
                // Longer than the tests' 10 s timeout (CategoryFeedPluginTests.makePlugin).
                try await Task.sleep(for: .seconds(15))
                return Self.body(Self.png, type: "image/png")
            case "delayed.png":
                try await Task.sleep(for: .milliseconds(100))
                return Self.body(Self.png, type: "image/png")
            case "page.html": return Self.body("<html></html>", type: "text/html")
            case "redirect.png": return Response(status: .found, headers: [.location: "/images/good.png"])
            default: return Response(status: .notFound)
            }
        }
        return router
    }

    /// The changing feeds' JSON and its ETag.
    private func changingFeed() -> (text: String, etag: String) {
        let names = categories.withLock { $0 }
        let entries = names.enumerated().map { #"{"id": \#($0.offset + 1), "name": "\#($0.element)"}"# }
        return ("[" + entries.joined(separator: ",") + "]", "\"\(names.joined(separator: "|").hashValue)\"")
    }

    private static func feedResponse(_ request: Request) -> Response {
        json(feed, for: request)
    }

    /// `text` as JSON, with `BASE` replaced by the server's URL as the request reached it.
    private static func json(_ text: String, for request: Request) -> Response {
        let base = "http://\(request.head.authority ?? "127.0.0.1")"
        return body(text.replacingOccurrences(of: "BASE", with: base), type: "application/json")
    }

    private static func body(_ text: String, type: String) -> Response {
        body(Data(text.utf8), type: type)
    }

    private static func body(_ data: Data, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
