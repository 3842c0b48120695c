public import Foundation
public import PluginAPI

/// What the scheduler remembers about one unit, stored beside the index in the same database.
public struct UnitState: Sendable, Hashable, Codable {
    public var unit: String
    public var source: String
    public var domain: String
    /// When the last successful run finished: the last-indexed date. It moves only with a successful run.
    public var lastSuccessAt: Date?
    /// The fingerprint of the settings of that run.
    public var fingerprint: String?
    /// How many items that run produced.
    public var itemCount: Int?
    public var lastAttemptAt: Date?
    public var lastResult: UnitResult?
    public var lastError: String?
    /// Failures since the last success, which set the backoff.
    public var failures: Int
    /// No new attempt before this instant, whatever the tick.
    public var retryAt: Date?
    /// The process running it while `running` (see `RunnerIdentity`).
    public var runner: String?
    /// Whether the run in progress, or the interrupted one, was forced: its redo is forced too.
    public var forcedRun: Bool
    /// The mode of the run in progress, or of the interrupted one (an interrupted full run may be resumed).
    public var runMode: SyncMode?
    /// When the last successful incremental run finished.
    public var lastIncrementalAt: Date?
    /// When the state handed to the next incremental run was committed (its age); `nil` when there is none.
    public var syncStateAt: Date?
    /// Until when this unit needs no decision, as the pass that last settled it found (its next due instant), under
    /// the configuration whose signature is `settledUnder` (``PassSettlement``); `nil`: the next pass decides it.
    /// Every change of the state but a pass's settling clears it.
    public var settledUntil: Date?
    /// The signature of the configuration `settledUntil` was found under.
    public var settledUnder: String?

    public init(unit: String, source: String, domain: String) {
        self.unit = unit
        self.source = source
        self.domain = domain
        self.failures = 0
        self.forcedRun = false
    }

    /// The error shown for a run whose process stopped before its final commit.
    public static let interruptedError = "the run stopped before its final commit (process killed or shut down); it is redone at the next pass"

    /// This state as a reader sees it now: a `running` unit whose process is gone is `interrupted` (the next pass
    /// marks it so and redoes it).
    public var asSeenNow: UnitState {
        asSeenNow(runIsAlive: runner.map(RunnerIdentity.isAlive) ?? false)
    }

    /// This state as a reader sees it now, given whether the run still holds what proves it alive: its process on
    /// this host, or on a shared store its lease.
    public func asSeenNow(runIsAlive alive: Bool) -> UnitState {
        guard lastResult == .running, !alive else { return self }
        var seen = self
        seen.lastResult = .interrupted
        seen.lastError = Self.interruptedError
        seen.runner = nil
        return seen
    }
}
