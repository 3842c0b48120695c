import FuzzSupport
import Testing
import YAML

/// Composing one document over the system libyaml: structure, positions, and every refusal with its location.
@Suite("Composing YAML documents")
struct ComposerTests {
    func refusal(_ text: String, limits: YAMLLimits = .standard) -> YAMLError? {
        do {
            _ = try YAMLComposer.compose(text, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func aDocumentBecomesNodesWithTheirPositions() throws {
        let root = try #require(try YAMLComposer.compose("""
            # a comment
            sources:
              help:
                partitions: [en, fr]
                options: { command: [./a.sh, -v] }
            """))
        let help = try #require(root["sources"]?["help"])
        #expect(help.mark == YAMLMark(line: 4, column: 5))
        let partitions = try #require(help["partitions"])
        #expect(partitions.mark == YAMLMark(line: 4, column: 17))
        #expect(partitions.elements?.map(\.scalarText) == ["en", "fr"])
        #expect(partitions.elements?[1].mark == YAMLMark(line: 4, column: 22))
        #expect(help["options"]?["command"]?.elements?.count == 2)
        #expect(root.entries?.first?.key.mark == YAMLMark(line: 2, column: 1))
    }

    @Test(arguments: ["", "\n\n", "# only a comment\n", "   "])
    func anEmptyOrCommentOnlyTextHoldsNoDocument(text: String) throws {
        #expect(try YAMLComposer.compose(text) == nil)
    }

    @Test func aliasesAreExpandedAndShareTheirAnchor() throws {
        let root = try #require(try YAMLComposer.compose("base: &b [x, y]\ncopy: *b\n"))
        #expect(root["copy"]?.elements?.map(\.scalarText) == ["x", "y"])
    }

    @Test(arguments: [
        ("a: 1\n---\nb: 2\n", 2, 1, "a second document"),
        ("? [a, b]\n: 1\n", 1, 3, "a mapping key must be a plain name"),
        ("base: &b {x: 1}\nmore:\n  <<: *b\n", 3, 3, "merge keys (<<) are not read"),
        ("a: 1\nb: 2\na: 3\n", 3, 1, "duplicate key 'a'"),
        ("a: !custom 1\n", 1, 4, "the tag '!custom' is not read"),
        ("a: !!python/object:os.system x\n", 1, 4, "the tag '!!python/object:os.system' is not read"),
        ("a: !!binary aGk=\n", 1, 4, "the tag '!!binary' is not read"),
        ("a: !!set {x}\n", 1, 4, "the tag '!!set' is not read"),
        ("a: *nowhere\n", 1, 4, "the alias *nowhere names no anchor"),
        ("a: [1, 2\n", 2, 1, "YAML syntax"),
        ("a: 'open\n", 2, 1, "YAML syntax"),
        ("a:\n\t- 1\n", 2, 1, "YAML syntax"),
    ])
    func strictRefusalsCarryTheirLocation(text: String, line: Int, column: Int, message: String) {
        let error = refusal(text)
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
        #expect(error?.mark == YAMLMark(line: line, column: column), "\(String(describing: error))")
    }

    @Test func aQuotedKeyWithANewlineIsShownOnOneLine() {
        let error = refusal("\"a\\nb\": 1\n\"a\\nb\": 2\n")
        #expect(error?.message == "duplicate key 'a\\u{a}b': each key appears once in a mapping")
    }

    /// Ruby's YAML (Jekyll's front matter) keeps a key's last value; asked to, the composer does too, at any depth,
    /// and the key keeps its place among the others as the last one written.
    @Test func aDuplicateKeyCanKeepItsLastValue() throws {
        let node = try #require(try YAMLComposer.compose("a: 1\nb: {c: 1, c: 2}\na: 3\n", duplicateKeys: .lastWins))
        #expect(node["a"]?.scalarText == "3")
        #expect(node["b"]?["c"]?.scalarText == "2")
        #expect(node.entries?.compactMap(\.key.scalarText) == ["b", "a"])
        #expect(node.entries?.count == 2)
    }

    @Test func anAliasBombIsRefusedAtTheAliasThatCrossesTheBudgetQuickly() {
        var lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for level in 1...9 { lines.append("a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]") }
        let clock = ContinuousClock()
        var error: YAMLError?
        let elapsed = clock.measure { error = refusal(lines.joined(separator: "\n") + "\n") }
        #expect(error?.message.contains("makes the document expand to more than 100000 values") == true, "\(String(describing: error))")
        #expect(error.map { $0.mark.line <= 6 } == true, "at the alias that crossed: \(String(describing: error?.mark))")
        // Not a timing assertion on the machine: a bomb that expanded would take minutes, this takes milliseconds.
        #expect(elapsed < .seconds(30))
    }

    @Test func aDeepNestingIsRefusedAtTheLevelThatCrossesTheLimit() {
        let text = String(repeating: "- ", count: 10_000) + "x\n"
        let error = refusal(text)
        #expect(error?.message == "nesting deeper than 64 levels is not read")
        #expect(error?.mark == YAMLMark(line: 1, column: 129), "at the 65th '- '")
    }

    @Test func theSizeLimitIsExact() throws {
        var limits = YAMLLimits()
        limits.maxBytes = 64
        let atLimit = "a: " + String(repeating: "x", count: 60) + "\n"
        #expect(atLimit.utf8.count == 64)
        #expect(try YAMLComposer.compose(atLimit, limits: limits)?["a"]?.scalarText?.count == 60)
        let over = "a: " + String(repeating: "x", count: 61) + "\n"
        #expect(refusal(over, limits: limits)?.message == "the text is 65 bytes, over the limit of 64; split it or shorten it")
    }

    @Test func aLongValueAndTooManyAnchorsAreRefused() {
        var limits = YAMLLimits()
        limits.maxScalarBytes = 10
        limits.maxAnchors = 2
        #expect(refusal("a: " + String(repeating: "x", count: 11) + "\n", limits: limits)?.message == "a value of 11 bytes is over the limit of 10")
        #expect(refusal("a: &x 1\nb: &y 2\nc: &z 3\n", limits: limits)?.message == "more than 2 anchors are not read")
    }

    @Test func invalidUTF8AByteOrderMarkAndANulByte() throws {
        let invalid = Attempt { () throws(YAMLError) in try YAMLComposer.compose(Array("a: ".utf8) + [0xC3, 0x28] + Array("\n".utf8)) }
        #expect(invalid.error?.message.contains("YAML syntax") == true)
        #expect(invalid.error?.mark.line == 1)
        #expect(try YAMLComposer.compose([0xEF, 0xBB, 0xBF] + Array("a: 1\n".utf8))?["a"]?.scalarText == "1", "a BOM is read past")
        let nul = Attempt { () throws(YAMLError) in try YAMLComposer.compose(Array("a: b".utf8) + [0] + Array("c\n".utf8)) }
        #expect(nul.error?.message.contains("YAML syntax") == true, "\(String(describing: nul.error))")
        #expect(nul.error?.mark == YAMLMark(line: 1, column: 5))
    }

    /// Mutated documents: composed, or refused with a position inside the text; never a crash.
    @Test(arguments: [UInt64(51), 52])
    func mutatedDocumentsAreComposedOrRefusedWithAPosition(seed: UInt64) {
        let documents = [
            "sources:\n  help:\n    plugin: command\n    partitions: [en, fr]\n    options: { command: [./a.sh], timeout: 2m }\n",
            "gates:\n  g: &g { enabled: true, rollout: 50 }\n  h: *g\n",
            "title: \"Cheese\"\ntags:\n  - brie\n  - 'comté'\nbody: |\n  A text\n  on lines.\n",
        ]
        var mutator = Mutator(seed: seed)
        for round in 0..<1500 {
            let text = mutator.mutate(documents[round % documents.count])
            do {
                _ = try YAMLComposer.compose(text)
            } catch {
                let lines = text.unicodeScalars.filter { ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains($0) }.count + 1
                #expect(error.mark.line >= 1 && error.mark.line <= lines + 1 && error.mark.column >= 1, "\(error) in:\n\(text)")
                #expect(!error.message.isEmpty && !error.message.contains("\n"))
            }
        }
    }
}

/// The outcome of a throwing call, for tests that inspect the error.
private struct Attempt<Value> {
    var value: Value?
    var error: YAMLError?
    init(_ body: () throws(YAMLError) -> Value) {
        do { value = try body() } catch { self.error = error }
    }
}
