import PluginAPI
import Testing

@Suite("Domain identifiers")
struct DomainIdentifierTests {
    @Test(arguments: ["com", "com.shop", "com.shop.categories.fr", "a-b.c_d.9"])
    func wellFormedDomainsAreValid(domain: String) {
        #expect(DomainIdentifier.isValid(domain))
    }

    @Test(arguments: ["", ".", "com.", ".com", "com..shop", "com shop", "com/shop", "café.fr", "com.*"])
    func malformedDomainsAreInvalid(domain: String) {
        #expect(!DomainIdentifier.isValid(domain))
    }

    @Test func hierarchyFollowsSegmentsNotPrefixes() {
        #expect(DomainIdentifier.isWithin("com.shop.fr", "com.shop"))
        #expect(DomainIdentifier.isWithin("com.shop", "com.shop"))
        #expect(!DomainIdentifier.isWithin("com.shopping", "com.shop"))
        #expect(!DomainIdentifier.isWithin("com", "com.shop"))
    }
}

@Suite("Suggesting the nearest name")
struct NearestNameTests {
    @Test func suggestsCloseNamesOnly() {
        let known = ["enabled", "rollout", "environments", "from", "until"]
        #expect(NearestName.nearest(to: "enabeld", among: known) == "enabled")
        #expect(NearestName.nearest(to: "rolout", among: known) == "rollout")
        #expect(NearestName.nearest(to: "Environment", among: known) == "environments")
        #expect(NearestName.nearest(to: "colour", among: known) == nil)
    }

    @Test func suggestsTheOneNameAnAbbreviationStandsFor() {
        let environments = ["production", "staging", "development"]
        #expect(NearestName.nearest(to: "prod", among: environments) == "production")
        #expect(NearestName.nearest(to: "dev", among: environments) == "development")
        #expect(NearestName.nearest(to: "pr", among: environments) == nil, "too short to tell")
        #expect(NearestName.nearest(to: "pro", among: ["production", "profiling"]) == nil, "two names start so")
    }
}
