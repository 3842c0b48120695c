import Foundation
@testable import Indexing
@testable import SQLiteStore
import Testing

@Suite("Expiration")
struct ExpirationTests {
    @Test func anExpiredItemIsNeverReturnedAndTheSweepDeletesIt() async throws {
        let fixture = try IndexFixture()
        let inOneHour = fixture.clock.now().addingTimeInterval(3600)
        try await fixture.index.upsert([
            item("short", title: "Ephemeral note", expires: inOneHour),
            item("default", title: "Ephemeral page"),
        ])
        #expect(Set(try await fixture.identifiers("ephem")) == ["short", "default"])

        fixture.clock.advance(by: 2 * 3600)
        #expect(try await fixture.identifiers("ephem") == ["default"], "expired before any sweep")
        #expect(try await fixture.index.item(withIdentifier: "short") != nil, "still stored until swept")
        #expect(try await fixture.index.sweepExpired() == 1)
        #expect(try await fixture.index.item(withIdentifier: "short") == nil)
    }

    @Test func anItemWithoutADateLivesForTheDefaultTimeToLive() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.upsert([item("a", title: "Monthly")])
        let stored = try #require(try await fixture.index.item(withIdentifier: "a"))
        #expect(stored.expirationDate == fixture.clock.now().addingTimeInterval(30 * 24 * 3600))

        fixture.clock.advance(by: 29 * 24 * 3600)
        #expect(try await fixture.identifiers("month") == ["a"])
        fixture.clock.advance(by: 2 * 24 * 3600)
        #expect(try await fixture.identifiers("month").isEmpty)
        #expect(try await fixture.index.sweepExpired() == 1)
    }

    @Test func theDefaultTimeToLiveIsConfigurable() async throws {
        let fixture = try IndexFixture(timeToLive: .seconds(60))
        try await fixture.index.upsert([item("a", title: "Minute")])
        fixture.clock.advance(by: 61)
        #expect(try await fixture.identifiers("minute").isEmpty)
    }

    @Test func reindexingAnItemRenewsItsDefaultLifetime() async throws {
        let fixture = try IndexFixture(timeToLive: .seconds(100))
        try await fixture.index.upsert([item("a", title: "Renewed")])
        fixture.clock.advance(by: 80)
        try await fixture.index.upsert([item("a", title: "Renewed")])
        fixture.clock.advance(by: 80)
        #expect(try await fixture.identifiers("renew") == ["a"])
    }
}
