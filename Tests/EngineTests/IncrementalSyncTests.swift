import Engine
import Foundation
import Indexing
import PluginAPI
import ServiceLifecycle
import Store
import StoreSupport
import Testing

/// Incremental runs between full ones, states committed only with what precedes them and kept only by a success,
/// deletions checked and guarded, and interrupted full runs resumed; alike on every store.
@Suite("Incremental and resumed runs")
struct IncrementalSyncTests {
    let start = EngineFixture.start

    static func fixture(_ backend: StoreBackend, incremental: String? = "daily") async throws -> EngineFixture {
        let fixture = try await EngineFixture(backend)
        fixture.plugin = StatefulTestPlugin.kind
        fixture.incremental = incremental
        try fixture.writeScheduler()
        return fixture
    }

    @Test(arguments: StoreBackend.allCases)
    func anIncrementalRunGoesOnFromTheLastSuccessesStateWithoutSweeping(backend: StoreBackend) async throws {
        let fixture = try await Self.fixture(backend)
        try fixture.setFeed(["a", "b", "c", "state"])
        #expect(try await fixture.pass(at: start).map(\.mode) == [.full])

        try fixture.setFeed(["d", "delete:a", "state"])
        let incremental = try await fixture.pass(at: start.plus(days: 1))
        #expect(incremental.map(\.decision) == [.reindexed] && incremental.map(\.mode) == [.incremental])
        #expect(incremental[0].reason.hasPrefix("incremental daily schedule: due since"))
        #expect(incremental[0].indexed == 1 && incremental[0].deleted == 1)
        #expect(try await fixture.identifiers() == ["b", "c", "d"], "nothing swept: b and c stay, a is deleted")
        #expect(try fixture.runs() == ["full -", "incremental 4"], "the full run's last state is handed over")
        let state = try #require(try await fixture.unitState())
        #expect(state.lastSuccessAt == start && state.lastIncrementalAt == start.plus(days: 1), "the last-indexed date is the full run's")
        #expect(state.syncStateAt == start.plus(days: 1) && state.itemCount == 3)
        let history = try await fixture.withStore { try await $0.history(source: nil, limit: 10) }
        #expect(history.map(\.mode) == [.incremental, .full])

        // The next one is handed the incremental run's state; the monthly full run sweeps.
        try fixture.setFeed(["e"])
        try await fixture.pass(at: start.plus(days: 2))
        #expect(try fixture.runs().last == "incremental 3")
        try fixture.setFeed(["b", "e", "state"])
        let full = try await fixture.pass(at: start.plus(days: 31))
        #expect(full.map(\.mode) == [.full] && full[0].deleted == 2)
        #expect(try await fixture.identifiers() == ["b", "e"])
        #expect(try await fixture.unitState()?.lastSuccessAt == start.plus(days: 31))
    }

    @Test(arguments: StoreBackend.allCases)
    func aFailedIncrementalRunKeepsItsBatchesButNotItsState(backend: StoreBackend) async throws {
        let fixture = try await Self.fixture(backend)
        try fixture.setFeed(["a", "b", "state"])
        try await fixture.pass(at: start)
        try fixture.setFeed(["c", "state", "FAIL"])
        let failed = try await fixture.pass(at: start.plus(days: 1), .init(batchSize: 1))
        #expect(failed.map(\.decision) == [.failed] && failed[0].error?.contains("the state did not move") == true)
        #expect(try await fixture.identifiers() == ["a", "b", "c"], "the committed batch stays")
        #expect(try await fixture.unitState()?.syncStateAt == start)

        try fixture.setFeed(["c"])
        try await fixture.pass(at: start.plus(days: 2))
        #expect(try fixture.runs() == ["full -", "incremental 3", "incremental 3"], "handed the last success's state again")
    }

    @Test(arguments: StoreBackend.allCases)
    func deletionsAreCheckedAndAnIncrementalRunMayNotDeleteMoreThanTheRatio(backend: StoreBackend) async throws {
        let fixture = try await Self.fixture(backend)
        try fixture.setFeed(["a", "b", "c", "d", "state"])
        try await fixture.pass(at: start)
        let foreign = SearchableItem(uniqueIdentifier: "foreign", domainIdentifier: "org.other", title: "Article foreign")
        try await fixture.withStore { try await $0.index.upsert([foreign]) }

        // A deletion counts against the ratio whether it finds an item or not: 3 asked of 4 items, 0.75 at most.
        fixture.maxDeleteRatio = "0.75"
        try fixture.writeScheduler()
        try fixture.setFeed(["delete:foreign", "delete:never-indexed", "delete:", "delete:a", "state"])
        let checked = try await fixture.pass(at: start.plus(days: 1))
        #expect(checked.map(\.decision) == [.reindexed] && checked[0].deleted == 1)
        #expect(checked[0].rejected == 2, "another domain's identifier and an empty one are refused; one never indexed deletes nothing")
        #expect(try await fixture.withStore { try await $0.index.item(withIdentifier: "foreign") } != nil)

        // 3 items left of the 4 of the last full run, ratio 0.5: one more deletion at most.
        fixture.maxDeleteRatio = "0.5"
        try fixture.writeScheduler()
        try fixture.setFeed(["delete:b", "delete:c", "state"])
        let guarded = try await fixture.pass(at: start.plus(days: 2))
        #expect(guarded.map(\.decision) == [.failed])
        #expect(guarded[0].error?.contains("by more than maxDeleteRatio 0.5 of the 4 items of the last full run (it holds 3") == true, "\(guarded[0].error ?? "")")
        #expect(try await fixture.identifiers() == ["b", "c", "d"], "nothing of the refused batch is deleted")

        // Asked by an operator, an incremental run is guarded as a scheduled one: only a full --force lifts the guard.
        let asked = try await fixture.pass(at: start.plus(days: 2), .init(force: .incremental))
        #expect(asked.map(\.decision) == [.failed] && asked.map(\.mode) == [.incremental])
        #expect(try await fixture.identifiers() == ["b", "c", "d"])
    }

    @Test(arguments: StoreBackend.allCases)
    func anIncrementalRunIsForcedOnlyWhereItCanRun(backend: StoreBackend) async throws {
        let fixture = try await Self.fixture(backend, incremental: nil)
        try fixture.setFeed(["a"])
        try await fixture.pass(at: start)
        let refused = try await fixture.pass(at: start.plus(seconds: 60), .init(force: .incremental))
        #expect(refused.map(\.decision) == [.notDue])
        #expect(refused[0].reason == "an incremental run was asked, but no full run has committed a state to go on from yet")

        try fixture.setFeed(["a", "state"])
        try await fixture.pass(at: start.plus(seconds: 120), .init(force: .full))
        try fixture.setFeed(["b"])
        #expect(try await fixture.pass(at: start.plus(seconds: 180)).map(\.decision) == [.notDue], "no incremental schedule")
        let forced = try await fixture.pass(at: start.plus(seconds: 180), .init(force: .incremental))
        #expect(forced.map(\.mode) == [.incremental] && forced.map(\.decision) == [.reindexed])
        #expect(try await fixture.identifiers() == ["a", "b"])
    }

    /// A full run stopped midway is taken up again from the state of its last committed batch, with its baseline: what the
    /// stopped attempt wrote counts as produced, and the sweep deletes only what neither attempt sent.
    @Test(arguments: StoreBackend.allCases)
    func anInterruptedFullRunIsResumedFromItsLastCheckpoint(backend: StoreBackend) async throws {
        let fixture = try await Self.fixture(backend, incremental: nil)
        try fixture.setFeed(["a", "b", "old", "state"])
        try await fixture.pass(at: start)
        try fixture.setFeed(["a", "state", "b", "state", "new", "HANG", "c", "state"])

        let service = ServiceGroup(services: [WorkService { try await fixture.pass(at: start.plus(days: 40), .init(batchSize: 1)) }], logger: .quiet)
        let running = Task { try await service.run() }
        while try await fixture.identifiers().contains("new") == false { try await Task.sleep(for: .milliseconds(5)) }
        await service.triggerGracefulShutdown()
        await #expect(throws: CancellationError.self) { try await running.value }

        try fixture.setFeed(["a", "state", "b", "state", "new", "c", "state"])
        let resumed = try await fixture.pass(at: start.plus(days: 40).plus(seconds: 60))
        #expect(resumed.map(\.decision) == [.reindexed] && resumed.map(\.mode) == [.resume])
        #expect(try fixture.runs() == ["full -", "full -", "resume 4"], "handed the state of the last batch committed")
        #expect(try await fixture.identifiers() == ["a", "b", "c", "new"], "old is swept; a, b and new, written before the stop, stay")
        #expect(resumed[0].indexed == 4)
        let history = try await fixture.withStore { try await $0.history(source: nil, limit: 1) }
        #expect(history.first?.mode == .resume)
    }

    /// What failed incremental runs deleted counts against the next ones: the limit is measured from the last full run.
    @Test(arguments: StoreBackend.allCases)
    func deletionsOfFailedRunsCountAgainstTheNextOnes(backend: StoreBackend) async throws {
        let fixture = try await Self.fixture(backend)
        try fixture.setFeed(["a", "b", "c", "d", "state"])
        try await fixture.pass(at: start)
        try fixture.setFeed(["delete:a", "delete:b", "FAIL"])
        #expect(try await fixture.pass(at: start.plus(days: 1), .init(batchSize: 1)).map(\.decision) == [.failed])
        #expect(try await fixture.identifiers() == ["c", "d"], "two of four deleted: the ratio, by batches committed before the failure")
        try fixture.setFeed(["delete:c", "state"])
        let retried = try await fixture.pass(at: start.plus(days: 2))
        #expect(retried.map(\.decision) == [.failed])
        #expect(retried[0].error?.contains("by more than maxDeleteRatio 0.5 of the 4 items of the last full run (it holds 2") == true, "\(retried[0].error ?? "")")
        #expect(try await fixture.identifiers() == ["c", "d"])
    }

    /// An incremental run's count is of writes, not of the domain: it neither raises nor resets the size the next full
    /// run is measured by. A full run's deletions are its sweep's.
    @Test(arguments: StoreBackend.allCases)
    func incrementalRunsLeaveTheFullRunsGuardAlone(backend: StoreBackend) async throws {
        let fixture = try await Self.fixture(backend)
        try fixture.setFeed(["a", "b", "c", "state"])
        try await fixture.pass(at: start)
        try fixture.setFeed(Array(repeating: ["a", "b", "c"], count: 5).flatMap { $0 } + ["state"])
        let busy = try await fixture.pass(at: start.plus(days: 25), .init(force: .incremental))
        #expect(busy.map(\.mode) == [.incremental] && busy[0].indexed == 15)
        // Due by the monthly schedule, within maxDeleteWindow (7d) of the incremental run.
        try fixture.setFeed(["a", "b", "c", "delete:a", "state"])
        let full = try await fixture.pass(at: start.plus(days: 29))
        #expect(full.map(\.decision) == [.reindexed] && full.map(\.mode) == [.full], "15 writes set no size to fall short of: \(full[0].error ?? "")")
        #expect(try await fixture.identifiers() == ["a", "b", "c"], "a full run's deletions are ignored: it sent a")
    }

    /// Settings changed, or the domain emptied, while a full run was stopped: the next run starts over, not resumes.
    @Test(arguments: StoreBackend.allCases)
    func anInterruptedRunWhoseSettingsChangedStartsOver(backend: StoreBackend) async throws {
        let fixture = try await Self.fixture(backend, incremental: nil)
        try fixture.setFeed(["a", "state"])
        try await fixture.pass(at: start)
        try fixture.setFeed(["a", "state", "new", "HANG"])
        let service = ServiceGroup(services: [WorkService { try await fixture.pass(at: start.plus(days: 40), .init(batchSize: 1)) }], logger: .quiet)
        let running = Task { try await service.run() }
        while try await fixture.identifiers().contains("new") == false { try await Task.sleep(for: .milliseconds(5)) }
        await service.triggerGracefulShutdown()
        await #expect(throws: CancellationError.self) { try await running.value }

        fixture.deepLink = "app://other/{id}"
        try fixture.writeScheduler()
        try fixture.setFeed(["a", "state", "b", "state"])
        let redone = try await fixture.pass(at: start.plus(days: 40).plus(seconds: 60))
        #expect(redone.map(\.mode) == [.full])
        #expect(redone[0].reason == "the last run was interrupted before its final commit, and settings changed since the last success")
        #expect(try await fixture.identifiers() == ["a", "b"], "new, written under the old settings, is swept")
        #expect(try await fixture.withStore { try await $0.index.item(withIdentifier: "a") }?.contentURL == "app://other/a")
    }
}
