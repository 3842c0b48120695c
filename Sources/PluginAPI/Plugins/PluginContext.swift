public import Foundation
public import Logging

/// What a plugin knows about the unit it indexes.
public struct PluginContext: Sendable {
    /// The source's name in the config, such as `categories`.
    public var source: String
    /// The partition this unit covers, such as `fr`, or `nil` for an unpartitioned source.
    public var partition: String?
    /// The domain every item of this unit must carry, such as `com.shop.categories.fr`.
    public var domain: String
    /// The deep-link template of the source (`shop://category/{id}`), if it has one.
    public var deepLink: String?
    /// The configuration folder: relative paths in options are resolved against it.
    public var baseDirectory: String
    public var logger: Logger
    /// Where to report content that was skipped.
    public var rejections: RejectionLog
    /// Where a plugin that starts programs records their process groups (see ``SpawnedProcess``).
    public var processes: ProcessLedger
    /// The instant the run started: what "now" means to the plugin (a post dated later is in the future), from the
    /// scheduler's clock, so `run-once --at` and tests control it.
    public var now: Date
    /// The kind of run asked: ``SyncMode/full`` unless the plugin supports others (``SourcePlugin/sync``).
    public var mode: SyncMode
    /// The state to go on from: the last one the unit's last successful run committed (incremental), or the last one
    /// the interrupted run committed (resume); `nil` for a full run.
    public var state: SyncState?

    public init(
        source: String, partition: String?, domain: String, deepLink: String?, baseDirectory: String, logger: Logger,
        rejections: RejectionLog? = nil, processes: ProcessLedger = ProcessLedger(path: nil), now: Date = Date(),
        mode: SyncMode = .full, state: SyncState? = nil
    ) {
        self.now = now
        self.mode = mode
        self.state = state
        self.processes = processes
        self.source = source
        self.partition = partition
        self.domain = domain
        self.deepLink = deepLink
        self.baseDirectory = baseDirectory
        self.logger = logger
        self.rejections = rejections ?? RejectionLog(logger: logger)
    }

    /// `path` resolved against ``baseDirectory`` when it is relative.
    public func resolve(path: String) -> String {
        ConfigPathRule.absolute(path, relativeTo: baseDirectory)
    }

    /// The unit's key: the source, or `source/partition`.
    public var unit: String { partition.map { "\(source)/\($0)" } ?? source }

    /// The deep link of the item `identifier`: the template with `{id}` replaced, or `nil` without a template.
    public func contentURL(for identifier: String) -> String? {
        guard let deepLink else { return nil }
        let escaped = identifier.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? identifier
        return deepLink.replacingOccurrences(of: "{id}", with: escaped)
    }
}
