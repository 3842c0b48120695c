import CategoryFeedPlugin
import CommandPlugin
import PostsPlugin
import SchedulerConfig
import Foundation
import PluginAPI
import Testing

@Suite("Loading the configuration")
struct LoadingTests {
    @Test func aValidFolderLoadsEverything() throws {
        let config = try ConfigFolder().load()
        #expect(config.scheduler.environment == "production")
        #expect(config.scheduler.localFilesPath.hasSuffix("/var/index.sqlite"))
        #expect(!config.scheduler.localFilesPath.contains(".."))
        #expect(config.scheduler.tick == .seconds(60))
        #expect(config.scheduler.listen.description == "127.0.0.1:8080")
        #expect(config.units.map(\.key) == ["categories/us", "categories/fr"])
        #expect(config.units.map(\.domain) == ["com.shop.categories.us", "com.shop.categories.fr"])
        #expect(config.gates["spotlight_index"]?.rules?.environments == ["production"])
        #expect(config.experiments.first?.variants.map(\.name) == ["control", "weekly"])
    }

    @Test func theExampleConfigInTheRepositoryIsValid() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let loader = ConfigLoader(directory: repository.appendingPathComponent("config").path, registry: ExamplePlugins.registry)
        #expect(throws: Never.self) { try loader.load() }
    }

    @Test func experimentsAreOptional() throws {
        #expect(try ConfigFolder(experiments: nil).load().experiments.isEmpty)
    }

    /// One broken file per case: each must name the file and, where the YAML has one, the line and column.
    static let brokenFiles: [(file: String, text: String, location: String, message: String)] = [
        ("gates.yaml", "gates:\n  spotlight_index: { enabled: true\n", "gates.yaml:3:1", "YAML syntax"),
        ("gates.yaml", "gates:\n  spotlight_index:\n    enabled: true\n    enabled: false\n", "gates.yaml:4:5", "duplicate key 'enabled'"),
        ("gates.yaml", "gates:\n  spotlight_index:\n    enabeld: true\n", "gates.yaml:3:5", "unknown key 'enabeld' in gate 'spotlight_index' (did you mean 'enabled'?)"),
        ("gates.yaml", "gates:\n  spotlight_index:\n    enabled: maybe\n", "gates.yaml:3:14", "enabled must be true or false"),
        ("gates.yaml", "gates:\n  spotlight_index:\n    enabled: true\n    rollout: 150\n", "gates.yaml:4:14", "rollout must be between 0 and 100 (got 150)"),
        ("gates.yaml", "gates:\n  spotlight_index:\n    enabled: true\n    rollout: 12.345\n", "gates.yaml:4:14", "at most two decimals"),
        ("gates.yaml", "gates:\n  spotlight_index:\n    enabled: true\n    from: tomorrow\n", "gates.yaml:4:11", "ISO 8601"),
        ("gates.yaml", "gates:\n  spotlight_index:\n    enabled: true\n    from: 2027-01-01T00:00:00Z\n    until: 2026-01-01T00:00:00Z\n", "gates.yaml:5:12", "'until' must be after 'from'"),
        ("gates.yaml", "gates:\n  spotlight_index:\n    enabled: true\n    environments: []\n", "gates.yaml:4:19", "environments must not be empty"),
        ("gates.yaml", "gates:\n  spotlight_index:\n    enabled: true\n    environments: [prod]\n", "gates.yaml:4:20", "gate 'spotlight_index': unknown environment 'prod' (did you mean 'production'?); the environments are production"),
        ("scheduler.yaml", ConfigFolder.scheduler.replacingOccurrences(of: "environment: production", with: "environment: production\nenvironments: staging"), "scheduler.yaml:2:15", "environments must be a list"),
        ("scheduler.yaml", ConfigFolder.scheduler.replacingOccurrences(of: "sources:", with: "search: { access: key }\nsources:"), "scheduler.yaml:6:19", "search.access must be public"),
        ("scheduler.yaml", ConfigFolder.scheduler.replacingOccurrences(of: "sources:", with: "search: { acess: keys }\nsources:"), "scheduler.yaml:6:11", "acess"),
        ("scheduler.yaml", ConfigFolder.scheduler.replacingOccurrences(of: "sources:", with: "search: { rateLimit: { perUser: 0 } }\nsources:"), "scheduler.yaml:6:33", "search.rateLimit.perUser"),
        ("gates.yaml", "", "gates.yaml", "an empty gates file is not 'all gates off'"),
        ("gates.yaml", "gates: {}\n", "gates.yaml:1:8", "an empty list is not 'all gates off'"),
        ("scheduler.yaml", ConfigFolder.scheduler.replacingOccurrences(of: "tick: 60s", with: "tick: 5 minutes"), "scheduler.yaml:4:18", "'5 minutes' is not a duration"),
        ("scheduler.yaml", ConfigFolder.scheduler.replacingOccurrences(of: "schedule: monthly", with: "schedule: cron \"61 * * * *\""), "scheduler.yaml:11:15", "minute field '61': 61 is out of range; values are 0–59"),
        ("scheduler.yaml", ConfigFolder.scheduler.replacingOccurrences(of: "schedule: monthly", with: "schedule: cron \"0 3 1 *\""), "scheduler.yaml:11:15", "a cron expression has 5 fields"),
        ("scheduler.yaml", ConfigFolder.scheduler.replacingOccurrences(of: "schedule: monthly", with: "schedule: fortnightly"), "scheduler.yaml:11:15", "is not a schedule"),
        ("scheduler.yaml", ConfigFolder.scheduler.replacingOccurrences(of: "gate: spotlight_index", with: "gate: spotlight_idx"), "scheduler.yaml:10:11", "gate 'spotlight_idx' is not defined in gates.yaml (did you mean 'spotlight_index'?)"),
        ("scheduler.yaml", ConfigFolder.scheduler.replacingOccurrences(of: "plugin: test-feed", with: "plugin: rss"), "scheduler.yaml:8:13", "unknown plugin 'rss'; known plugins: posts, test-feed"),
        ("scheduler.yaml", ConfigFolder.scheduler.replacingOccurrences(of: "    deepLink:", with: "    deeplink:"), "scheduler.yaml:14:5", "unknown key 'deeplink' in source 'categories' (did you mean 'deepLink'?)"),
        ("scheduler.yaml", ConfigFolder.scheduler.replacingOccurrences(of: "maxDeleteRatio: 0.3", with: "maxDeleteRatio: 30%"), "scheduler.yaml:15:21", "maxDeleteRatio must be a number"),
        ("scheduler.yaml", ConfigFolder.scheduler.replacingOccurrences(of: "domain: com.shop.categories", with: "domain: com..shop"), "scheduler.yaml:9:13", "is not a domain identifier"),
        ("scheduler.yaml", ConfigFolder.scheduler.replacingOccurrences(of: "partitions: [us, fr]", with: "partitions: [us, fr.be]"), "scheduler.yaml:12:17", "partition 'fr.be'"),
        ("scheduler.yaml", ConfigFolder.scheduler.replacingOccurrences(of: "deepLink: \"shop://category/{id}\"", with: "deepLink: \"shop://category\""), "scheduler.yaml:14:15", "must be an absolute URL template with {id}"),
        ("scheduler.yaml", ConfigFolder.scheduler.replacingOccurrences(of: "options: { feed:", with: "options: { thumbnail: none, feed:"), "scheduler.yaml:16:16", "unknown key 'thumbnail' in the options of source 'categories' (did you mean 'thumbnails'?)"),
        ("scheduler.yaml", ConfigFolder.scheduler.replacingOccurrences(of: "options: { feed: \"https://api.example.com/{partition}/categories.json\" }", with: "options: { thumbnails: none }"), "scheduler.yaml:16:14", "needs the option 'feed'"),
        ("scheduler.yaml", ConfigFolder.scheduler.replacingOccurrences(of: "feed: \"https://", with: "feed: \"ftp://"), "scheduler.yaml:16:22", "option 'feed': must be a URL or an absolute path"),
        ("scheduler.yaml", ConfigFolder.scheduler + "\n  shop:\n    plugin: test-feed\n    domain: com.shop\n    gate: spotlight_index\n    schedule: daily\n    options: { feed: /data/feed.json }\n", "scheduler.yaml:19:13", "overlaps source 'categories''s domain"),
        ("scheduler.yaml", ConfigFolder.scheduler + "\n  docs:\n    plugin: posts\n    domain: org.docs\n    gate: spotlight_index\n    schedule: daily\n    options: { directory: docs, versions: { folders: \"docs/{version}\", current: v1 } }\n", "scheduler.yaml:22:45", "option 'versions.folders': unknown option (did you mean 'folder'?); versions takes folder and current"),
        ("scheduler.yaml", ConfigFolder.scheduler.replacingOccurrences(of: "environment: production", with: "enviroment: production"), "scheduler.yaml:1:1", "unknown key 'enviroment' in scheduler.yaml (did you mean 'environment'?)"),
        ("scheduler.yaml", ConfigFolder.scheduler.replacingOccurrences(of: "listen: 127.0.0.1:8080", with: "listen: localhost"), "scheduler.yaml:4:31", "must be host:port"),
        ("experiments.yaml", ConfigFolder.experiments.replacingOccurrences(of: "sources: [categories]", with: "sources: [categorie]"), "experiments.yaml:3:14", "source 'categorie' is not defined in scheduler.yaml (did you mean 'categories'?)"),
        ("experiments.yaml", ConfigFolder.experiments.replacingOccurrences(of: "weight: 50 }\n", with: "weight: 0 }\n").replacingOccurrences(of: "weight: 50,", with: "weight: 0,"), "experiments.yaml:6:7", "weights must add up to more than 0"),
        ("experiments.yaml", ConfigFolder.experiments.replacingOccurrences(of: "schedule: weekly", with: "domain: com.other"), "experiments.yaml:7:43", "'domain' cannot be overridden"),
        ("experiments.yaml", ConfigFolder.experiments.replacingOccurrences(of: "schedule: weekly", with: "schedul: weekly"), "experiments.yaml:7:43", "unknown override 'schedul' (did you mean 'schedule'?)"),
        ("experiments.yaml", ConfigFolder.experiments.replacingOccurrences(of: "options.thumbnails: none", with: "options.thumbnail: none"), "experiments.yaml:7:61", "unknown key 'thumbnail'"),
        ("experiments.yaml", ConfigFolder.experiments.replacingOccurrences(of: "{ weight: 50 }", with: "{ weight: -5 }"), "experiments.yaml:6:26", "weight must be between 0 and 1000000"),
    ]

    @Test(arguments: brokenFiles)
    func aBrokenFileIsReportedWithItsLocation(file: String, text: String, location: String, message: String) throws {
        let folder = try ConfigFolder()
        try folder.write(file, text)
        let problems = folder.problems()
        #expect(problems.contains { $0.description.hasPrefix(location + ":") && $0.description.contains(message) }, "\(problems)")
    }

    @Test func aMissingGatesFileIsAnErrorNotAllGatesOff() throws {
        let problems = try ConfigFolder(gates: nil).problems()
        #expect(problems.count == 1, "references to gates are not reported on top of the missing file: \(problems)")
        #expect(problems.first?.file == "gates.yaml")
        #expect(problems.first?.message.contains("must hold gates.yaml") == true)
    }

    @Test func everyProblemIsReportedNotJustTheFirst() throws {
        let folder = try ConfigFolder()
        try folder.write("gates.yaml", "gates:\n  spotlight_index:\n    enabeld: true\n    rollout: 150\n    from: tomorrow\n")
        #expect(folder.problems().count == 4)
    }

    @Test func anAliasBombIsRefused() throws {
        let levels = ["a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]"]
            + zip("bcdefghij", "abcdefghi").map { "\($0): &\($0) [" + Array(repeating: "*\($1)", count: 9).joined(separator: ",") + "]" }
        let folder = try ConfigFolder()
        try folder.write("gates.yaml", levels.joined(separator: "\n"))
        let problems = folder.problems()
        #expect(problems.contains { $0.file == "gates.yaml" && $0.message.contains("makes the document expand to more than 2000000 values") })
    }

    @Test func aQuotedKeyWithANewlineStaysOnOneLine() throws {
        let folder = try ConfigFolder()
        try folder.write("gates.yaml", "gates:\n  spotlight_index:\n    \"enab\\nled\": true\n")
        let problem = try #require(folder.problems().first { $0.file == "gates.yaml" })
        #expect(problem.description == "gates.yaml:3:5: unknown key 'enab\\u{a}led' in gate 'spotlight_index' (did you mean 'enabled'?)", "\(problem)")
    }

    @Test func anAliasOfAListUsedAsAKeyIsRefused() throws {
        let folder = try ConfigFolder()
        try folder.write("gates.yaml", "a: &a [x, x]\nb:\n  *a : 1\n")
        #expect(folder.problems().contains { $0.description.hasPrefix("gates.yaml:3:3:") && $0.message.contains("a mapping key must be a plain name") })
    }

    /// A fleet's config: 100,000 partitions of one source in one list (3.6 MB) load, each a unit, and a repeated one
    /// is still named (the check was quadratic: minutes at this size).
    @Test func aHundredThousandPartitionsLoad() throws {
        let partitions = (0..<100_000).map { "locale-\($0 % 40)-category-\($0)" }
        let folder = try ConfigFolder(scheduler: ConfigFolder.scheduler.replacingOccurrences(
            of: "partitions: [us, fr]", with: "partitions: [\(partitions.joined(separator: ", "))]"
        ))
        let configuration = try folder.load()
        #expect(configuration.units.count == 100_000)
        #expect(configuration.units.last?.partition == "locale-39-category-99999")

        try folder.write("scheduler.yaml", ConfigFolder.scheduler.replacingOccurrences(
            of: "partitions: [us, fr]", with: "partitions: [\((partitions + ["locale-1-category-1"]).joined(separator: ", "))]"
        ))
        #expect(folder.problems().map(\.message) == ["'locale-1-category-1' appears twice in source 'categories': partitions"])
    }

    @Test func aFileOverTheSizeLimitIsRefused() throws {
        let folder = try ConfigFolder()
        try folder.write("experiments.yaml", "# " + String(repeating: "x", count: 32 << 20) + "\n")
        #expect(folder.problems().contains { $0.file == "experiments.yaml" && $0.message.contains("over the limit") })
    }
}

/// The plugins the example config uses.
enum ExamplePlugins {
    static let registry = PluginRegistry([CategoryFeedSource.self, CommandSource.self, PostsSource.self])
}
