import SchedulerConfig
import Foundation
import PluginAPI
import PostsPlugin

/// A plugin for configuration tests: a required `feed` and an optional `thumbnails` mode.
struct FeedTestPlugin: SourcePlugin {
    struct Options: Decodable, Sendable {
        enum Thumbnails: String, Decodable, Sendable { case required, optional, none }
        var feed: String
        var thumbnails: Thumbnails?
    }
    static let kind = "test-feed"
    static let summary = "A feed, for tests."
    static let options = [PluginOption("feed", "where the feed is", required: true), PluginOption("thumbnails", "required, optional or none")]

    static func validate(_ options: Options) throws(PluginOptionError) {
        guard options.feed.hasPrefix("http") || options.feed.hasPrefix("/") else {
            throw PluginOptionError(option: "feed", reason: "must be a URL or an absolute path")
        }
    }

    init(options: Options, context: PluginContext) throws {}
    func produce(into sink: inout some ItemSink) async throws {}
}

/// A temporary config folder holding a valid configuration, whose files a test replaces one at a time.
final class ConfigFolder {
    static let scheduler = """
        environment: production
        store:
          sqlite: { path: ../var/index.sqlite }
        service: { tick: 60s, listen: 127.0.0.1:8080 }
        defaults: { expiration: 30d, maxDeleteRatio: 0.5 }
        sources:
          categories:
            plugin: test-feed
            domain: com.shop.categories
            gate: spotlight_index
            schedule: monthly
            partitions: [us, fr]
            expiration: 45d
            deepLink: "shop://category/{id}"
            maxDeleteRatio: 0.3
            options: { feed: "https://api.example.com/{partition}/categories.json" }
        """
    static let gates = """
        gates:
          spotlight_index:
            enabled: true
            rollout: 100
            environments: [production]
        """
    static let experiments = """
        experiments:
          reindex_cadence:
            sources: [categories]
            salt: "2026-11"
            variants:
              control: { weight: 50 }
              weekly:  { weight: 50, overrides: { schedule: weekly, options.thumbnails: none } }
        """

    let url: URL

    init(scheduler: String = ConfigFolder.scheduler, gates: String? = ConfigFolder.gates, experiments: String? = ConfigFolder.experiments) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("config-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try write("scheduler.yaml", scheduler)
        if let gates { try write("gates.yaml", gates) }
        if let experiments { try write("experiments.yaml", experiments) }
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func write(_ name: String, _ text: String) throws {
        try text.write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    func load() throws(InvalidConfiguration) -> SchedulerConfiguration {
        try ConfigLoader(directory: url.path, registry: PluginRegistry([FeedTestPlugin.self, PostsSource.self])).load()
    }

    /// The problems loading reports; empty when the config is valid.
    func problems() -> [ConfigProblem] {
        do {
            _ = try load()
            return []
        } catch {
            return error.problems
        }
    }
}

extension Gate {
    /// The gate's own rules, `nil` for a gate a flag decides.
    var rules: GateRules? {
        if case .rules(let rules) = decider { rules } else { nil }
    }
}
