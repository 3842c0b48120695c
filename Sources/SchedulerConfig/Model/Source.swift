public import Foundation
public import PluginAPI
import YAML

/// A source of content in `scheduler.yaml`: which plugin produces it, into which domain, under which gate.
public struct Source: Sendable {
    /// The name in the config, used in unit keys (`categories/fr`) and commands.
    public var name: String
    /// The plugin kind, from the registry.
    public var plugin: String
    /// The domain of its items; a partition's items go to `domain.partition`.
    public var domain: String
    /// The gate that must be on for a unit of this source to run.
    public var gate: String
    /// The source's own settings, which experiment variants may override.
    public var settings: SourceSettings
    /// One unit per partition; an empty list means the source is one unit.
    public var partitions: [String]

    /// The units this source covers.
    public var units: [Unit] {
        partitions.isEmpty
            ? [Unit(source: name, partition: nil, domain: domain)]
            : partitions.map { Unit(source: name, partition: $0, domain: "\(domain).\($0)") }
    }
}

/// The settings of a source that experiment variants may override.
public struct SourceSettings: Sendable {
    /// When a full run is due (mark and sweep).
    public var schedule: Schedule
    /// When an incremental run is due between full ones; none when `nil`.
    public var incremental: Schedule?
    /// The zone whose wall-clock time the schedule is written in (`timeZone`, else `defaults.timeZone`, else UTC).
    public var timeZone: TimeZone
    /// How long items without their own date stay in the index; the default expiration if unset.
    public var expiration: Duration?
    /// The deep-link template, with `{id}` replaced by each item's identifier.
    public var deepLink: String?
    /// The largest share of the domain one run may delete; the default if unset.
    public var maxDeleteRatio: Double?
    /// The guard compares a run with the largest successful run within this window; the default if unset.
    public var maxDeleteWindow: Duration?
    /// How late a scheduled run may start: later, it is skipped and counted as missed (``MissedRuns``); `nil`: however
    /// late, one catch-up run. Resolved when the config loads from `startingDeadline`, `missedRuns` and `defaults`.
    public var startingDeadline: Duration?
    /// Spreads the due instants of the source's units over this long (`jitter`): each unit's moved by an offset of
    /// its own (``UnitPlan/jitter``), so units sharing a schedule do not all start at once; `nil` for none.
    public var jitter: Duration?
    /// How long a purge that turning the gate off caused can be undone by turning it on again (`purgeGrace`, else
    /// `defaults.purgeGrace`); zero: the purge is final at once.
    public var purgeGrace: Duration
    /// The plugin's own options, as written.
    var options: YAMLNode
    /// The plugin, made from those options as decoded and validated when the config loaded.
    var maker: PluginMaker

    init(
        schedule: Schedule, incremental: Schedule? = nil, timeZone: TimeZone, expiration: Duration?, deepLink: String?, maxDeleteRatio: Double?,
        maxDeleteWindow: Duration?, startingDeadline: Duration? = nil, jitter: Duration? = nil, purgeGrace: Duration, options: YAMLNode,
        maker: PluginMaker
    ) {
        self.purgeGrace = purgeGrace
        self.startingDeadline = startingDeadline
        self.jitter = jitter
        self.incremental = incremental
        self.maker = maker
        self.maxDeleteWindow = maxDeleteWindow
        self.schedule = schedule
        self.timeZone = timeZone
        self.expiration = expiration
        self.deepLink = deepLink
        self.maxDeleteRatio = maxDeleteRatio
        self.options = options
    }
}

extension SourceSettings {
    /// When a unit with these settings whose last success was at `lastSuccess` is due again.
    /// The runs the source's plugin does besides full ones.
    public var sync: SyncSupport { maker.sync }

    public func nextDue(after lastSuccess: Date) -> Date {
        schedule.nextDue(after: lastSuccess, in: timeZone)
    }

    /// When an incremental run is next due after the last successful run of either kind, `lastRun`; `nil` without an
    /// incremental schedule.
    public func nextIncremental(after lastRun: Date) -> Date? {
        incremental?.nextDue(after: lastRun, in: timeZone)
    }
}

/// One unit of work: a source, or one partition of it.
public struct Unit: Sendable, Hashable, Comparable {
    public var source: String
    public var partition: String?
    /// The domain this unit's items live in.
    public var domain: String

    public init(source: String, partition: String?, domain: String) {
        self.source = source
        self.partition = partition
        self.domain = domain
    }

    /// `source` or `source/partition`: the key gates and experiments hash.
    public var key: String { partition.map { "\(source)/\($0)" } ?? source }

    public static func < (lhs: Unit, rhs: Unit) -> Bool { lhs.key < rhs.key }
}
