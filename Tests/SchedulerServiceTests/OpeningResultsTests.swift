import Foundation
import Hummingbird
import HummingbirdTesting
import Indexing
import PluginAPI
import SchedulerService
import Store
import StoreSupport
import Testing

/// Opening a result over HTTP, in process, on each backend: an item looked up by identifier, its thumbnail, and
/// `/open`, which redirects only where the operator allows and counts opens, never people.
@Suite("Opening a result")
struct OpeningResultsTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 7, count: 40)

    /// Items an attacker's source could have written beside honest ones.
    static func prepare(_ store: any SchedulerStore) async throws {
        let domain = "com.test.docs"
        try await store.index.upsert([
            SearchableItem(uniqueIdentifier: "a/b c?é#%", domainIdentifier: domain, title: "Odd name", contentURL: "https://example.com/odd"),
            SearchableItem(uniqueIdentifier: "pic", domainIdentifier: domain, title: "Picture", thumbnailData: png, contentURL: "https://example.com/pic"),
            SearchableItem(
                uniqueIdentifier: "svg", domainIdentifier: domain, title: "Vector",
                thumbnailData: Data("<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>".utf8)
            ),
            SearchableItem(uniqueIdentifier: "js", domainIdentifier: domain, title: "Script", contentURL: "javascript:alert(document.cookie)"),
            SearchableItem(uniqueIdentifier: "js-upper", domainIdentifier: domain, title: "Script", contentURL: "JavaScript:alert(1)"),
            SearchableItem(uniqueIdentifier: "data", domainIdentifier: domain, title: "Data", contentURL: "data:text/html,<script>alert(1)</script>"),
            SearchableItem(uniqueIdentifier: "file", domainIdentifier: domain, title: "File", contentURL: "file:///etc/passwd"),
            SearchableItem(uniqueIdentifier: "shop", domainIdentifier: domain, title: "Shop", contentURL: "shop://category/42"),
            SearchableItem(uniqueIdentifier: "plain-http", domainIdentifier: domain, title: "Old", contentURL: "HTTP://example.com/old"),
            SearchableItem(
                uniqueIdentifier: "expired", domainIdentifier: domain, title: "Gone", contentURL: "https://example.com/gone",
                expirationDate: Date(timeIntervalSinceNow: -60)
            ),
            SearchableItem(uniqueIdentifier: "purged", domainIdentifier: "com.test.purged", title: "Purged", contentURL: "https://example.com/p"),
        ])
        try await store.index.delete(domains: ["com.test.purged"])
    }

    static func withHarness(
        _ backend: StoreBackend, sourceSettings: String = "", service: String = "",
        _ body: @escaping @Sendable (SchedulerAPITests.Harness) async throws -> Void
    ) async throws {
        try await SchedulerAPITests.withHarness(
            backend, service: service, sourceSettings: sourceSettings, prepare: prepare, body
        )
    }

    static func error(_ response: TestResponse) -> String {
        ((try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any])?["error"] as? String ?? ""
    }

    @Test(arguments: StoreBackend.allCases)
    func anItemIsLookedUpByItsPercentEncodedIdentifier(backend: StoreBackend) async throws {
        try await Self.withHarness(backend) { api in
            let found = try await api.client.execute(uri: "/items/doc-1", method: .get)
            #expect(found.status == .ok)
            let item = try SchedulerAPITests.json(found)
            #expect(item["uniqueIdentifier"] as? String == "doc-1")
            #expect(item["title"] as? String == "Document 1")
            #expect(item.keys.contains("contentURL") && item.keys.contains("thumbnailType"), "absent fields are null, not missing")
            #expect(item["score"] == nil)

            let odd = try await api.client.execute(uri: "/items/a%2Fb%20c%3F%C3%A9%23%25", method: .get)
            #expect(try SchedulerAPITests.json(odd)["uniqueIdentifier"] as? String == "a/b c?é#%")
            #expect(try SchedulerAPITests.json(try await api.client.execute(uri: "/items/pic", method: .get))["thumbnailType"] as? String == "image/png")
            #expect(try SchedulerAPITests.json(try await api.client.execute(uri: "/items/svg", method: .get))["thumbnailType"] is NSNull)

            let hostile = [
                "nope", "expired", "purged", "%00", "doc-1%00", "..", "%2E%2E", "%2e%2e%2fdoc-1", "%zz", "%C3",
                "%FF%FE", String(repeating: "x", count: 10_000), String(repeating: "%41", count: 3_000),
            ]
            for identifier in hostile {
                let refused = try await api.client.execute(uri: "/items/\(identifier)", method: .get)
                #expect(refused.status == .notFound, "\(identifier.prefix(40))")
                #expect(!Self.error(refused).isEmpty, "\(identifier.prefix(40)): a JSON error")
            }
            // A slash not percent-encoded makes another path, which no route serves.
            #expect(try await api.client.execute(uri: "/items/a/b%20c%3F%C3%A9%23%25", method: .get).status == .notFound)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aThumbnailIsServedOnlyAsTheImageItsBytesAre(backend: StoreBackend) async throws {
        try await Self.withHarness(backend) { api in
            let image = try await api.client.execute(uri: "/items/pic/thumbnail", method: .get)
            #expect(image.status == .ok)
            #expect(image.headers[.contentType] == "image/png")
            #expect(image.headers[.xContentTypeOptions] == "nosniff")
            #expect(image.headers[.cacheControl]?.contains("max-age") == true)
            #expect(Data(buffer: image.body) == Self.png)
            let tag = try #require(image.headers[.eTag])
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""), "a strong validator")

            let unchanged = try await api.client.execute(uri: "/items/pic/thumbnail", method: .get, headers: [.ifNoneMatch: tag])
            #expect(unchanged.status == .notModified)
            #expect(unchanged.body.readableBytes == 0)
            for condition in ["W/\(tag)", "*", "\"other\", \(tag)"] {
                let matched = try await api.client.execute(uri: "/items/pic/thumbnail", method: .get, headers: [.ifNoneMatch: condition])
                #expect(matched.status == .notModified, "\(condition)")
            }
            let other = try await api.client.execute(uri: "/items/pic/thumbnail", method: .get, headers: [.ifNoneMatch: "\"other\""])
            #expect(other.status == .ok)

            for identifier in ["svg", "doc-1", "nope", "expired", "purged"] {
                let refused = try await api.client.execute(uri: "/items/\(identifier)/thumbnail", method: .get)
                #expect(refused.status == .notFound, "\(identifier)")
                #expect(refused.headers[.contentType]?.hasPrefix("application/json") == true, "\(identifier): never served as an image")
            }
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func anOpenRedirectsOnlyToAllowedSchemes(backend: StoreBackend) async throws {
        try await Self.withHarness(backend) { api in
            let opened = try await api.client.execute(uri: "/open/pic?q=pict", method: .get)
            #expect(opened.status == .found)
            #expect(opened.headers[.location] == "https://example.com/pic")
            #expect(opened.headers[.cacheControl] == "no-store")
            #expect(try await api.client.execute(uri: "/open/plain-http", method: .get).headers[.location] == "HTTP://example.com/old")
            #expect(try await api.client.execute(uri: "/open/a%2Fb%20c%3F%C3%A9%23%25", method: .get).status == .found)

            for identifier in ["js", "js-upper", "data", "file", "shop", "doc-1", "nope", "expired", "purged", "%00", String(repeating: "y", count: 10_000)] {
                let refused = try await api.client.execute(uri: "/open/\(identifier)?q=x", method: .get)
                #expect(refused.status == .notFound, "\(identifier.prefix(40))")
                #expect(refused.headers[.location] == nil, "\(identifier.prefix(40)): never a redirect")
            }
            #expect(Self.error(try await api.client.execute(uri: "/open/js", method: .get)).contains("service.openSchemes (http, https)"))
        }
        // A source's deepLink scheme is allowed by default; an explicit list replaces the default.
        try await Self.withHarness(backend, sourceSettings: ", deepLink: \"shop://category/{id}\"") { (api: SchedulerAPITests.Harness) async throws in
            #expect(try await api.client.execute(uri: "/open/shop", method: .get).headers[.location] == "shop://category/42")
            #expect(try await api.client.execute(uri: "/open/js", method: .get).status == .notFound)
        }
        try await Self.withHarness(backend, service: "service: { openSchemes: [shop] }") { (api: SchedulerAPITests.Harness) async throws in
            #expect(try await api.client.execute(uri: "/open/shop", method: .get).status == .found)
            #expect(try await api.client.execute(uri: "/open/pic", method: .get).status == .notFound)
        }
    }

    /// A later reindex that turns an item's link into `javascript:` makes its opens 404.
    @Test(arguments: StoreBackend.allCases)
    func aLinkChangedByAReindexIsJudgedAsItIsNow(backend: StoreBackend) async throws {
        try await Self.withHarness(backend) { api in
            #expect(try await api.client.execute(uri: "/open/pic", method: .get).status == .found)
            try await api.store.index.upsert([SearchableItem(uniqueIdentifier: "pic", domainIdentifier: "com.test.docs", title: "Picture", contentURL: "javascript:alert(1)")])
            let refused = try await api.client.execute(uri: "/open/pic", method: .get)
            #expect(refused.status == .notFound)
            #expect(refused.headers[.location] == nil)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func opensAreCountedOncePerClientItemAndHourAndStoredByQuery(backend: StoreBackend) async throws {
        try await Self.withHarness(backend, service: "service: { openRateLimit: 5 }") { (api: SchedulerAPITests.Harness) async throws in
            for _ in 1...2 {
                #expect(try await api.client.execute(uri: "/open/pic?q=Pictures%20%C3%89T%C3%89", method: .get).status == .found)
            }
            #expect(try await api.client.execute(uri: "/open/plain-http", method: .get).status == .found)
            await api.writeUsage()
            let tallies = try await api.store.index.openTallies(identifier: "pic")
            #expect(tallies.map(\.opens) == [1, 1], "one open counted for the item, one for the query: the second was the same client within the hour")
            #expect(tallies.map(\.key.query) == [nil, "pictures ete"], "the query is kept folded, never as typed")
            #expect(try await api.store.index.openTallies(identifier: "plain-http").map(\.opens) == [1])

            // Past the rate limit of the minute: 429, and no redirect.
            #expect(try await api.client.execute(uri: "/open/a%2Fb%20c%3F%C3%A9%23%25", method: .get).status == .found)
            #expect(try await api.client.execute(uri: "/open/pic", method: .get).status == .found)
            let limited = try await api.client.execute(uri: "/open/pic", method: .get)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers[.location] == nil)
            #expect(Self.error(limited).contains("too many opens"))
        }
    }

    /// The loop closed over HTTP: a search, an open of a result, and the same search again shows it higher, within
    /// its tier only.
    @Test(arguments: StoreBackend.allCases)
    func anOpenedResultRisesWithinItsTier(backend: StoreBackend) async throws {
        try await SchedulerAPITests.withHarness(backend, prepare: { store in
            try await store.index.upsert([
                SearchableItem(uniqueIdentifier: "docs", domainIdentifier: "com.test.docs", title: "Documents", contentURL: "https://example.com/docs"),
                SearchableItem(uniqueIdentifier: "doc-3", domainIdentifier: "com.test.docs", title: "Document 3", contentURL: "https://example.com/3"),
            ])
        }) { (api: SchedulerAPITests.Harness) async throws in
            func order(_ query: String) async throws -> [String] {
                let found = try SchedulerAPITests.json(try await api.client.execute(uri: "/search?q=\(query)", method: .get))
                return (found["hits"] as? [[String: Any]] ?? []).compactMap { $0["uniqueIdentifier"] as? String }
            }
            #expect(try await order("docu") == ["docs", "doc-1", "doc-2", "doc-3"], "a one-word title first, then the order of indexing")
            #expect(try await order("document") == ["doc-1", "doc-2", "doc-3", "docs"], "whole words before a prefix")
            #expect(try await api.client.execute(uri: "/open/doc-3?q=docu", method: .get).status == .found)
            await api.writeUsage()

            #expect(try await order("docu") == ["doc-3", "docs", "doc-1", "doc-2"], "the opened item rises above the hits that match as well")
            #expect(try await order("document") == ["doc-3", "doc-1", "doc-2", "docs"], "and within its tier only: a prefix match stays below whole words")
        }
    }

    /// Analytics are for operators: the token is needed, and bad parameters are refused with a message.
    @Test(arguments: StoreBackend.allCases)
    func analyticsReportWhatWasSearchedAndOpened(backend: StoreBackend) async throws {
        try await Self.withHarness(backend) { api in
            for uri in ["/search?q=Do", "/search?q=Docu", "/search?q=nothing+here", "/search?q=docu"] {
                // (`+` is a space, as HTML forms and most clients send it.)
                #expect(try await api.client.execute(uri: uri, method: .get).status == .ok)
            }
            #expect(try await api.client.execute(uri: "/open/pic?q=docu", method: .get).status == .found)
            await api.writeUsage()

            #expect(try await api.client.execute(uri: "/analytics", method: .get).status == .unauthorized)
            let answer = try await api.client.execute(uri: "/analytics?since=7d&limit=5", method: .get, headers: SchedulerAPITests.bearer)
            #expect(answer.status == .ok)
            let report = try SchedulerAPITests.json(answer)
            #expect(report["searches"] as? Int == 3, "Do then Docu is one search; another query between makes docu another: \(report)")
            let top = try #require(report["topQueries"] as? [[String: Any]])
            #expect(top.map { $0["query"] as? String } == ["docu", "nothing here"])
            #expect(top.first?["searches"] as? Int == 2 && top.first?["opens"] as? Int == 1 && top.first?["clickThrough"] as? Double == 0.5)
            #expect((report["queriesWithoutHits"] as? [[String: Any]])?.map { $0["query"] as? String } == ["nothing here"])
            #expect((report["mostOpened"] as? [[String: Any]])?.first?["uniqueIdentifier"] as? String == "pic")

            let page = String(buffer: try await api.client.execute(uri: "/", method: .get).body)
            #expect(page.contains("<td>nothing here</td><td>1</td><td>1</td>"), "the status page lists the searches without hits")

            for uri in ["/analytics?since=1h", "/analytics?since=soon", "/analytics?limit=0", "/analytics?limit=5000"] {
                let refused = try await api.client.execute(uri: uri, method: .get, headers: SchedulerAPITests.bearer)
                #expect(refused.status == .badRequest, "\(uri)")
            }
        }
    }
}
