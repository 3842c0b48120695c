import Engine
import Foundation
import HostSupport
import Indexing
import Logging
import MemoryStore
import PluginAPI
import SchedulerConfig
import SchedulerService
import ServiceLifecycle
import Store
import StoreSupport
import Synchronization

/// A plugin for engine tests that reads its items from a text file the test rewrites between passes: one
/// identifier per line; a line `FAIL` makes it fail there, `HANG` makes it wait until cancelled, `WAIT` until a file
/// `release` is beside the feed; `outside:ID` produces an item in a domain outside the unit's, `sub:ID` one in the
/// domain `sub` under the unit's.
struct LinesTestPlugin: SourcePlugin {
    struct Options: Decodable, Sendable { var feed: String }
    struct FeedFailure: Error, CustomStringConvertible { var description: String { "the feed said FAIL" } }

    static let kind = "test-lines"
    static let summary = "Items from a text file, for tests."
    static let options = [PluginOption("feed", "the file; {partition} is replaced", required: true)]

    let path: String
    let context: PluginContext

    init(options: Options, context: PluginContext) throws {
        path = context.resolve(path: options.feed.replacingOccurrences(of: "{partition}", with: context.partition ?? ""))
        self.context = context
    }

    func produce(into sink: inout some ItemSink) async throws {
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init) {
            switch line {
            case "FAIL":
                throw FeedFailure()
            case "HANG":
                while true { try await Task.sleep(for: .milliseconds(5)) }
            case "WAIT":
                let release = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("release").path
                while !FileManager.default.fileExists(atPath: release) { try await Task.sleep(for: .milliseconds(5)) }
            case let line where line.hasPrefix("sub:"):
                let id = String(line.dropFirst(4))
                try await sink.send(SearchableItem(uniqueIdentifier: id, domainIdentifier: context.domain + ".sub", title: "Article \(id)"))
            default:
                let outside = line.hasPrefix("outside:")
                let id = outside ? String(line.dropFirst(8)) : line
                try await sink.send(SearchableItem(uniqueIdentifier: id, domainIdentifier: outside ? "org.elsewhere" : context.domain, title: "Article \(id)"))
            }
        }
    }
}

/// A temporary config folder and database driven through the real pass, with time under the test's control.
/// (Unchecked: one test drives it, at most from one task at a time.)
final class EngineFixture: @unchecked Sendable {
    static let start = ISO8601.date(from: "2026-01-31T10:00:00Z")!

    let url: URL
    /// The store the config names: an SQLite file in the folder, a fresh PostgreSQL database, or `nil` for the
    /// memory twin, kept from pass to pass in `memory`.
    let store: StoreLocation?
    private var memory: MemoryStore?
    /// The memory twin's clock, set to each pass's date.
    private let memoryClock = SettableClock()
    var schedule = "monthly"
    var deepLink = "app://article/{id}"
    var partitions: String?
    var maxDeleteRatio = "0.5"
    var historyLength = 1000
    /// The source's plugin kind: `test-lines`, or `test-stateful` for incremental and resumed runs.
    var plugin = LinesTestPlugin.kind
    /// The source's `incremental:` schedule, if any.
    var incremental: String?
    /// More keys of the source, each `key: value`.
    var sourceLines: [String] = []

    /// A fixture whose store is a new, empty one of `backend`.
    init(_ backend: StoreBackend) async throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("engine-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        store = backend == .memory ? nil : try await backend.freshLocation(in: url)
        try setGate(on: true)
        try writeScheduler()
    }

    deinit { try? FileManager.default.removeItem(at: url) }


    func write(_ name: String, _ text: String) throws {
        try text.write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    /// Rewrites scheduler.yaml from the fixture's settings.
    func writeScheduler() throws {
        try write("scheduler.yaml", """
            store: { \(storeLine), history: \(historyLength) }
            defaults: { expiration: 30d, maxDeleteRatio: \(maxDeleteRatio) }
            sources:
              articles:
                plugin: \(plugin)
                domain: com.example.articles
                gate: articles_gate
                schedule: \(schedule)
                \(incremental.map { "incremental: \($0)" } ?? "")
                \(partitions.map { "partitions: \($0)" } ?? "")
                \(sourceLines.joined(separator: "\n    "))
                deepLink: "\(deepLink)"
                options: { feed: "feed{partition}.txt" }
            """)
    }

    /// The store as scheduler.yaml names it.
    private var storeLine: String {
        switch store {
        case .sqlite, nil: "sqlite: { path: index.sqlite }"
        case .postgres(let location): "postgres: { url: \"\(location)\", tls: disable }"
        }
    }

    func setGate(on: Bool) throws {
        try write("gates.yaml", "gates:\n  articles_gate: { enabled: \(on) }\n")
    }

    /// What the plugin produces next, for the unpartitioned source or one partition.
    func setFeed(_ lines: [String], partition: String = "") throws {
        try write("feed\(partition).txt", lines.joined(separator: "\n") + "\n")
    }

    func load() throws(InvalidConfiguration) -> SchedulerConfiguration {
        try ConfigLoader(directory: url.path, registry: PluginRegistry([LinesTestPlugin.self, StatefulTestPlugin.self])).load()
    }

    /// Opens the store as the command line does, at `date`, for the duration of `body`.
    @discardableResult
    func withStore<Result: Sendable>(
        at date: Date = EngineFixture.start, _ body: @escaping @Sendable (any SchedulerStore) async throws -> Result
    ) async throws -> Result {
        guard let store else {
            memoryClock.set(date)
            let twin = memory ?? MemoryStore(historyLength: historyLength, clock: memoryClock)
            memory = twin
            return try await body(twin)
        }
        return try await StoreOpener.withStore(
            store, timeToLive: StoreDefaults.timeToLive, historyLength: historyLength, clock: FixedWallClock(date), logger: Logger.quiet, body
        )
    }

    /// One pass as `scheduler run-once --at date` runs it: the config read afresh, the store reopened, stopped at a
    /// batch boundary by a graceful shutdown of the service group it runs in (if any).
    @discardableResult
    func pass(at date: Date, _ options: ReconcilePass.Options = .init(), random: Double = 0.5) async throws -> [UnitOutcome] {
        try await execute(at: date, options, random: random).outcomes
    }

    /// One pass as ``pass(at:_:random:)`` runs it, with how many units it left settled.
    @discardableResult
    func execute(at date: Date, _ options: ReconcilePass.Options = .init(), random: Double = 0.5) async throws -> PassResult {
        let configuration = try load()
        let processes = ProcessLedger(path: url.appendingPathComponent("index.sqlite.plugins").path)
        return try await withStore(at: date) { store in
            let pass = ReconcilePass(
                configuration: configuration, store: store, processes: processes,
                clock: FixedWallClock(date), logger: Logger.quiet, random: { random }
            )
            return try await cancelWhenGracefulShutdown { try await pass.execute(options) }
        }
    }

    /// The identifiers indexed in `domain`, sorted.
    func identifiers(in domain: String = "com.example.articles") async throws -> [String] {
        let results = try await withStore { try await $0.index.search(SearchQuery(text: "article", domain: domain, limit: 1000)) }
        return results.hits.map(\.uniqueIdentifier).sorted()
    }

    /// The runs of the stateful plugin so far: each one's mode and the state it was handed (`-` for none).
    func runs(partition: String = "") throws -> [String] {
        ((try? String(contentsOf: url.appendingPathComponent("runs\(partition).txt"), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func unitState(_ unit: String = "articles") async throws -> UnitState? {
        try await withStore { try await $0.units()[unit] }
    }
}

extension Date {
    /// This instant moved by `seconds`.
    func plus(seconds: Double) -> Date { addingTimeInterval(seconds) }
    func plus(days: Int) -> Date { addingTimeInterval(Double(days) * 86_400) }
}

extension Logger {
    /// A logger that drops everything: the tests assert on outcomes, not on log lines.
    static let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
}

/// Work run once as a service, so a test can stop it the way the service and the commands are stopped: by a
/// graceful shutdown of its group.
struct WorkService: Service {
    let work: @Sendable () async throws -> Void
    init(_ work: @escaping @Sendable () async throws -> Void) { self.work = work }
    func run() async throws { try await work() }
}

/// A plugin for the tests of incremental and resumed runs, reading its feed file as ``LinesTestPlugin`` does, plus:
/// `delete:ID` deletes an item, `state` sends as state the number of lines read so far, `FAIL` fails there. A
/// resumed run skips the lines its state counts. Each run appends `mode state` (the state it was handed, `-` for
/// none) to `runs{partition}.txt`, for the test to read.
struct StatefulTestPlugin: SourcePlugin {
    struct Options: Decodable, Sendable { var feed: String }

    static let kind = "test-stateful"
    static let summary = "Items, deletions and states from a text file, for tests."
    static let options = [PluginOption("feed", "the file; {partition} is replaced", required: true)]
    static let sync: SyncSupport = [.incremental, .resume]

    let path: String
    let context: PluginContext

    init(options: Options, context: PluginContext) throws {
        path = context.resolve(path: options.feed.replacingOccurrences(of: "{partition}", with: context.partition ?? ""))
        self.context = context
    }

    func produce(into sink: inout some ItemSink) async throws {
        let handed = try context.state.map { try $0.decode(as: Int.self) }
        let log = context.resolve(path: "runs\(context.partition ?? "").txt")
        let previous = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        try (previous + "\(context.mode.rawValue) \(handed.map(String.init) ?? "-")\n").write(toFile: log, atomically: true, encoding: .utf8)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        let skipped = context.mode == .resume ? handed ?? 0 : 0
        for (index, line) in lines.enumerated().dropFirst(skipped) {
            switch line {
            case "FAIL": throw LinesTestPlugin.FeedFailure()
            case "HANG": while true { try await Task.sleep(for: .milliseconds(5)) }
            case "state": try await sink.send(state: SyncState(encoding: index + 1))
            case _ where line.hasPrefix("delete:"): try await sink.delete(identifier: String(line.dropFirst(7)))
            default: try await sink.send(SearchableItem(uniqueIdentifier: line, domainIdentifier: context.domain, title: "Article \(line)"))
            }
        }
    }
}

/// Whether `condition` holds within a minute, checked every 25 ms: for what another task does meanwhile.
func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
    for _ in 0..<2400 {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(25))
    }
    return false
}

extension EngineFixture {
    /// One pass as the service's tick runs it: units settled under the same configuration are not decided again.
    func tick(at date: Date, _ tweak: (inout ReconcilePass.Options) -> Void = { _ in }) async throws -> PassResult {
        var options = ReconcilePass.Options()
        options.skipsSettledUnits = true
        tweak(&options)
        return try await execute(at: date, options)
    }
}
