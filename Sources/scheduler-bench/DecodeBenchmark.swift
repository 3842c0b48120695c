import Foundation
import PluginAPI

/// Measures reading item lines: `NDJSONItemDecoder` (what passes and imports use) against `JSONDecoder` with the
/// item's `Decodable` conformance (what they used before, and the reader's oracle in the tests), on the same N
/// synthetic lines, alternated three times.
enum DecodeBenchmark {
    static func run(n: Int, work: String) throws {
        print("\n== reading \(n) item lines")
        let ndjson = "\(work)/items-\(n).ndjson"
        try Benchmark.generate(n: n, ndjson: ndjson, csv: "\(work)/items-\(n).csv")
        let lines = try Data(contentsOf: URL(fileURLWithPath: ndjson)).split(separator: UInt8(ascii: "\n")).map { Array($0) }
        let decoder = NDJSONItemDecoder()
        for round in 1...3 {
            let reader = measure { for line in lines { _ = try? decoder.decode(line) } }
            let foundation = measure {
                for line in lines { _ = try? JSONDecoder().decode(SearchableItem.self, from: Data(line)).validate(limits: .standard) }
            }
            print(String(format: "round %d: JSONDecoder %.2f s (%.1f µs a line), NDJSONItemDecoder %.2f s (%.1f µs a line): %.1f× faster",
                round, foundation, foundation / Double(n) * 1e6, reader, reader / Double(n) * 1e6, foundation / reader))
        }
    }

    /// The CPU time `body` takes, in seconds.
    private static func measure(_ body: () -> Void) -> Double {
        let start = clock()
        body()
        return Double(clock() - start) / Double(CLOCKS_PER_SEC)
    }
}
