import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StoreSupport
import Testing

/// `search.cors.origins`: the pages of a listed origin may call the item endpoints from the browser, errors included;
/// no other origin gets a permission, and the admin API never answers another origin.
@Suite("Cross-origin search")
struct CrossOriginTests {
    static let shop = "https://shop.example"
    static let settings = "search: { cors: { origins: [\"https://shop.example\", \"http://localhost:3000\"] } }"

    static func get(_ client: any TestClientProtocol, _ uri: String, origin: String?, method: HTTPRequest.Method = .get) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let origin { headers[.origin] = origin }
        return try await client.execute(uri: uri, method: method, headers: headers)
    }

    @Test(arguments: StoreBackend.allCases)
    func aListedOriginMayReadTheItemEndpointsAndNoOtherMay(backend: StoreBackend) async throws {
        try await SchedulerAPITests.withHarness(backend, search: Self.settings) { harness in
            for uri in ["/search?q=docu", "/items/doc-1", "/items/nope", "/search?q=docu&limit=0", "/open/doc-1"] {
                let listed = try await Self.get(harness.client, uri, origin: Self.shop)
                #expect(listed.headers[.accessControlAllowOrigin] == Self.shop, "\(uri): \(listed.status), a page reads answers and errors alike")
                #expect(listed.headers[values: .vary].contains("Origin"), "\(uri)")
                let other = try await Self.get(harness.client, uri, origin: "https://evil.example")
                #expect(other.headers[.accessControlAllowOrigin] == nil, "\(uri)")
                #expect(other.status == listed.status, "\(uri): the answer is the same, only the browser's permission differs")
                let sameSite = try await Self.get(harness.client, uri, origin: nil)
                #expect(sameSite.headers[.accessControlAllowOrigin] == nil && sameSite.headers[values: .vary].contains("Origin"), "\(uri)")
            }
            let port = try await Self.get(harness.client, "/search?q=docu", origin: "http://localhost:3000")
            #expect(port.headers[.accessControlAllowOrigin] == "http://localhost:3000")
            let otherPort = try await Self.get(harness.client, "/search?q=docu", origin: "http://localhost:3001")
            #expect(otherPort.headers[.accessControlAllowOrigin] == nil, "an origin is its scheme, host and port")
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aPreflightAllowsTheAuthorizationHeaderToAListedOriginOnly(backend: StoreBackend) async throws {
        try await SchedulerAPITests.withHarness(backend, search: Self.settings) { harness in
            for uri in ["/search", "/items/doc-1", "/items/doc-1/thumbnail", "/open/doc-1"] {
                let listed = try await Self.get(harness.client, uri, origin: Self.shop, method: .options)
                #expect(listed.status == .noContent, "\(uri)")
                #expect(listed.headers[.accessControlAllowOrigin] == Self.shop && listed.headers[.accessControlAllowHeaders] == "Authorization", "\(uri)")
                #expect(listed.headers[.accessControlAllowMethods] == "GET, HEAD", "\(uri)")
                let other = try await Self.get(harness.client, uri, origin: "https://evil.example", method: .options)
                #expect(other.status == .noContent && other.headers[.accessControlAllowOrigin] == nil && other.headers[.accessControlAllowHeaders] == nil, "\(uri)")
            }
        }
    }

    @Test func theAdminAPIAndTheConsoleNeverAnswerAnotherOrigin() async throws {
        try await SchedulerAPITests.withHarness(.memory, search: Self.settings) { harness in
            var headers = SchedulerAPITests.bearer
            headers[.origin] = Self.shop
            let paused = try await harness.client.execute(uri: "/sources/docs/pause", method: .post, headers: headers)
            #expect(paused.status == .ok && paused.headers[.accessControlAllowOrigin] == nil)
            let preflight = try await Self.get(harness.client, "/sources/docs/pause", origin: Self.shop, method: .options)
            #expect(preflight.headers[.accessControlAllowOrigin] == nil)
            for uri in ["/status", "/", "/analytics"] {
                #expect(try await Self.get(harness.client, uri, origin: Self.shop).headers[.accessControlAllowOrigin] == nil, "\(uri)")
            }
        }
    }

    @Test func withoutOriginsNoOriginIsAnswered() async throws {
        try await SchedulerAPITests.withHarness(.memory) { harness in
            let response = try await Self.get(harness.client, "/search?q=docu", origin: Self.shop)
            #expect(response.status == .ok && response.headers[.accessControlAllowOrigin] == nil)
        }
    }
}
