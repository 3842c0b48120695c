import Foundation
import Testing

/// Search handed to applications (`search.access: keys`), through the real binary over HTTP: a key finds its
/// domains and nothing else, a tenant token minted by Python's standard library (an independent JWT signer) narrows
/// it, every bad token is a 401 with a sentence, a revoked key stops at once, and the command line makes, lists and
/// revokes keys in the same store.
@Suite("Search keys and tenant tokens")
struct SearchKeyTests {
    static let secret = "a-test-secret-of-at-least-thirty-two-bytes"
    static let adminToken = "admin-secret"
    static let environment = ["SCHEDULER_SEARCH_KEY_SECRET": secret, "SCHEDULER_ADMIN_TOKEN": adminToken]

    /// A service over two partitions, `com.test.docs.public` and `com.test.docs.staff`, three items each; `staff-c`
    /// only the group `editors` may find.
    static func workspace() throws -> SourceWorkspace {
        let setup = try SourceWorkspace(extraLines: "    partitions: [public, staff]")
        try setup.editConfig(replacing: "service: { tick: 1h, listen: 127.0.0.1:0 }", with: "service: { tick: 1h, listen: 127.0.0.1:0 }\nsearch: { access: keys }")
        try setup.writeScript("""
            #!/bin/sh
            for id in $(cat ids.txt); do
                access=""
                if [ "$SCHEDULER_PARTITION-$id" = staff-c ]; then access=',"access":["editors"]'; fi
                printf '{"uniqueIdentifier":"%s-%s","domainIdentifier":"%s","title":"Doc %s","contentURL":"https://docs.test/%s"%s}\\n' \
                    "$SCHEDULER_PARTITION" "$id" "$SCHEDULER_DOMAIN" "$id" "$id" "$access"
            done
            """)
        try setup.setFeed("a b c")
        return setup
    }

    @Test func aKeyFindsItsDomainsAndATokenNarrowsIt() async throws {
        let setup = try Self.workspace()
        let service = try await RunningService(setup.config, environment: Self.environment)
        let adminKey = try await service.request("/keys", method: "POST", token: Self.adminToken, body: #"{"name":"all docs","domains":["com.test.docs"]}"#)
        let wide = try #require(try JSONSerialization.jsonObject(with: Data(adminKey.body.utf8)) as? [String: Any])
        let (wideSecret, wideUID) = (try #require(wide["key"] as? String), try #require(wide["uid"] as? String))
        #expect(try await eventually { try await Self.total(service, token: wideSecret) == 5 }, "every item but the editors' one")

        let anonymous = try await service.request("/search?q=doc")
        #expect(anonymous.status == 401 && anonymous.body.contains("Authorization: Bearer"), "\(anonymous)")
        #expect(try await service.request("/items/public-a").status == 401)
        #expect(try await service.request("/search?q=doc", token: Self.adminToken).status == 401, "the admin token is no search credential")
        #expect(try await service.request("/status").status == 401, "what /status tells is for operators while search is keyed")
        #expect(try await service.request("/").status == 401)
        #expect(try await service.request("/status", token: Self.adminToken).status == 200)
        #expect(try await service.request("/metrics").status == 401, "and /metrics")
        #expect(try await service.request("/metrics", token: Self.adminToken).status == 200)
        #expect(try await service.request("/healthz").status == 200)

        let made = try await service.request("/keys", method: "POST", token: Self.adminToken, body: #"{"name":"public site","domains":["com.test.docs.public"]}"#)
        #expect(made.status == 201, "\(made)")
        let key = try #require(try JSONSerialization.jsonObject(with: Data(made.body.utf8)) as? [String: Any])
        let (secret, uid) = (try #require(key["key"] as? String), try #require(key["uid"] as? String))
        #expect(try await Self.identifiers(service, token: secret) == ["public-a", "public-b", "public-c"])
        #expect(try await Self.identifiers(service, token: secret, query: "&domain=com.test.docs.staff") == [], "whatever domain= asks")
        #expect(try await service.request("/items/staff-a", token: secret).status == 404, "an item outside the key is not revealed")
        #expect(try await service.request("/open/staff-a", token: secret).status == 404)
        #expect(try await service.request("/items/public-a", token: secret).status == 200)
        let listed = try await service.request("/keys", token: Self.adminToken)
        #expect(listed.body.contains(uid) && !listed.body.contains(secret), "listed without its secret: \(listed.body)")

        let token = try await Self.mint(key: wideSecret, claims: ["keyUid": wideUID, "exp": Date().timeIntervalSince1970 + 600, "domains": ["com.test.docs.staff"]])
        #expect(try await Self.identifiers(service, token: token) == ["staff-a", "staff-b"], "a token narrows its key")
        #expect(try await service.request("/items/staff-c", token: token).status == 404, "an item of a group the token lacks is not revealed")
        let editor = try await Self.mint(
            key: wideSecret, claims: ["keyUid": wideUID, "exp": Date().timeIntervalSince1970 + 600, "domains": ["com.test.docs.staff"], "groups": ["editors"]]
        )
        #expect(try await Self.identifiers(service, token: editor) == ["staff-a", "staff-b", "staff-c"], "a token of its group finds it")
        #expect(try await service.request("/items/staff-c", token: editor).status == 200)
        let longLived = try await Self.mint(key: wideSecret, claims: ["keyUid": wideUID, "exp": Date().timeIntervalSince1970 + 7_200])
        let linked = try await service.request("/items/public-a/thumbnail?token=\(longLived)")
        #expect(linked.status == 401 && linked.body.contains("within an hour"), "a token in a link lives an hour at most: \(linked)")

        #expect(try await service.request("/keys/\(uid)", method: "DELETE", token: Self.adminToken).status == 200)
        #expect(try await service.request("/search?q=doc", token: secret).status == 401, "a revoked key stops at once on its replica")
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    @Test func everyBadTokenIsRefusedWithASentence() async throws {
        let setup = try Self.workspace()
        let service = try await RunningService(setup.config, environment: Self.environment)
        let made = try await service.request("/keys", method: "POST", token: Self.adminToken, body: #"{"name":"docs","domains":["com.test.docs.public"]}"#)
        let key = try #require(try JSONSerialization.jsonObject(with: Data(made.body.utf8)) as? [String: Any])
        let (secret, uid) = (try #require(key["key"] as? String), try #require(key["uid"] as? String))
        let soon = Date().timeIntervalSince1970 + 600
        let cases: [(String, String)] = [
            (try await Self.mint(key: secret, claims: ["keyUid": uid, "exp": soon], algorithm: "none"), "alg is 'none'"),
            (try await Self.mint(key: secret, claims: ["keyUid": uid, "exp": soon], algorithm: "HS512"), "alg is 'HS512'"),
            (try await Self.mint(key: "another key", claims: ["keyUid": uid, "exp": soon]), "not signed with that key"),
            (try await Self.mint(key: secret, claims: ["keyUid": uid, "exp": 1_000]), "expired"),
            (try await Self.mint(key: secret, claims: ["keyUid": uid]), "keyUid and exp"),
            (try await Self.mint(key: secret, claims: ["keyUid": uid, "exp": soon, "domains": ["com.test"]]), "never widens"),
            (try await Self.mint(key: secret, claims: ["keyUid": uid, "exp": soon, "groups": (0..<2_000).map { "g\($0)" }]), "at most 8192 bytes"),
            (try await Self.mint(key: secret, claims: ["keyUid": uid, "exp": soon, "groups": (0..<101).map { "\($0)" }]), "at most 100 groups"),
            (try await Self.mint(key: secret, claims: ["keyUid": String(repeating: "0", count: 32), "exp": soon]), "names no live search key"),
            (try await Self.mint(key: secret, claims: ["keyUid": uid, "exp": soon + 40 * 86_400]), "more than 31 days away"),
            (try await Self.mint(key: secret, claims: ["keyUid": uid, "exp": soon, "nbf": soon - 60]), "not valid before"),
            (try await Self.mint(key: secret, claims: ["keyUid": uid, "exp": soon], critical: true), "crit extensions"),
            ("not.a.token", "not a JWT"),
            (String(repeating: "x", count: 10_000), "at most 8192 bytes"),
            (secret.dropLast() + (secret.hasSuffix("A") ? "B" : "A"), "not one of this service's"),
        ]
        for (token, reason) in cases {
            let answer = try await service.request("/search?q=doc", token: token)
            #expect(answer.status == 401 && answer.body.contains(reason), "\(reason): \(answer)")
        }
        // 10,000 groups: a header past what the HTTP server reads at all (SwiftNIO's limit), refused before us.
        let huge = try await Self.mint(key: secret, claims: ["keyUid": uid, "exp": soon, "groups": (0..<10_000).map { "group \($0)" }])
        #expect(try await service.request("/search?q=doc", token: huge).status == 400)
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    @Test func theCommandLineMakesListsAndRevokesKeysInTheStore() async throws {
        let setup = try Self.workspace()
        let withoutSecret = try await setup.run(["keys", "create", "--name", "shop", "--domain", "com.test.docs"])
        #expect(withoutSecret.status != 0 && withoutSecret.stderr.contains("SCHEDULER_SEARCH_KEY_SECRET"), "\(withoutSecret)")
        let refused = try await setup.run(["keys", "create", "--name", "shop", "--domain", "com..test"], environment: Self.environment)
        #expect(refused.status != 0 && refused.stderr.contains("domains:"), "\(refused)")
        let made = try await setup.run(["keys", "create", "--name", "shop", "--domain", "com.test.docs.public", "--json"], environment: Self.environment)
        #expect(made.status == 0, "\(made)")
        let key = try #require(try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any])
        let (secret, uid) = (try #require(key["key"] as? String), try #require(key["uid"] as? String))
        let listed = try await setup.run(["keys", "list"])
        #expect(listed.stdout.contains(uid) && listed.stdout.contains("shop") && !listed.stdout.contains(secret), "\(listed)")

        let service = try await RunningService(setup.config, environment: Self.environment)
        #expect(try await eventually { try await Self.identifiers(service, token: secret) == ["public-a", "public-b", "public-c"] }, "a key made by the CLI works")
        #expect(try await setup.run(["keys", "revoke", uid]).status == 0)
        #expect(try await eventually { try await service.request("/search?q=doc", token: secret).status == 401 }, "and stops within seconds once revoked")
        #expect(try await setup.run(["keys", "revoke", uid]).status != 0, "a key revoked twice is not found")
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    @Test func searchesPastTheRateLimitOfAUserAreHeldBackAndOthersGoOn() async throws {
        let setup = try Self.workspace()
        try setup.editConfig(replacing: "search: { access: keys }", with: "search: { access: keys, rateLimit: { perKey: 1000, perUser: 3 } }")
        let service = try await RunningService(setup.config, environment: Self.environment)
        let made = try await service.request("/keys", method: "POST", token: Self.adminToken, body: #"{"name":"docs","domains":["com.test.docs"]}"#)
        let key = try #require(try JSONSerialization.jsonObject(with: Data(made.body.utf8)) as? [String: Any])
        let (secret, uid) = (try #require(key["key"] as? String), try #require(key["uid"] as? String))
        let soon = Date().timeIntervalSince1970 + 600
        let ana = try await Self.mint(key: secret, claims: ["keyUid": uid, "exp": soon, "sub": "ana"])
        let bo = try await Self.mint(key: secret, claims: ["keyUid": uid, "exp": soon, "sub": "bo"])
        // Seven searches span at most two minutes' windows, so one of them holds four: the fourth is held back.
        var answers: [(status: Int, body: String)] = []
        for _ in 0..<7 { answers.append(try await service.request("/search?q=doc", token: ana)) }
        let held = answers.filter { $0.status == 429 }
        #expect(!held.isEmpty && held.allSatisfy { $0.body.contains("search.rateLimit") }, "\(answers.map(\.status))")
        #expect(answers.filter { $0.status == 200 }.count >= 3, "\(answers.map(\.status))")
        #expect(try await service.request("/search?q=doc", token: bo).status == 200, "another user of the same key goes on")
        #expect(try await service.request("/search?q=doc", token: secret).status == 200, "and the key itself, within its own limit")
        let analytics = try await service.request("/analytics", token: Self.adminToken)
        let perKey = (try JSONSerialization.jsonObject(with: Data(analytics.body.utf8)) as? [String: Any])?["searchesByKey"] as? [[String: Any]]
        #expect(perKey?.first?["uid"] as? String == uid && (perKey?.first?["searches"] as? Int ?? 0) >= 5, "searches per key: \(analytics.body)")
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    static func total(_ service: RunningService, token: String) async throws -> Int {
        let answer = try await service.request("/search?q=doc&limit=100", token: token)
        return (try? JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])?["total"] as? Int ?? -1
    }

    /// The identifiers a search for "doc" finds with `token`, sorted.
    static func identifiers(_ service: RunningService, token: String, query: String = "") async throws -> [String]? {
        let answer = try await service.request("/search?q=doc&limit=100" + query, token: token)
        guard answer.status == 200, let results = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any] else { return nil }
        return (results["hits"] as? [[String: Any]])?.compactMap { $0["uniqueIdentifier"] as? String }.sorted()
    }

    /// A JWT signed by Python's standard library (`hmac`, `hashlib`): what an integrator's backend writes, without our
    /// JWT library. `algorithm` `none` leaves the signature empty.
    static func mint(key: String, claims: [String: Any], algorithm: String = "HS256", critical: Bool = false) async throws -> String {
        let script = """
            import base64, hashlib, hmac, json, sys
            key, alg, critical, claims = sys.argv[1], sys.argv[2], sys.argv[3] == "crit", json.loads(sys.stdin.read())
            part = lambda value: base64.urlsafe_b64encode(json.dumps(value, separators=(",", ":")).encode()).rstrip(b"=").decode()
            header = {"alg": alg, "typ": "JWT", **({"crit": ["exp"]} if critical else {})}
            signing_input = part(header) + "." + part(claims)
            digest = {"HS256": hashlib.sha256, "HS512": hashlib.sha512}.get(alg)
            signature = base64.urlsafe_b64encode(hmac.new(key.encode(), signing_input.encode(), digest).digest()).rstrip(b"=").decode() if digest else ""
            print(signing_input + "." + signature)
            """
        let python = try ExternalTool("python3", debianPackage: "python3")
        let outcome = try await python.run(["-c", script, key, algorithm, critical ? "crit" : "-"], input: try JSONSerialization.data(withJSONObject: claims))
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
