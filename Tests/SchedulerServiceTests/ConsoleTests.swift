import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SchedulerService
import Store
import StoreSupport
import Testing

/// The console in process, on every store: a unit's page, signing in with the admin token for a session cookie,
/// and the pages' actions behind the session and its CSRF token, each refusal changing nothing. The console in a real
/// browser: `ConsoleBrowserTests`.
@Suite("The console, in process")
struct ConsoleTests {
    /// A signed-in session: its cookie and the CSRF token its forms carry.
    struct Session {
        var cookie: String
        var csrf: String
        var headers: HTTPFields { [.cookie: cookie, .contentType: "application/x-www-form-urlencoded"] }
    }

    static func form(_ fields: [String: String]) -> ByteBuffer {
        ByteBuffer(string: fields.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&"))
    }

    static func signIn(_ client: any TestClientProtocol, token: String = SchedulerAPITests.token) async throws -> Session {
        let response = try await client.execute(
            uri: "/signin", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"], body: form(["token": token])
        )
        #expect(response.status == .seeOther)
        #expect(response.headers[.location] == "/?notice=signed-in")
        let cookie = try #require(response.headers[.setCookie]?.split(separator: ";").first.map(String.init))
        let page = String(buffer: try await client.execute(uri: "/units/docs", method: .get, headers: [.cookie: cookie]).body)
        let csrf = try #require(page.firstMatch(of: /name="csrf" value="([0-9a-f]{64})"/)?.output.1)
        return Session(cookie: cookie, csrf: String(csrf))
    }

    @Test(arguments: StoreBackend.allCases)
    func aUnitsPageShowsItsRunsTheirDurationsAndWhyItFailedEscaped(backend: StoreBackend) async throws {
        try await SchedulerAPITests.withAPI(backend, prepare: StatusPageTests.failing) { client, _ in
            let response = try await client.execute(uri: "/units/docs", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            let html = String(buffer: response.body)
            #expect(html.contains("<h1>docs <span"), "\(html)")
            #expect(html.contains(#"<dt>Gate</dt><dd><span class="gate-on">on</span>"#))
            #expect(html.contains("&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;") && !html.contains("<script>alert"))
            #expect(html.contains(#"<svg id="trend""#) && html.contains(#"<rect class="failed""#), "the failed run's bar")
            #expect(html.contains("1 run, median 1.5 s"))
            #expect(html.contains("<td data-label=\"Mode\"><div>full</div></td>"))
            #expect(html.contains("Lease") == (backend != .sqlite), "a store with leases shows the unit's")
            #expect(!html.contains(#"id="actions""#), "no actions without a session")
            #expect(html.contains(#"<a href="/signin">Sign in</a>"#))

            let status = String(buffer: try await client.execute(uri: "/", method: .get).body)
            #expect(status.contains(#"<a href="/units/docs"><strong>docs</strong></a>"#), "the status page links each unit to its page")
            for unknown in ["/units/nothing", "/units/%FF", "/units/" + String(repeating: "a", count: 5000), "/units/docs%2F..%2F..%2Fetc"] {
                #expect(try await client.execute(uri: unknown, method: .get).status == .notFound, "\(unknown.prefix(40))")
            }
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aRestorablePurgeShowsItsTimeLeftAndASignedInOperatorPurgesItNow(backend: StoreBackend) async throws {
        let restorable: @Sendable (any SchedulerStore) async throws -> Void = { store in
            _ = try await store.purge(domain: "com.test.docs", restorableUntil: Date().addingTimeInterval(3600))
        }
        try await SchedulerAPITests.withHarness(backend, prepare: restorable) { harness in
            let client = harness.client
            let anonymous = String(buffer: try await client.execute(uri: "/", method: .get).body)
            #expect(anonymous.contains(#/3 items purged [^<]*, 3 rows left; <strong>restorable until <time>[^<]+</time></strong> \(in \d+ min\)/#), "\(anonymous)")
            #expect(!anonymous.contains("Purge now"), "no action for who is not signed in")

            let session = try await Self.signIn(client)
            let page = String(buffer: try await client.execute(uri: "/", method: .get, headers: [.cookie: session.cookie]).body)
            #expect(page.contains(#"<input type="hidden" name="confirm" value="com.test.docs"><button type="submit" class="danger">Purge now</button>"#))
            let purged = try await client.execute(
                uri: "/console/domains/com.test.docs/purge", method: .post, headers: session.headers,
                body: Self.form(["csrf": session.csrf, "confirm": "com.test.docs", "back": "/"])
            )
            #expect(purged.headers[.location] == "/?notice=purged")
            #expect(try await harness.store.index.restorablePurges().isEmpty, "final now")
            #expect(try await harness.store.restorePurge(domain: "com.test.docs", endingCheckpoints: []) == nil)
            let after = String(buffer: try await client.execute(uri: "/", method: .get, headers: [.cookie: session.cookie]).body)
            #expect(!after.contains("Purge now") && !after.contains("restorable until"))
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aSignedInOperatorPausesResumesReindexesAndPurgesFromThePages(backend: StoreBackend) async throws {
        try await SchedulerAPITests.withHarness(backend) { harness in
            let client = harness.client
            let session = try await Self.signIn(client)
            let page = String(buffer: try await client.execute(uri: "/units/docs", method: .get, headers: [.cookie: session.cookie]).body)
            #expect(page.contains(#"id="actions""#) && page.contains("Pause the source") && page.contains("Signed in"))

            func post(_ uri: String, _ fields: [String: String]) async throws -> TestResponse {
                try await client.execute(uri: uri, method: .post, headers: session.headers, body: Self.form(fields))
            }
            let paused = try await post("/console/sources/docs/pause", ["csrf": session.csrf, "back": "/units/docs"])
            #expect(paused.status == .seeOther)
            #expect(paused.headers[.location] == "/units/docs?notice=paused")
            #expect(try await harness.store.pausedSources()["docs"]?.pausedBy.hasPrefix("the console") == true)
            let shown = String(buffer: try await client.execute(uri: "/units/docs?notice=paused", method: .get, headers: [.cookie: session.cookie]).body)
            #expect(shown.contains("The source is paused") && shown.contains("Resume the source") && shown.contains(#"<dd id="pause">since"#))

            let refused = try await post("/console/sources/docs/reindex", ["csrf": session.csrf, "mode": "full"])
            #expect(refused.status == .conflict, "a paused source is not forced")
            #expect(try await post("/console/sources/docs/resume", ["csrf": session.csrf]).headers[.location] == "/?notice=resumed")
            #expect(try await harness.store.pausedSources().isEmpty)
            #expect(try await post("/console/sources/docs/reindex", ["csrf": session.csrf, "mode": "full"]).headers[.location] == "/?notice=queued")

            let unconfirmed = try await post("/console/domains/com.test.docs/purge", ["csrf": session.csrf, "confirm": "com.test"])
            #expect(unconfirmed.status == .badRequest)
            #expect(try await harness.store.index.itemCount(inDomain: "com.test.docs") == 3, "nothing purged without the domain typed")
            let purged = try await post("/console/domains/com.test.docs/purge", ["csrf": session.csrf, "confirm": "com.test.docs", "back": "/units/docs"])
            #expect(purged.headers[.location] == "/units/docs?notice=purged")
            #expect(try await harness.store.index.itemCount(inDomain: "com.test.docs") == 0)

            #expect(try await post("/signout", ["csrf": session.csrf]).headers[.location] == "/?notice=signed-out")
            let afterSignOut = try await post("/console/sources/docs/pause", ["csrf": session.csrf])
            #expect(afterSignOut.status == .forbidden, "the session ended with the sign-out")
            #expect(try await harness.store.pausedSources().isEmpty)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aRunningUnitsPageOffersToCancelIt(backend: StoreBackend) async throws {
        try await SchedulerAPITests.withHarness(backend) { harness in
            let session = try await Self.signIn(harness.client)
            let idle = String(buffer: try await harness.client.execute(uri: "/units/docs", method: .get, headers: [.cookie: session.cookie]).body)
            #expect(!idle.contains("Cancel the running run"))
            try await harness.store.recordAttemptStart(UnitState(unit: "docs", source: "docs", domain: "com.test.docs"), at: Date(), forced: false)
            // On a store with leases, a run is alive while a replica holds its lease.
            _ = try await harness.store.leases?.take(Lease.unitName("docs"), holder: "another replica", for: .seconds(600))
            let running = String(buffer: try await harness.client.execute(uri: "/units/docs", method: .get, headers: [.cookie: session.cookie]).body)
            #expect(running.contains("Cancel the running run"))
            let cancelled = try await harness.client.execute(
                uri: "/console/sources/docs/cancel", method: .post, headers: session.headers, body: Self.form(["csrf": session.csrf, "back": "/units/docs"])
            )
            #expect(cancelled.headers[.location] == "/units/docs?notice=cancel-requested")
            #expect(try await harness.store.cancelRequest(unit: "docs")?.hasPrefix("the console") == true)
        }
    }

    @Test func formsWithoutASessionOrItsCSRFTokenAreRefusedAndChangeNothing() async throws {
        try await SchedulerAPITests.withHarness(.sqlite) { harness in
            let client = harness.client
            let session = try await Self.signIn(client)
            let other = try await Self.signIn(client)
            let forged: [(HTTPFields, [String: String], String)] = [
                ([.contentType: "application/x-www-form-urlencoded"], ["csrf": session.csrf], "no session cookie"),
                (session.headers, [:], "no CSRF token"),
                (session.headers, ["csrf": ""], "an empty CSRF token"),
                (session.headers, ["csrf": other.csrf], "another session's CSRF token"),
                (session.headers, ["csrf": String(session.csrf.dropLast())], "a CSRF token cut short"),
                ([.cookie: "scheduler_session=forged", .contentType: "application/x-www-form-urlencoded"], ["csrf": session.csrf], "a forged cookie"),
                (session.headers, ["csrf": session.csrf + "%"], "bad percent-encoding"),
            ]
            for (headers, fields, what) in forged {
                let response = try await client.execute(
                    uri: "/console/sources/docs/pause", method: .post, headers: headers,
                    body: ByteBuffer(string: fields.map { "\($0.key)=\($0.value)" }.joined(separator: "&"))
                )
                #expect(response.status == .forbidden, "\(what)")
                #expect(try await harness.store.pausedSources().isEmpty, "\(what) paused the source")
            }
            let huge = try await client.execute(
                uri: "/console/sources/docs/pause", method: .post, headers: session.headers,
                body: ByteBuffer(string: "csrf=\(session.csrf)&x=" + String(repeating: "a", count: 1_000_000))
            )
            #expect(huge.status == .contentTooLarge)
            #expect(try await harness.store.pausedSources().isEmpty)
        }
    }

    @Test func wrongTokensAreRefusedThenHeldBackAndASessionCookieIsStrictHttpOnlyAndSecureOverTLS() async throws {
        try await SchedulerAPITests.withAPI(.sqlite) { client, _ in
            for attempt in 1...5 {
                let wrong = try await client.execute(
                    uri: "/signin", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"], body: Self.form(["token": "guess\(attempt)"])
                )
                #expect(wrong.status == .unauthorized)
                #expect(wrong.headers[.setCookie] == nil, "no session for a wrong token")
                #expect(String(buffer: wrong.body).contains("That is not the admin token"))
            }
            let held = try await client.execute(
                uri: "/signin", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"], body: Self.form(["token": SchedulerAPITests.token])
            )
            #expect(held.status == .tooManyRequests, "even the right token waits once a client guessed five times")
            #expect(Int(held.headers[.retryAfter] ?? "") ?? 0 > 0)
            #expect(held.headers[.setCookie] == nil)
        }
        try await SchedulerAPITests.withAPI(.sqlite) { client, _ in
            let plain = try await client.execute(
                uri: "/signin", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"], body: Self.form(["token": SchedulerAPITests.token])
            )
            let cookie = try #require(plain.headers[.setCookie])
            #expect(cookie.hasPrefix("scheduler_session=") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Expires="))
            #expect(!cookie.contains("Secure"))
            #expect(!cookie.contains(SchedulerAPITests.token))
            let overTLS = try await client.execute(
                uri: "/signin", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded", HTTPField.Name("X-Forwarded-Proto")!: "https"],
                body: Self.form(["token": SchedulerAPITests.token])
            )
            let secure = try #require(overTLS.headers[.setCookie])
            #expect(secure.hasPrefix("__Host-scheduler_session=") && secure.contains("Secure") && secure.contains("Path=/"), "\(secure)")
            let form = String(buffer: try await client.execute(uri: "/signin", method: .get).body)
            #expect(form.contains(#"<input id="token" name="token" type="password""#))
        }
    }

    /// Sign-ins sent together count from the moment each is admitted: no more wrong tokens get through than the limit.
    @Test func wrongTokensSentTogetherGetNoMoreGuessesThanTheLimit() async throws {
        try await SchedulerAPITests.withAPI(.sqlite) { client, _ in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for attempt in 0..<20 {
                    group.addTask {
                        try await client.execute(
                            uri: "/signin", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                            body: Self.form(["token": "guess-\(attempt)"])
                        ).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .unauthorized }.count == 5, "\(statuses)")
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 15)
        }
    }

    /// Signing in again ends the session the browser held: its cookie no longer acts.
    @Test func signingInAgainEndsTheSessionBefore() async throws {
        try await SchedulerAPITests.withHarness(.sqlite) { harness in
            let first = try await Self.signIn(harness.client)
            let again = try await harness.client.execute(
                uri: "/signin", method: .post, headers: [.cookie: first.cookie, .contentType: "application/x-www-form-urlencoded"],
                body: Self.form(["token": SchedulerAPITests.token])
            )
            let second = try #require(again.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            #expect(second != first.cookie)
            let stale = try await harness.client.execute(
                uri: "/console/sources/docs/pause", method: .post, headers: first.headers, body: Self.form(["csrf": first.csrf])
            )
            #expect(stale.status == .forbidden)
            #expect(String(buffer: stale.body).contains("sign in first"), "a refusal is a page saying why")
            #expect(try await harness.store.pausedSources().isEmpty)
        }
    }

    @Test func withoutAnAdminTokenThePagesStayReadOnlyAndOfferNoSignIn() async throws {
        try await SchedulerAPITests.withAPI(.sqlite, adminToken: nil) { client, _ in
            let page = String(buffer: try await client.execute(uri: "/", method: .get).body)
            #expect(!page.contains("Sign in"))
            #expect(try await client.execute(uri: "/signin", method: .get).status == .notFound)
            let posted = try await client.execute(
                uri: "/signin", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"], body: Self.form(["token": ""])
            )
            #expect(posted.status == .notFound)
            #expect(try await client.execute(uri: "/console/sources/docs/pause", method: .post).status == .notFound)
        }
    }

    @Test(arguments: [
        ("/units/docs", "/units/docs"), ("//evil.example/", "/"), ("https://evil.example/", "/"), ("/units/../../x?y", "/"),
        ("/units/docs\r\nSet-Cookie: x", "/"), ("/units//evil.example", "/"), ("/units/\\evil", "/"), ("", "/"), ("/units/caf\u{E9}", "/"),
    ])
    func formsSendTheBrowserBackOnlyToThePagesOfThisService(back: String, expected: String) {
        #expect(SchedulerAPI.safeBack(back) == expected)
    }
}
