import Foundation
import FuzzSupport
import Testing
import TOML

/// Mutations of every valid toml-test document: each mutant is read or refused with a position inside its text,
/// never a crash, a trap or a hang.
@Suite("Fuzzing the TOML reader")
struct FuzzTests {
    /// The valid toml-test documents, as seeds.
    static func seeds() throws -> [String] {
        try TOMLTestSuiteTests.cases("valid").map { String(decoding: try TOMLTestSuiteTests.bytes($0), as: UTF8.self) }
    }

    /// TOML syntax worth splicing into a document, beside the shared mutator's tokens.
    static let tokens = [
        "[", "]", "[[", "]]", "{", "}", "=", ".", ",", "\"", "'", "\"\"\"", "'''", "\\", "\\u", "\\U0010FFFF", "\\uD800", "#",
        "\n", "\r\n", "\r", "\t", " ", "0x", "0o", "0b", "_", "e", "+", "-", "inf", "nan", "true", "1979-05-27", "T", "07:32:00",
        "Z", "+07:00", ".5", "a.b.c", "[a.b]", "[[a]]", "= {", "= [", "\u{FEFF}", "\u{7F}", "\u{0}", "é", "9223372036854775808",
    ]

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func mutatedSuiteDocumentsAreReadOrRefused(seed: UInt64) throws {
        let seeds = try Self.seeds()
        var mutator = Mutator(seed: seed)
        var read = 0, refused = 0
        for round in 0..<5_000 {
            var text = mutator.mutate(seeds[round % seeds.count])
            // Half the rounds also splice TOML syntax in.
            if round % 2 == 0 {
                var bytes = Array(text.utf8)
                for _ in 0..<Int.random(in: 1...3, using: &mutator.random) {
                    let token = Self.tokens[Int.random(in: 0..<Self.tokens.count, using: &mutator.random)]
                    bytes.insert(contentsOf: Array(token.utf8), at: Int.random(in: 0...bytes.count, using: &mutator.random))
                }
                text = String(decoding: bytes, as: UTF8.self)
            }
            do {
                let table = try TOMLParser.parse(text)
                #expect(table.nodeCount >= 1)
                read += 1
            } catch {
                refused += 1
                #expect(isWellFormed(error, in: Array(text.utf8)), "\(error) in:\n\(text.debugDescription)")
            }
        }
        print("fuzz seed \(seed): \(read) read, \(refused) refused")
    }

    /// Raw byte damage through the bytes entry point: invalid UTF-8 included.
    @Test func damagedBytesAreReadOrRefused() throws {
        let seeds = try Self.seeds().map { Array($0.utf8) }
        var random = SeededGenerator(seed: 9)
        for round in 0..<5_000 {
            var bytes = seeds[round % seeds.count]
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let position = Int.random(in: 0...bytes.count, using: &random)
                if position < bytes.count, Bool.random(using: &random) {
                    bytes[position] = UInt8.random(in: 0...255, using: &random)
                } else {
                    bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
                }
            }
            do {
                _ = try TOMLParser.parse(utf8: bytes)
            } catch {
                #expect(isWellFormed(error, in: bytes), "\(error) in \(bytes)")
            }
        }
    }
}
