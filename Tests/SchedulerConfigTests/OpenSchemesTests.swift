import Foundation
import SchedulerConfig
import Testing

/// Which links `/open` may redirect to, and what its `Location` holds.
@Suite("Open schemes")
struct OpenSchemesTests {
    @Test func aLocationIsTheLinkWhenItsSchemeIsAllowed() {
        let allowed: Set = ["https", "http", "shop"]
        #expect(OpenSchemes.location(of: "https://example.com/a?b=c#d", allowed: allowed) == "https://example.com/a?b=c#d")
        #expect(OpenSchemes.location(of: "HTTPS://example.com/", allowed: allowed) == "HTTPS://example.com/", "schemes ignore case")
        #expect(OpenSchemes.location(of: "shop://category/42", allowed: allowed) == "shop://category/42")
        #expect(OpenSchemes.location(of: "https://example.com/caf\u{E9} au lait", allowed: allowed) == "https://example.com/caf%C3%A9%20au%20lait")
    }

    @Test(arguments: [
        "javascript:alert(1)", "JAVASCRIPT:alert(1)", "data:text/html,x", "file:///etc/passwd", "vbscript:x", "ftp://example.com/",
        " https://example.com/", "java\tscript:alert(1)", "https://example.com/\r\nSet-Cookie: a=b", "https://example.com/\u{7F}",
        "//example.com/", "/local/path", "example.com", ":", "", "1http://x", "ht tp://x",
    ])
    func aLinkOutsideTheAllowedSchemesIsNeverALocation(address: String) {
        // Even a list naming them (config refuses it) never lets the dangerous ones through.
        let allowed: Set = ["https", "http", "javascript", "data", "file", "vbscript"]
        #expect(OpenSchemes.location(of: address, allowed: allowed) == nil)
    }

    @Test func aConfigurationListingADangerousSchemeIsRefusedWithItsLocation() throws {
        for (list, message) in [
            ("[https, javascript]", "service.openSchemes: 'javascript' is never redirected to"),
            ("[https, 'not a scheme']", "'not a scheme' is not a URL scheme name"),
            ("[https, HTTPS]", "'https' appears twice in service.openSchemes"),
            ("[]", "service.openSchemes must not be empty"),
            ("https", "service.openSchemes must be a list"),
        ] {
            let problems = try Self.folder(service: "service: { openSchemes: \(list) }").problems().map(\.description)
            #expect(problems.contains { $0.contains(message) && $0.contains("scheduler.yaml:4:") }, "\(list): \(problems)")
        }
        #expect(try Self.folder(service: "service: { openRateLimit: 0 }").problems().contains { $0.message.contains("service.openRateLimit") })
        #expect(try Self.folder(service: "service: { openSchemes: [https, Shop], openRateLimit: 5 }").load().scheduler.openSchemes == ["https", "shop"])
    }

    @Test func theDefaultAllowsTheWebAndTheSourcesDeepLinks() throws {
        let configuration = try Self.folder(service: "", deepLink: "Shop+App://item/{id}").load()
        #expect(OpenSchemes.allowed(in: configuration) == ["https", "http", "shop+app"])
    }

    /// The test configuration with `service` as its service section, and `deepLink` for its source.
    static func folder(service: String, deepLink: String? = nil) throws -> ConfigFolder {
        var text = ConfigFolder.scheduler.replacingOccurrences(of: "service: { tick: 60s, listen: 127.0.0.1:8080 }", with: service)
        if let deepLink {
            text = text.replacingOccurrences(of: "deepLink: \"shop://category/{id}\"", with: "deepLink: \"\(deepLink)\"")
        }
        return try ConfigFolder(scheduler: text)
    }
}
