import Foundation
import FuzzSupport
@testable import Indexing
import PluginAPI
@testable import SQLiteStore
import Testing

/// Random search text (FTS5 syntax, operators, Unicode, control characters): a query is refused naming its
/// parameter, or answered; never an SQL or FTS5 error, never more hits than asked.
@Suite("Fuzzing search queries")
struct SearchFuzzTests {
    @Test func randomQueriesAreAnsweredOrRefusedNeverAnError() async throws {
        let fixture = try IndexFixture()
        let words = ["cheese", "comté", "École", "livraison", "brie", "camembert", "délai", "naïve", "straße", "日本"]
        var random = SeededGenerator(seed: 31)
        try await fixture.index.commit(IndexBatch(operations: [.upsert((0..<60).map { n in
            item("i\(n)", domain: n % 2 == 0 ? "com.test.a" : "com.test.b", title: "\(words[n % words.count]) \(words[(n * 7) % words.count])",
                 description: words.shuffled(using: &random).prefix(5).joined(separator: " "), keywords: [words[(n * 3) % words.count]])
        })]))
        var mutator = Mutator(seed: 32)
        for round in 0..<1500 {
            var text = mutator.mutate(words.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)).joined(separator: " "), maxMutations: 5)
            if round % 10 == 0 { text = String(repeating: Mutator.tokens.randomElement(using: &random)!, count: Int.random(in: 1...50, using: &random)) }
            let limit = Int.random(in: -2...1002, using: &random)
            let domain = round % 7 == 0 ? mutator.mutate("com.test.a") : nil
            let query: SearchQuery
            do {
                query = try SearchQuery(text: text, domain: domain, limit: limit)
            } catch {
                #expect(["limit", "domain", "q", "text"].contains(error.parameter), "\(error.parameter): \(error.reason)")
                continue
            }
            let results = try await fixture.index.search(query)
            #expect(results.hits.count <= max(0, limit))
        }
    }
}
