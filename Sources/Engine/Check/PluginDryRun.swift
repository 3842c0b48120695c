import Foundation
public import HostSupport
import Indexing
public import Logging
public import PluginAPI
public import SchedulerConfig

/// `scheduler plugins check`: a unit's plugin asked to test itself (``SourcePlugin/check()``), then read for its first
/// items, admitted as a run admits them, without writing anything: what a run would index and reject.
public struct PluginDryRun: Sendable {
    /// What the check found.
    public struct Report: Sendable, Encodable {
        public var unit: String
        /// The plugin's answer to its own test; `nil` when it has none.
        public var check: PluginCheck?
        /// The items read, as a run would write them, at most as many as asked.
        public var items: [SearchableItem]
        /// Deletions and states sent before the read stopped.
        public var deletions: Int
        public var states: Int
        /// What a run would reject, and why (the first ones).
        public var rejections: [Rejection]
        /// Why reading failed, when it did.
        public var error: String?
        /// Whether the plugin had more to send when the read stopped.
        public var stoppedEarly: Bool

        /// One item or line a run would reject.
        public struct Rejection: Sendable, Encodable {
            public var what: String
            public var reason: String
        }

        /// Whether a run would go through: the plugin's test passed (or it has none), nothing rejected, no error.
        public var passes: Bool { check?.ok != false && rejections.isEmpty && error == nil }
    }

    let configuration: SchedulerConfiguration
    let processes: ProcessLedger
    let clock: any WallClock
    let logger: Logger

    public init(configuration: SchedulerConfiguration, processes: ProcessLedger, clock: any WallClock, logger: Logger) {
        self.configuration = configuration
        self.processes = processes
        self.clock = clock
        self.logger = logger
    }

    /// Tests `plan`'s plugin, then reads up to `limit` items from it.
    public func run(_ plan: UnitPlan, limit: Int) async -> Report {
        let rejections = RejectionLog(logger: logger)
        let context = PluginContext(
            source: plan.unit.source, partition: plan.unit.partition, domain: plan.unit.domain, deepLink: plan.settings.deepLink,
            baseDirectory: configuration.directory, logger: logger, rejections: rejections, processes: processes, now: clock.now()
        )
        let expiration = TimeInterval((plan.settings.expiration ?? configuration.scheduler.defaultExpiration).components.seconds)
        var report = Report(unit: plan.unit.key, items: [], deletions: 0, states: 0, rejections: [], stoppedEarly: false)
        var sink = Sink(admission: ItemAdmission(plan: plan, context: context, expiration: DefaultExpiration(lifetime: expiration, from: clock.now())), limit: limit)
        do {
            let plugin = try plan.makePlugin(context: context)
            report.check = try await plugin.check()
            try await plugin.produce(into: &sink)
        } catch is Sink.Enough {
            report.stoppedEarly = true
        } catch {
            report.error = "\(error)"
        }
        report.items = sink.items
        report.deletions = sink.deletions
        report.states = sink.states
        report.rejections = rejections.examples.map { Report.Rejection(what: $0.what, reason: $0.reason) }
        return report
    }

    /// Keeps what a run would write, up to `limit` items, then stops the plugin.
    private struct Sink: ItemSink {
        struct Enough: Error {}

        let admission: ItemAdmission
        let limit: Int
        var items: [SearchableItem] = []
        var deletions = 0
        var states = 0

        mutating func send(_ item: SearchableItem) async throws {
            if var admitted = admission.admit(item) {
                // As a new item would be stored: with the source's expiration when it carries none.
                admitted.expirationDate = admission.expiration.expiration(of: admitted)
                items.append(admitted)
            }
            if items.count >= limit { throw Enough() }
        }

        mutating func delete(identifier: String) async throws {
            if admission.admitDeletion(identifier) { deletions += 1 }
        }

        mutating func send(state: SyncState) async throws {
            states += 1
        }
    }
}
