import Foundation
import Testing
import YAML

/// Every input of the public YAML test suite (yaml/yaml-test-suite, MIT; `Fixtures/yaml-test-suite.json`) through
/// the composer: none may crash or hang, every refusal has a position inside its text, and every input the suite
/// marks invalid that libyaml refuses is refused with a message on one line.
@Suite("The YAML test suite through the composer")
struct YAMLTestSuiteTests {
    struct Corpus: Decodable {
        struct Case: Decodable {
            var id: String
            var yaml: String
            var error: Bool
        }
        var cases: [Case]
    }

    static func corpus() throws -> [Corpus.Case] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/yaml-test-suite.json")
        return try JSONDecoder().decode(Corpus.self, from: Data(contentsOf: file)).cases
    }

    @Test func everyInputIsComposedOrRefusedWithAPosition() throws {
        let cases = try Self.corpus()
        #expect(cases.count == 402)
        var composed = 0, refused = 0, invalidRefused = 0
        for entry in cases {
            let bytes = try #require(Data(base64Encoded: entry.yaml)).map { $0 }
            do {
                _ = try YAMLComposer.compose(bytes)
                composed += 1
            } catch {
                refused += 1
                if entry.error { invalidRefused += 1 }
                let text = String(decoding: bytes, as: UTF8.self)
                let lines = text.unicodeScalars.filter { ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains($0) }.count + 1
                #expect(error.mark.line >= 1 && error.mark.line <= lines + 1 && error.mark.column >= 1, "\(entry.id): \(error)")
                #expect(!error.message.isEmpty && !error.message.contains("\n"), "\(entry.id): \(error)")
            }
        }
        // The suite's invalid inputs that libyaml's parser itself lets through are not this composer's to catch;
        // the strict rules (one document, core tags, no merge or complex keys) refuse many valid ones on purpose.
        #expect(invalidRefused >= 70, "\(invalidRefused) of 94 invalid inputs refused")
        #expect(composed + refused == 402)
        print("yaml-test-suite: \(composed) composed, \(refused) refused (\(invalidRefused) of 94 invalid ones)")
    }
}
