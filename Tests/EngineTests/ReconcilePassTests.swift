import Engine
import Foundation
import Indexing
import PluginAPI
import SchedulerConfig
import ServiceLifecycle
import Store
import StoreSupport
import Testing

@Suite("The reconcile pass")
struct ReconcilePassTests {
    let start = EngineFixture.start

    @Test(arguments: StoreBackend.allCases)
    func theFirstRunIndexesTheFeedAndRecordsTheSuccess(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        try fixture.setFeed(["a", "b", "c"])

        let outcomes = try await fixture.pass(at: start)

        #expect(outcomes.map(\.decision) == [.reindexed])
        #expect(outcomes[0].indexed == 3)
        #expect(outcomes[0].reason == "never succeeded")
        #expect(try await fixture.identifiers() == ["a", "b", "c"])
        let state = try #require(try await fixture.unitState())
        #expect(state.lastSuccessAt == start)
        #expect(state.itemCount == 3)
        #expect(state.lastResult == .succeeded)
        let item = try #require(try await fixture.withStore { try await $0.index.item(withIdentifier: "a") })
        #expect(item.contentURL == "app://article/a")
        #expect(item.expirationDate == start.plus(days: 30))
    }

    @Test(arguments: StoreBackend.allCases)
    func aSecondRunTheSameDayIsNotDueAndTheNextCalendarMonthIsClamped(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        try fixture.setFeed(["a", "b", "c"])
        try await fixture.pass(at: start)
        try fixture.setFeed(["a", "b", "c", "d"])

        let later = try await fixture.pass(at: start.plus(seconds: 6 * 3600))

        #expect(later.map(\.decision) == [.notDue])
        // January 31st plus one calendar month is the last day of February.
        #expect(later[0].nextDue == ISO8601.date(from: "2026-02-28T10:00:00Z"))
        #expect(try await fixture.identifiers() == ["a", "b", "c"])
        #expect(try await fixture.unitState()?.lastSuccessAt == start)
    }

    @Test(arguments: StoreBackend.allCases)
    func aMonthLaterTheUnitIsDueAndItemsTheFeedDroppedAreDeleted(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        try fixture.setFeed(["a", "b", "c", "d"])
        try await fixture.pass(at: start)
        try fixture.setFeed(["a", "b", "c", "e"])
        let monthLater = ISO8601.date(from: "2026-02-28T10:00:00Z")!

        let outcomes = try await fixture.pass(at: monthLater)

        #expect(outcomes.map(\.decision) == [.reindexed])
        #expect(outcomes[0].indexed == 4)
        #expect(outcomes[0].deleted == 1)
        #expect(try await fixture.identifiers() == ["a", "b", "c", "e"])
        #expect(try await fixture.unitState()?.lastSuccessAt == monthLater)
        #expect(try await fixture.pass(at: monthLater.plus(days: 1)).map(\.decision) == [.notDue])
    }

    @Test(arguments: StoreBackend.allCases)
    func aPluginFailureKeepsTheItemsAndTheDateAndBacksOff(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        try fixture.setFeed(["a", "b", "c"])
        try await fixture.pass(at: start)
        try fixture.setFeed(["a", "FAIL"])
        let due = start.plus(days: 28)

        let failed = try await fixture.pass(at: due)

        #expect(failed.map(\.decision) == [.failed])
        #expect(failed[0].error?.contains("the feed said FAIL") == true)
        #expect(failed[0].error?.contains("nothing was deleted") == true)
        #expect(try await fixture.identifiers() == ["a", "b", "c"])
        let state = try #require(try await fixture.unitState())
        #expect(state.lastSuccessAt == start)
        #expect(state.lastResult == .failed)
        // One minute after the first failure (the jitter is pinned to its middle here).
        #expect(state.retryAt == due.plus(seconds: 60))

        #expect(try await fixture.pass(at: due.plus(seconds: 30)).map(\.decision) == [.notDue])
        #expect(try await fixture.pass(at: due.plus(seconds: 61)).map(\.decision) == [.failed])
        #expect(try await fixture.unitState()?.retryAt == due.plus(seconds: 61 + 120))

        try fixture.setFeed(["a", "b"])
        let recovered = try await fixture.pass(at: due.plus(seconds: 200))
        #expect(recovered.map(\.decision) == [.reindexed])
        #expect(try await fixture.identifiers() == ["a", "b"])
        let after = try #require(try await fixture.unitState())
        #expect(after.failures == 0)
        #expect(after.retryAt == nil)
        #expect(after.lastSuccessAt == due.plus(seconds: 200))
    }

    @Test(arguments: StoreBackend.allCases)
    func aFailureAfterSomeBatchesDeletesNothingAndTheNextRunFinishesTheJob(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        try fixture.setFeed(["a", "b", "c", "d"])
        try await fixture.pass(at: start)
        try fixture.setFeed(["a", "b", "x", "FAIL"])

        let failed = try await fixture.pass(at: start.plus(days: 28), .init(batchSize: 1))

        #expect(failed[0].decision == .failed)
        #expect(failed[0].indexed == 3)
        // The committed batches stay (they hold fresh items); the stale ones are not deleted.
        #expect(try await fixture.identifiers() == ["a", "b", "c", "d", "x"])
        #expect(try await fixture.unitState()?.lastSuccessAt == start)

        try fixture.setFeed(["a", "b", "c", "x"])
        #expect(try await fixture.pass(at: start.plus(days: 29)).map(\.decision) == [.reindexed])
        #expect(try await fixture.identifiers() == ["a", "b", "c", "x"])
    }

    /// What a shutdown in the middle of a run leaves: the committed batches, the previous success, and on a shared
    /// store no lease (the store's pool stops after the pass, so the release reaches the database).
    @Test(arguments: StoreBackend.allCases)
    func aRunStoppedMidwayKeepsThePreviousSuccessAndIsRedoneAtOnce(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        try fixture.setFeed(["a", "b", "c"])
        try await fixture.pass(at: start)
        try fixture.setFeed(["a", "new", "HANG"])

        let service = ServiceGroup(services: [WorkService { try await fixture.pass(at: start.plus(days: 28), .init(batchSize: 1)) }], logger: .quiet)
        let running = Task { try await service.run() }
        while try await fixture.identifiers().contains("new") == false { try await Task.sleep(for: .milliseconds(5)) }
        await service.triggerGracefulShutdown()
        await #expect(throws: CancellationError.self) { try await running.value }

        #expect(try await fixture.identifiers() == ["a", "b", "c", "new"])
        let stopped = try #require(try await fixture.unitState())
        #expect(stopped.lastSuccessAt == start)
        #expect(stopped.lastResult == .running)

        try fixture.setFeed(["a", "new"])
        let redone = try await fixture.pass(at: start.plus(days: 28).plus(seconds: 60))
        #expect(redone.map(\.decision) == [.reindexed])
        #expect(redone[0].reason == "the last run was interrupted before its final commit")
        #expect(try await fixture.identifiers() == ["a", "new"])
        #expect(try await fixture.unitState()?.lastResult == .succeeded)
    }

    @Test(arguments: StoreBackend.allCases)
    func aGateTurnedOffPurgesAndTurnedOnAgainReindexesAtOnce(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        fixture.sourceLines = ["purgeGrace: 0"]
        try fixture.writeScheduler()
        try fixture.setFeed(["a", "b", "c"])
        try await fixture.pass(at: start)
        let canary = SearchableItem(uniqueIdentifier: "other", domainIdentifier: "com.example.articlesarchive", title: "Article other")
        try await fixture.withStore { try await $0.index.upsert([canary]) }

        try fixture.setGate(on: false)
        let off = try await fixture.pass(at: start.plus(seconds: 60))

        #expect(off.map(\.decision) == [.purged])
        #expect(off[0].deleted == 3)
        #expect(off[0].gate == .off)
        #expect(try await fixture.identifiers().isEmpty)
        #expect(try await fixture.identifiers(in: "com.example.articlesarchive") == ["other"])
        #expect(try await fixture.unitState()?.lastSuccessAt == nil)
        #expect(try await fixture.pass(at: start.plus(seconds: 90)).map(\.decision) == [.skipped])

        try fixture.setGate(on: true)
        let on = try await fixture.pass(at: start.plus(seconds: 120))
        #expect(on.map(\.decision) == [.reindexed])
        #expect(on[0].reason == "never succeeded")
        #expect(try await fixture.identifiers() == ["a", "b", "c"])
    }

    @Test(arguments: StoreBackend.allCases)
    func aGateTurnedOnAgainWithinThePurgeGraceRestoresTheItemsWithoutARun(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        try fixture.setFeed(["a", "b", "c"])
        try await fixture.pass(at: start)
        // A run now would fail: the items must come back from the store, not from the plugin.
        try fixture.setFeed(["FAIL"])

        try fixture.setGate(on: false)
        let off = try await fixture.pass(at: start.plus(seconds: 60))
        #expect(off.map(\.decision) == [.purged])
        #expect(off[0].deleted == 3)
        #expect(off[0].reason.contains("restorable until 2026-01-31T11:01:00Z"))
        #expect(try await fixture.identifiers().isEmpty, "gone from search at once")
        #expect(try await fixture.unitState()?.lastSuccessAt == start, "the unit's success is kept through the grace")
        let waiting = try await fixture.pass(at: start.plus(seconds: 120))
        #expect(waiting.map(\.decision) == [.skipped])
        #expect(waiting[0].reason.contains("purged, restorable until 2026-01-31T11:01:00Z if the gate turns on again"))

        try fixture.setGate(on: true)
        let on = try await fixture.pass(at: start.plus(seconds: 180))
        #expect(on.map(\.decision) == [.restored])
        #expect(on[0].reason.contains("(3 items)"))
        #expect(on[0].nextDue == ISO8601.date(from: "2026-02-28T10:00:00Z"))
        #expect(try await fixture.identifiers() == ["a", "b", "c"])
        let state = try #require(try await fixture.unitState())
        #expect(state.lastSuccessAt == start && state.lastResult == .succeeded && state.itemCount == 3)
        #expect(try await fixture.pass(at: start.plus(seconds: 240)).map(\.decision) == [.notDue])
        let history = try await fixture.withStore { try await $0.history(source: nil, limit: 10) }
        #expect(history.map(\.decision) == [.restored, .purged, .reindexed])
    }

    /// A unit indexed at `start` (a, b, c) whose gate turned off a minute later, with `purgeGrace: 10m`: purged,
    /// restorable until `start` + 11 min.
    private func purgedWithTenMinutesOfGrace(_ backend: StoreBackend) async throws -> EngineFixture {
        let fixture = try await EngineFixture(backend)
        fixture.sourceLines = ["purgeGrace: 10m"]
        try fixture.writeScheduler()
        try fixture.setFeed(["a", "b", "c"])
        try await fixture.pass(at: start)
        try fixture.setGate(on: false)
        #expect(try await fixture.pass(at: start.plus(seconds: 60)).map(\.decision) == [.purged])
        return fixture
    }

    @Test(arguments: StoreBackend.allCases)
    func pastThePurgeGraceThePurgeIsFinalAndTheGateTurnedOnReindexes(backend: StoreBackend) async throws {
        let fixture = try await purgedWithTenMinutesOfGrace(backend)

        let final = try await fixture.pass(at: start.plus(seconds: 660))
        #expect(final.map(\.decision) == [.purged])
        #expect(final[0].reason.contains("the purge's grace ended: final"))
        #expect(try await fixture.unitState()?.lastSuccessAt == nil)
        #expect(try await fixture.pass(at: start.plus(seconds: 720)).map(\.decision) == [.skipped])

        try fixture.setFeed(["a", "d"])
        try fixture.setGate(on: true)
        let on = try await fixture.pass(at: start.plus(seconds: 780))
        #expect(on.map(\.decision) == [.reindexed])
        #expect(try await fixture.identifiers() == ["a", "d"])
    }

    /// In the service the reclaimer (every 2 s) usually reaches an expired purge before the pass (every tick): its
    /// first step makes the purge final, and the pass then forgets the unit's success instead of purging again.
    @Test(arguments: StoreBackend.allCases)
    func aPurgeTheReclaimerMadeFinalIsNotPurgedRestorablyAgain(backend: StoreBackend) async throws {
        let fixture = try await purgedWithTenMinutesOfGrace(backend)
        try await fixture.withStore(at: start.plus(seconds: 700)) { store in
            while try await store.index.reclaimPurgedItems(limit: 2) != nil {}
        }
        let final = try await fixture.pass(at: start.plus(seconds: 720))
        #expect(final.map(\.decision) == [.purged])
        #expect(!final[0].reason.contains("restorable"), "\(final[0].reason)")
        #expect(try await fixture.unitState()?.lastSuccessAt == nil)
        #expect(try await fixture.withStore { try await $0.index.restorablePurges() }.isEmpty)
        #expect(try await fixture.pass(at: start.plus(seconds: 780)).map(\.decision) == [.skipped])
    }

    @Test(arguments: StoreBackend.allCases)
    func aGateTurnedOnJustPastTheGraceReindexesInsteadOfRestoring(backend: StoreBackend) async throws {
        let fixture = try await purgedWithTenMinutesOfGrace(backend)

        // No pass ran in the grace's last moments: the purge is not final yet, but it is past restoring.
        try fixture.setFeed(["a", "e"])
        try fixture.setGate(on: true)
        let on = try await fixture.pass(at: start.plus(seconds: 700))
        #expect(on.map(\.decision) == [.reindexed])
        #expect(on[0].reason == "its purge's grace ended before the gate turned on again: reindexed")
        #expect(try await fixture.identifiers() == ["a", "e"])
    }

    @Test(arguments: StoreBackend.allCases)
    func anUnparsableGatesFileLoadsNothingSoNothingCanBePurged(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        try fixture.setFeed(["a", "b"])
        try await fixture.pass(at: start)
        try fixture.write("gates.yaml", "gates:\n  articles_gate: { enabled: false\n")

        await #expect(throws: InvalidConfiguration.self) { try await fixture.pass(at: start.plus(seconds: 60)) }
        #expect(try await fixture.identifiers() == ["a", "b"])
        #expect(try await fixture.unitState()?.lastSuccessAt == start)
    }

    @Test(arguments: StoreBackend.allCases, [[String](), ["a"]])
    func anEmptyOrTruncatedFeedDeletesNothing(backend: StoreBackend, feed: [String]) async throws {
        let fixture = try await EngineFixture(backend)
        try fixture.setFeed(["a", "b", "c", "d"])
        try await fixture.pass(at: start)
        try fixture.setFeed(feed)

        let outcomes = try await fixture.pass(at: start.plus(days: 28))

        #expect(outcomes.map(\.decision) == [.failed])
        let error = try #require(outcomes[0].error)
        #expect(error.contains("more than maxDeleteRatio 0.5"))
        #expect(error.contains("--force"))
        #expect(try await fixture.identifiers() == ["a", "b", "c", "d"])
        #expect(try await fixture.unitState()?.lastSuccessAt == start)

        let forced = try await fixture.pass(at: start.plus(days: 29), .init(force: .full))
        #expect(forced.map(\.decision) == [.reindexed])
        #expect(try await fixture.identifiers() == feed)
    }

    @Test(arguments: StoreBackend.allCases)
    func aWipedIndexIsReindexedThoughTheDateSaysNotDue(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        try fixture.setFeed(["a", "b"])
        try await fixture.pass(at: start)
        try await fixture.withStore { try await $0.index.deleteAll() }

        let outcomes = try await fixture.pass(at: start.plus(days: 1))

        #expect(outcomes.map(\.decision) == [.reindexed])
        #expect(outcomes[0].reason.contains("index wiped or replaced"))
        #expect(try await fixture.identifiers() == ["a", "b"])
    }

    @Test(arguments: StoreBackend.allCases)
    func changedSettingsReindexButAScheduleChangeDoesNot(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        try fixture.setFeed(["a"])
        try await fixture.pass(at: start)

        fixture.schedule = "weekly"
        try fixture.writeScheduler()
        #expect(try await fixture.pass(at: start.plus(days: 1)).map(\.decision) == [.notDue])

        fixture.deepLink = "app://v2/article/{id}"
        try fixture.writeScheduler()
        let outcomes = try await fixture.pass(at: start.plus(days: 1))
        #expect(outcomes.map(\.decision) == [.reindexed])
        #expect(outcomes[0].reason == "settings changed since the last success")
        #expect(try await fixture.withStore { try await $0.index.item(withIdentifier: "a")?.contentURL } == "app://v2/article/a")
    }

    @Test(arguments: StoreBackend.allCases)
    func aCronScheduleRunsOnceForEveryInstantItMissed(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        fixture.schedule = #"cron "0 3 * * *""#
        try fixture.writeScheduler()
        try fixture.setFeed(["a"])
        try await fixture.pass(at: start)  // 10:00, after today's 03:00

        #expect(try await fixture.pass(at: ISO8601.date(from: "2026-02-01T02:59:00Z")!).map(\.decision) == [.notDue])
        // Three days of missed instants are caught up by one run.
        let caughtUp = ISO8601.date(from: "2026-02-03T12:00:00Z")!
        #expect(try await fixture.pass(at: caughtUp).map(\.decision) == [.reindexed])
        let next = try await fixture.pass(at: caughtUp.plus(seconds: 60))
        #expect(next.map(\.decision) == [.notDue])
        #expect(next[0].nextDue == ISO8601.date(from: "2026-02-04T03:00:00Z"))
    }

    @Test(arguments: StoreBackend.allCases)
    func aDryRunDecidesAndTouchesNothing(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        try fixture.setFeed(["a"])

        let first = try await fixture.pass(at: start, .init(dryRun: true))
        #expect(first.map(\.decision) == [.wouldReindex])
        #expect(try await fixture.identifiers().isEmpty)
        #expect(try await fixture.unitState() == nil)

        try await fixture.pass(at: start)
        try fixture.setGate(on: false)
        #expect(try await fixture.pass(at: start, .init(dryRun: true)).map(\.decision) == [.wouldPurge])
        #expect(try await fixture.identifiers() == ["a"])
    }

    @Test(arguments: StoreBackend.allCases)
    func itemsOutsideTheUnitOrTakingAnotherDomainsIdentifierAreRejected(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        try await fixture.withStore { try await $0.index.upsert([SearchableItem(uniqueIdentifier: "taken", domainIdentifier: "com.example.news", title: "Article taken")]) }
        try fixture.setFeed(["a", "outside:b", "taken"])

        let outcomes = try await fixture.pass(at: start)

        #expect(outcomes.map(\.decision) == [.reindexed])
        #expect(outcomes[0].indexed == 1)
        #expect(outcomes[0].rejected == 2)
        #expect(try await fixture.identifiers() == ["a"])
        #expect(try await fixture.identifiers(in: "com.example.news") == ["taken"])
    }

    @Test(arguments: StoreBackend.allCases)
    func partitionsAreUnitsOfTheirOwn(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        fixture.partitions = "[en, fr]"
        try fixture.writeScheduler()
        try fixture.setFeed(["en-1", "en-2"], partition: "en")
        try fixture.setFeed(["fr-1", "FAIL"], partition: "fr")

        let outcomes = try await fixture.pass(at: start)

        #expect(outcomes.map(\.unit) == ["articles/en", "articles/fr"])
        #expect(outcomes.map(\.decision) == [.reindexed, .failed])
        #expect(try await fixture.identifiers(in: "com.example.articles.en") == ["en-1", "en-2"])
        let onlyFrench = try await fixture.pass(at: start.plus(days: 1), .init(sources: ["nothing"]))
        #expect(onlyFrench.isEmpty)
    }

    @Test(arguments: StoreBackend.allCases)
    func expiredItemsAreSweptAtTheEndOfAPass(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        try fixture.setFeed(["a"])
        try await fixture.pass(at: start)

        // Items live 30 days unless reindexed. The source is removed, so nothing refreshes them (and nothing
        // purges them): a pass after they expired sweeps them.
        try fixture.write("scheduler.yaml", """
            store: { sqlite: { path: index.sqlite } }
            sources: {}
            """)
        try await fixture.pass(at: start.plus(days: 29))
        #expect(try await fixture.withStore(at: start) { try await $0.index.itemCountsByDomain() } == ["com.example.articles": 1])
        try await fixture.pass(at: start.plus(days: 31))
        #expect(try await fixture.withStore(at: start) { try await $0.index.itemCountsByDomain().isEmpty })
    }

    @Test(arguments: StoreBackend.allCases)
    func theHistoryKeepsTheConfiguredNumberOfRuns(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        fixture.historyLength = 3
        try fixture.writeScheduler()
        try fixture.setFeed(["a"])
        for day in 0..<5 {
            try await fixture.pass(at: start.plus(days: day), .init(force: .full))
        }
        let runs = try await fixture.withStore { try await $0.history(source: nil, limit: 100) }
        #expect(runs.count == 3)
        #expect(runs.first?.startedAt == start.plus(days: 4))
        #expect(runs.allSatisfy { $0.decision == .reindexed && $0.indexed == 1 })
    }
}

@Suite("Replicas sharing a PostgreSQL store")
struct ReplicaPassTests {
    let start = EngineFixture.start

    /// On a shared store a run is alive while its lease is: the status shows a unit whose lease lapsed as interrupted.
    /// A gate's flag that stops resolving after the config loaded (its rule fails between two dates) holds the unit:
    /// no run and, above all, no purge; when it resolves again, the unit goes on as before.
    @Test(arguments: StoreBackend.allCases)
    func aUnitWhoseFlagFailsIsHeldNeitherRunNorPurged(backend: StoreBackend) async throws {
        let fixture = try await EngineFixture(backend)
        try fixture.setFeed(["a", "b"])
        try fixture.write("gates.yaml", "gates:\n  articles_gate: { flagd: { file: flags.json, flag: articles } }\n")
        // Fails from February 1st to 20th 2026 (the real clock, which the load checks the flag at, is outside).
        let failsInFebruary = #"""
            {"if": [{"and": [{">": [{"var": "$flagd.timestamp"}, 1769904000]}, {"<": [{"var": "$flagd.timestamp"}, 1771545600]}]},
              {"starts_with": [{"var": "source"}]}, "on"]}
            """#
        try fixture.write("flags.json", """
            {"flags": {"articles": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off",
              "targeting": \(failsInFebruary)}}}
            """)
        #expect(try await fixture.pass(at: start).map(\.decision) == [.reindexed])

        let inFebruary = ISO8601.date(from: "2026-02-10T00:00:00Z")!
        let held = try await fixture.pass(at: inFebruary)
        #expect(held.map(\.decision) == [.skipped])
        #expect(held.first?.gate == .unknown)
        #expect(held.first?.reason.hasPrefix("held: flag 'articles' in flags.json did not resolve: \"starts_with\" takes 2 arguments") == true, "\(held)")
        #expect(try await fixture.identifiers() == ["a", "b"], "a flag that fails never purges")
        #expect(try await fixture.unitState()?.lastSuccessAt == start, "nor runs")

        try fixture.write("flags.json", #"{"flags": {"articles": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "on"}}}"#)
        let resolved = try await fixture.pass(at: inFebruary)
        #expect(resolved.map(\.decision) == [.notDue], "resolving again, the unit goes on by its schedule")
        #expect(resolved.first?.gate == .on)
    }

    @Test func theStatusJudgesARunningUnitByItsLease() async throws {
        let fixture = try await EngineFixture(.postgres)
        try await fixture.withStore { store in
            let leases = try #require(store.leases)
            let unit = UnitState(unit: "articles", source: "articles", domain: "com.example.articles")
            let lease = try #require(try await leases.take(Lease.unitName("articles"), holder: "elsewhere", for: .seconds(60)))
            try await leases.fenced(by: lease).recordAttemptStart(unit, at: start, forced: false)
            func shown() async throws -> UnitResult? {
                try await StatusReport.make(configuration: .success(try fixture.load()), store: store, now: start).units.first?.lastResult
            }
            #expect(try await shown() == .running)
            try await leases.release(lease)
            #expect(try await shown() == .interrupted)
        }
    }

    /// An operator's purge waits for no one: it refuses while a replica holds a unit inside the domain, and purges
    /// under the units' leases otherwise.
    @Test func anOperatorPurgeIsRefusedWhileAReplicaRunsAUnitInsideTheDomain() async throws {
        let fixture = try await EngineFixture(.postgres)
        try fixture.setFeed(["a", "b"])
        try await fixture.pass(at: start)
        try await fixture.withStore { store in
            let leases = try #require(store.leases)
            let running = try #require(try await leases.take(Lease.unitName("articles"), holder: "other-replica", for: .seconds(60)))
            await #expect(throws: OperatorPurge.UnitBusy.self) { try await OperatorPurge.purge(domain: "com.example", store: store) }
            #expect(try await store.index.itemCount(inDomain: "com.example") == 2, "nothing purged")
            try await leases.release(running)
            #expect(try await OperatorPurge.purge(domain: "com.example", store: store, holder: "operator") == 2)
            #expect(try await leases.liveLeases().isEmpty, "the purge released the leases it took")
            #expect(try await store.units()["articles"]?.lastResult == .purged)
        }
    }

    /// Two replicas whose passes start together: every unit is run by one of them, once; the other skips it while
    /// the lease is held, or finds it not due once the lease is released.
    @Test func twoReplicasPassingTogetherRunEachUnitOnce() async throws {
        let fixture = try await EngineFixture(.postgres)
        let partitions = (0..<12).map { "p\($0)" }
        fixture.partitions = "[\(partitions.joined(separator: ", "))]"
        try fixture.writeScheduler()
        for partition in partitions { try fixture.setFeed(["\(partition)-a", "\(partition)-b"], partition: partition) }

        async let first = fixture.pass(at: start, .init(batchSize: 1, replica: "replica-a"))
        async let second = fixture.pass(at: start, .init(batchSize: 1, replica: "replica-b"))
        let outcomes = try await first + second

        let runs = Dictionary(grouping: outcomes.filter { $0.decision == .reindexed }, by: \.unit).mapValues(\.count)
        #expect(runs.count == 12 && runs.values.allSatisfy { $0 == 1 }, "\(runs)")
        #expect(outcomes.allSatisfy { [.reindexed, .skipped, .notDue].contains($0.decision) }, "\(outcomes.map(\.reason))")
        let history = try await fixture.withStore { try await $0.history(source: nil, limit: 100) }
        #expect(history.filter { $0.decision == .reindexed }.count == 12, "one success recorded per run")
        for partition in partitions {
            #expect(try await fixture.identifiers(in: "com.example.articles.\(partition)") == ["\(partition)-a", "\(partition)-b"])
        }
    }
}
