import Foundation
import Logging
import SQLiteStore

/// The command line of `scheduler-bench` (its usage is ``Benchmark``'s comment): a bad option prints the usage and
/// exits with status 2.
struct BenchmarkOptions {
    var sizes: [Int] = []
    var work = FileManager.default.temporaryDirectory.appendingPathComponent("scheduler-bench").path
    var scheduler = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("scheduler").path
    var passSizes: [Int] = []
    var postgres: String?
    var tickUnits: [Int]?
    var fleetServer: String?
    var fleet = FleetBenchmark.Settings()
    var json = false
    var goals: Int?
    var afterImport: Int?
    /// The `scheduler` of `--paired`'s second service (B), when it is another program.
    var against: String?
    /// The index B serves a copy of, when it is another one (`--against-database`): the same items stored otherwise.
    var againstDatabase: String?
    /// Whether `--paired` rewrites items in both copies while it loads them (`--writer`).
    var writer = false
    /// A measure that runs alone (one a run; the options around it, such as `--scheduler`, apply to it).
    var single: Single? {
        willSet { if single != nil { Self.fail("one measure at a time\n" + Self.usage) } }
    }

    /// The measures that run alone, on what their option names.
    enum Single {
        case decode(Int), generate(Int), http(String, rowCaches: [Int?]), paired(String, rowCaches: [Int?]), restart(String, once: Bool), postings(String, allFields: Bool), purge(String), relevance([String]), docsRelevance([String]), popularity(String), audience(String)
        /// Without the result cache: what a search costs, not what a repeated one does.
        case search(String)

        /// The existing SQLite index the measure reads.
        var index: String? {
            switch self {
            case .http(let database, _), .paired(let database, _), .restart(let database, _), .postings(let database, _), .purge(let database):
                database
            default: nil
            }
        }

        var isPaired: Bool {
            if case .paired = self { true } else { false }
        }

        func run(_ options: BenchmarkOptions) async throws {
            // A service on a path with no index would make an empty one and wait half an hour for its postings.
            if let index, !FileManager.default.fileExists(atPath: index) {
                throw BenchmarkError("there is no index at \(index): give an SQLite index a `scheduler index import` wrote")
            }
            switch self {
            case .decode(let n): try DecodeBenchmark.run(n: n, work: options.work)
            case .generate(let n):
                try Benchmark.generate(n: n, ndjson: "\(options.work)/items-\(n).ndjson", csv: "\(options.work)/items-\(n).csv")
                print("\(options.work)/items-\(n).ndjson, \(options.work)/items-\(n).csv")
            case .http(let database, let rowCaches):
                try await HTTPBenchmark.run(database: database, rowCaches: rowCaches, work: options.work, scheduler: options.scheduler)
            case .paired(let database, let rowCaches):
                guard rowCaches.count <= 2 else { fail("usage: scheduler-bench --paired DATABASE [--row-cache A,B] [--against PATH] [--against-database PATH]") }
                let sides = [
                    PairedBenchmark.Side(name: "A", scheduler: options.scheduler, database: database, rowCache: rowCaches[0]),
                    PairedBenchmark.Side(
                        name: "B", scheduler: options.against ?? options.scheduler, database: options.againstDatabase ?? database, rowCache: rowCaches.last!
                    ),
                ]
                try await PairedBenchmark.run(sides: sides, writer: options.writer, work: options.work)
            case .restart(let database, let once): try await RestartBenchmark.run(database: database, once: once, work: options.work, scheduler: options.scheduler)
            case .postings(let database, let allFields): try await PostingsBenchmark.run(database: database, allFields: allFields)
            case .purge(let database): try await PurgeBenchmark.measure(try SQLiteSearchIndex(path: database, logger: Logger(label: "bench")))
            case .relevance(let folders): try await RelevanceBenchmark.run(folders: folders, work: options.work)
            case .docsRelevance(let sites): try await DocsRelevanceBenchmark.run(sites: sites, work: options.work)
            case .popularity(let target): try await PopularityBenchmark.run(target: target)
            case .audience(let target): try await AudienceBenchmark.run(target: target, work: options.work, scheduler: options.scheduler)
            case .search(let target):
                if target.hasPrefix("postgres://") || target.hasPrefix("postgresql://") {
                    return try await PostgresBenchmark.measureSearch(url: target)
                }
                try await Benchmark.measureSearch(Benchmark.searchedIndex(target))
            }
        }
    }

    static let usage = "usage: scheduler-bench [N …] [--work DIR] [--scheduler PATH] [--postgres URL] | --goals N | --after-import N --postgres URL "
        + "| --pass N | --decode N | --generate N | --ticks [N] … | --http DATABASE [--row-cache MB,…] | --paired DATABASE [--row-cache A,B] [--against PATH] [--against-database PATH] [--writer] | --restart DATABASE [--once] | --postings DATABASE [--all-fields] | --purge DATABASE "
        + "| --relevance FOLDER … | --relevance-docs NAME=DIR[,site=FILE][,flavor=F] … | --search DATABASE|URL | --popularity DATABASE|URL | --audience DATABASE|N | --fleet URL"

    mutating func parse(_ arguments: ArraySlice<String>) {
        var arguments = arguments
        // Options may follow a measure too (`--http DATABASE --scheduler PATH`), but for `--relevance`'s folders, which
        // run to the end.
        while let argument = arguments.popFirst() {
            if !parseMeasure(argument, &arguments), !parseFleet(argument, &arguments) {
                guard let n = Int(argument), n > 0 else { Self.fail(Self.usage) }
                sizes.append(n)
            }
        }
        if against != nil || againstDatabase != nil, single?.isPaired != true {
            Self.fail("--against and --against-database name the second service of --paired and its index\n" + Self.usage)
        }
        if writer, single?.isPaired != true { Self.fail("--writer rewrites items beside --paired's load\n" + Self.usage) }
    }

    /// The options of the measures; false when `argument` is none of them.
    private mutating func parseMeasure(_ argument: String, _ arguments: inout ArraySlice<String>) -> Bool {
        switch argument {
        case "--work": work = arguments.popFirst() ?? work
        case "--scheduler": scheduler = arguments.popFirst() ?? scheduler
        case "--postgres": postgres = arguments.popFirst()
        case "--pass": passSizes.append(Self.count(argument, 1...100_000_000, &arguments))
        case "--decode": single = .decode(Self.count(argument, 1...100_000_000, &arguments))
        case "--generate": single = .generate(Self.count(argument, 1...100_000_000, &arguments))
        case "--ticks":
            tickUnits = tickUnits ?? []
            if arguments.first.flatMap(Int.init) != nil { tickUnits?.append(Self.count(argument, 1...1_000_000, &arguments)) }
        case "--goals": goals = Self.count(argument, 1...100_000_000, &arguments)
        case "--after-import": afterImport = Self.count(argument, 1...100_000_000, &arguments)
        case "--http": single = .http(arguments.popFirst() ?? "", rowCaches: Self.rowCaches(&arguments))
        case "--paired": single = .paired(arguments.popFirst() ?? "", rowCaches: Self.rowCaches(&arguments))
        case "--against":
            guard let path = arguments.popFirst(), !path.hasPrefix("--") else { Self.fail("usage: scheduler-bench --paired DATABASE --against PATH") }
            against = path
        case "--against-database":
            guard let path = arguments.popFirst(), !path.hasPrefix("--") else { Self.fail("usage: scheduler-bench --paired DATABASE --against-database PATH") }
            againstDatabase = path
        case "--writer": writer = true
        case "--restart": single = .restart(arguments.popFirst() ?? "", once: Self.flag("--once", &arguments))
        case "--postings": single = .postings(arguments.popFirst() ?? "", allFields: Self.flag("--all-fields", &arguments))
        case "--purge": single = .purge(arguments.popFirst() ?? "")
        case "--relevance": single = .relevance(Array(arguments.popAll()))
        case "--relevance-docs": single = .docsRelevance(Array(arguments.popAll()))
        case "--popularity": single = .popularity(arguments.popFirst() ?? "")
        case "--search": single = .search(arguments.popFirst() ?? "")
        case "--audience": single = .audience(arguments.popFirst() ?? "")
        default: return false
        }
        return true
    }

    /// The options of the fleet benchmark (``FleetBenchmark``); false when `argument` is none of them.
    private mutating func parseFleet(_ argument: String, _ arguments: inout ArraySlice<String>) -> Bool {
        switch argument {
        case "--fleet": fleetServer = arguments.popFirst()
        case "--replicas": fleet.replicas = Self.count(argument, 1...64, &arguments)
        case "--units": fleet.units = Self.count(argument, 1...1_000_000, &arguments)
        case "--kills": fleet.kills = Self.count(argument, 0...10_000, &arguments)
        case "--concurrency": fleet.concurrency = Self.count(argument, 1...64, &arguments)
        case "--limit": fleet.limit = .seconds(Self.count(argument, 10...86_400, &arguments))
        case "--cut-connections": fleet.connectionCuts = Self.count(argument, 0...100, &arguments)
        case "--skew": fleet.skew = Self.count(argument, 0...86_400, &arguments)
        case "--json": json = true
        default: return false
        }
        return true
    }

    /// The sizes after `--row-cache`, if it follows: megabytes (the service checks their range), or `default` (`nil`);
    /// `[nil]` without it.
    private static func rowCaches(_ arguments: inout ArraySlice<String>) -> [Int?] {
        guard arguments.first == "--row-cache" else { return [nil] }
        arguments.removeFirst()
        var sizes: [Int?] = []
        for text in (arguments.popFirst() ?? "").split(separator: ",") {
            guard text == "default" || Int(text).map({ $0 >= 0 }) == true else { fail("usage: --row-cache MB,MB,… (megabytes, or default) after --http DATABASE or --paired DATABASE") }
            sizes.append(Int(text))
        }
        return sizes.isEmpty ? [nil] : sizes
    }

    /// The number after `option`, within `range`.
    private static func count(_ option: String, _ range: ClosedRange<Int>, _ arguments: inout ArraySlice<String>) -> Int {
        guard let n = arguments.popFirst().flatMap(Int.init), range.contains(n) else {
            fail("usage: scheduler-bench \(option) N (\(range.lowerBound)–\(range.upperBound))")
        }
        return n
    }

    /// Whether `name` comes next, taken if so.
    private static func flag(_ name: String, _ arguments: inout ArraySlice<String>) -> Bool {
        guard arguments.first == name else { return false }
        arguments.removeFirst()
        return true
    }

    private static func fail(_ message: String) -> Never {
        print(message)
        exit(2)
    }
}

extension ArraySlice {
    /// Every element left, taken.
    mutating func popAll() -> ArraySlice {
        defer { removeAll() }
        return self
    }
}
