import Foundation
import Testing
import TOML

/// The TOML 1.0 cases of the public toml-test suite (toml-lang/toml-test, MIT; `Fixtures/toml-test`, see its
/// README): every valid document reads to the expected tagged JSON, every invalid one is refused with a position
/// inside its text and a one-line message.
@Suite("The toml-test suite (TOML 1.0)")
struct TOMLTestSuiteTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/toml-test")

    /// The cases the suite lists for TOML 1.0, relative to `root` (`valid/…/x.toml`, `invalid/…/x.toml`).
    static func cases(_ group: String) throws -> [String] {
        let list = try String(contentsOf: root.appendingPathComponent("files-toml-1.0.0"), encoding: .utf8)
        return list.split(separator: "\n").map(String.init).filter { $0.hasPrefix(group + "/") && $0.hasSuffix(".toml") }
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent(path)))
    }

    /// Runs `check` on every case of `group`, which must number `count`, then prints how many passed it, saying
    /// what passing means (`outcome`).
    static func forEachCase(_ group: String, count: Int, outcome: String, _ check: (_ path: String, _ bytes: [UInt8]) throws -> Bool) throws {
        let cases = try Self.cases(group)
        #expect(cases.count == count)
        var passed = 0
        for path in cases {
            if try check(path, Self.bytes(path)) { passed += 1 }
        }
        print("toml-test \(group) (TOML 1.0): \(passed) of \(cases.count) \(outcome)")
    }

    @Test func everyValidDocumentReadsToTheExpectedValues() throws {
        try Self.forEachCase("valid", count: 210, outcome: "read as expected") { path, bytes in
            let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.root.appendingPathComponent(String(path.dropLast(5)) + ".json")))
            do {
                let table = try TOMLParser.parse(utf8: bytes)
                let difference = TaggedJSON.difference(TOMLNode(.table(table), mark: TOMLMark(line: 1, column: 1)), expected)
                #expect(difference == nil, "\(path): \(difference ?? "")")
                // The String entry point reads the same.
                let fromString = try TOMLParser.parse(String(decoding: bytes, as: UTF8.self))
                #expect(TaggedJSON.difference(TOMLNode(.table(fromString), mark: TOMLMark(line: 1, column: 1)), expected) == nil, "\(path) from a String")
                return difference == nil
            } catch {
                Issue.record("\(path) refused: \(error)")
                return false
            }
        }
    }

    @Test func everyInvalidDocumentIsRefusedWithAPosition() throws {
        try Self.forEachCase("invalid", count: 499, outcome: "refused") { path, bytes in
            do throws(TOMLError) {
                let table = try TOMLParser.parse(utf8: bytes)
                Issue.record("\(path) was read, not refused: \(table.keys)")
                return false
            } catch {
                let lines = bytes.count { $0 == 0x0A } + 1
                #expect(error.mark.line >= 1 && error.mark.line <= lines && error.mark.column >= 1, "\(path): \(error)")
                #expect(!error.message.isEmpty && !error.message.contains("\n"), "\(path): \(error)")
                return true
            }
        }
    }
}
