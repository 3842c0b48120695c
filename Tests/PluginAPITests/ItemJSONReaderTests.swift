import Foundation
import FuzzSupport
@testable import PluginAPI
import Testing

/// The item reader held to its oracle, `JSONDecoder` with ``SearchableItem/init(from:)`` (what decoded every line
/// before): on generated, mutated and hostile lines, the same item or the same error.
@Suite("The item JSON reader against JSONDecoder")
struct ItemJSONReaderTests {
    /// What `JSONDecoder` makes of a line, with the errors the line decoder gave when it used it.
    static func oracle(_ line: [UInt8]) -> Result<SearchableItem, ItemValidationError> {
        do {
            let item = try JSONDecoder().decode(SearchableItem.self, from: Data(line))
            try item.validate(limits: .standard)
            return .success(item)
        } catch let error as ItemValidationError {
            return .failure(error)
        } catch DecodingError.typeMismatch {
            return .failure(ItemValidationError(field: "", reason: "expected a JSON object"))
        } catch {
            return .failure(ItemValidationError(field: "", reason: "not valid JSON"))
        }
    }

    /// What the line decoder, on the reader, makes of it.
    static func reader(_ line: [UInt8]) -> Result<SearchableItem, ItemValidationError>? {
        do {
            return try NDJSONItemDecoder().decode(line).map { .success($0) }
        } catch {
            return .failure(error)
        }
    }

    /// Checks one line; returns whether the oracle decoded it.
    @discardableResult
    static func agree(_ line: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        // JSONDecoder converts UTF-16 and UTF-32 it recognises by a NUL or a byte-order mark in the first four bytes;
        // the reader refuses them (NDJSON is UTF-8).
        if line.prefix(4).contains(0) || line.starts(with: [0xFE, 0xFF]) || line.starts(with: [0xFF, 0xFE]) {
            #expect(reader(line) == .failure(ItemJSONReader.notJSON), sourceLocation: sourceLocation)
            return false
        }
        guard let read = reader(line) else {
            #expect(line.allSatisfy { [0x20, 0x09, 0x0D].contains($0) }, "only blank lines are skipped", sourceLocation: sourceLocation)
            return false
        }
        let expected = oracle(line)
        #expect(read == expected, "\(String(decoding: line.prefix(300), as: UTF8.self))", sourceLocation: sourceLocation)
        if case .success = expected { return true }
        return false
    }

    @Test func validItemsReadAlike() {
        let lines = [
            #"{"uniqueIdentifier":"a1","domainIdentifier":"com.shop.fr","title":"Délais de livraison","keywords":["livraison","délai"],"rankingHint":40,"expirationDate":"2027-01-31T10:00:00Z","contentURL":"shop://help/a1"}"#,
            #"{"uniqueIdentifier":"b2","domainIdentifier":"com.shop","contentDescription":"Soft and hard.","thumbnailData":"iVBORw0KGgo=","displayName":null}"#,
            #" { "uniqueIdentifier" : "\u00e9\ud83e\uddc0\n\t\"\\\/" , "domainIdentifier" : "com.a" , "keywords" : [ ] , "authorNames" : [ "Ann" , "Bo" ] } "#,
            #"{"uniqueIdentifier":"c","domainIdentifier":"com.a","rankingHint":4.0e1,"contentCreationDate":"2026-01-02T03:04:05.5+02:00"}"#,
            #"{"uniqueIdentifier":"c","domainIdentifier":"com.a","rankingHint":-0}"#,
            #"{"uniqueIdentifier":"x","uniqueIdentifier":"y","domainIdentifier":"com.a"}"#,
            #"{"unique\u0049dentifier":"z","domainIdentifier":"com.a"}"#,
            #"{"uniqueIdentifier":"d","domainIdentifier":"com.a","version":"v3.6","isCurrentVersion":false}"#,
            #"{"uniqueIdentifier":"d","domainIdentifier":"com.a","version":"v3.7","isCurrentVersion":true}"#,
            #"{"uniqueIdentifier":"d","domainIdentifier":"com.a","version":"v3.7","isCurrentVersion":null}"#,
        ]
        for line in lines { #expect(Self.agree(Array(line.utf8)), "\(line)") }
    }

    @Test func malformedAndMistypedLinesAreRefusedAlike() {
        let lines = [
            "", "{", "}", "[]", "[{}]", "\"text\"", "42", "null", "true", "{}", "{,}", #"{"a":1,}"#, #"{"a" 1}"#, "{'a':1}",
            #"{"uniqueIdentifier":"a"}"#, #"{"domainIdentifier":"com.a"}"#, #"{"uniqueIdentifier":1,"domainIdentifier":"com.a"}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","keywords":"one"}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","keywords":["one",2]}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","keywords":["one",null]}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","rankingHint":"5"}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","rankingHint":5.5}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","rankingHint":1e400}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","rankingHint":01}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","rankingHint":1.}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","rankingHint":+1}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","rankingHint":NaN}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","title":true}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","title":{"b":[1,{"c":null}]}}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","titel":"x"}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","zz":1,"aa":{"x":[]}}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","title":"\ud800"}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","title":"\udc00\ud800"}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","title":"\x"}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","title":"\u12"}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","title":"tab\#tinside"}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","thumbnailData":"not base64!"}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","expirationDate":"2027-02-30T00:00:00Z"}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a"} {}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a"}x"#,
            #"{"uniqueIdentifier":"","domainIdentifier":"com.a"}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com..a"}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","version":"v1","isCurrentVersion":"false"}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","version":"v1","isCurrentVersion":"true"}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","version":"v1","isCurrentVersion":0}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","version":"v1","isCurrentVersion":[false]}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","version":"v1","isCurrentVersion":tru}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","isCurrentVersion":false}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","version":"*"}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","version":""}"#,
            #"{"uniqueIdentifier":"a","domainIdentifier":"com.a","version":5}"#,
        ]
        for line in lines { Self.agree(Array(line.utf8)) }
        // Bytes that are not UTF-8, in a string and outside one; a NUL in a string.
        Self.agree(Array(#"{"uniqueIdentifier":"a"#.utf8) + [0xFF] + Array(#"","domainIdentifier":"com.a"}"#.utf8))
        Self.agree(Array(#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","title":"\#u{0}"}"#.utf8))
        Self.agree([0xC3] + Array(#"{"uniqueIdentifier":"a","domainIdentifier":"com.a"}"#.utf8))
    }

    @Test func nestingIsReadToTheOraclesDepthAndNoFurther() {
        for depth in [10, 511, 512, 513, 5000] {
            let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            Self.agree(Array(#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","extra":\#(nested)}"#.utf8))
            Self.agree(Array(#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","title":\#(nested)}"#.utf8))
        }
        // Unclosed: a million brackets, refused without recursion.
        Self.agree(Array(#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","extra":"#.utf8) + [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000))
    }

    /// An unknown field of a megabyte: refused in time, named in short.
    @Test func aHugeUnknownFieldIsNamedInShort() throws {
        let key = String(repeating: "k", count: 1 << 20)
        let line = Array(#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","\#(key)":1}"#.utf8)
        let error = try #require(Self.reader(line).flatMap { if case .failure(let error) = $0 { error } else { nil } })
        #expect(error.field.count == 80 && error.reason == "unknown field")
    }

    @Test(arguments: [UInt64(31), 32, 33])
    func generatedLinesReadAlike(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var decoded = 0
        for _ in 0..<4000 where Self.agree(Array(ItemLineGenerator.line(using: &random).utf8)) { decoded += 1 }
        #expect(decoded > 500, "the generator makes valid items too (\(decoded))")
    }

    @Test(arguments: [UInt64(41), 42])
    func mutatedLinesReadAlike(seed: UInt64) {
        var mutator = Mutator(seed: seed)
        var decoded = 0
        for index in 0..<4000 {
            let valid = ItemLineGenerator.valid[index % ItemLineGenerator.valid.count]
            if Self.agree(mutator.mutateBytes(valid, maxMutations: 3)) { decoded += 1 }
        }
        #expect(decoded > 100, "some mutations stay valid (\(decoded))")
    }
}

/// Item lines of every shape: fields of the right and wrong types, escapes, odd numbers, duplicate and unknown keys.
enum ItemLineGenerator {
    static let valid = [
        #"{"uniqueIdentifier":"a1","domainIdentifier":"com.shop.fr","title":"Délais","keywords":["livraison","délai"],"rankingHint":40,"expirationDate":"2027-01-31T10:00:00Z"}"#,
        #"{"uniqueIdentifier":"b2","domainIdentifier":"com.shop","contentDescription":"Soft \"and\" hard.","thumbnailData":"iVBORw0KGgo=","displayName":null,"authorNames":["Ann"]}"#,
        #"{"contentType":"public.text","uniqueIdentifier":"c\u00e9","domainIdentifier":"com.a.b","contentURL":"app://c","relatedUniqueIdentifier":"a1","contentModificationDate":"2026-11-26T00:00:00+01:00"}"#,
        #"{"uniqueIdentifier":"d4","domainIdentifier":"io.etcd.docs","title":"Recovery","version":"v3.6","isCurrentVersion":false,"access":["staff"]}"#,
    ]

    static let keys = SearchableItem.CodingKeys.allCases.map(\.stringValue) + ["extra", "Title", "unique_identifier", ""]

    static func line(using random: inout SeededGenerator) -> String {
        var fields = [#""uniqueIdentifier":\#(string(using: &random, plain: true))"#, #""domainIdentifier":"com.gen""#]
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            let key = keys.randomElement(using: &random)!
            fields.append("\"\(key)\":\(value(for: key, using: &random))")
        }
        if Int.random(in: 0..<10, using: &random) == 0 { fields.removeFirst() }
        fields.shuffle(using: &random)
        let space = [" ", "", "\t", " \r "].randomElement(using: &random)!
        return "{" + space + fields.joined(separator: "," + space) + space + "}"
    }

    static func value(for key: String, using random: inout SeededGenerator) -> String {
        let kind = Int.random(in: 0..<10, using: &random)
        switch (key, kind) {
        case (_, 0): return ["null", "true", "false", "{}", #"{"a":[1,"b",null]}"#, "[]", "[1]", #"["a",1]"#].randomElement(using: &random)!
        case (_, 1): return number(using: &random)
        case ("keywords", _), ("authorNames", _):
            return "[" + (0..<Int.random(in: 0...4, using: &random)).map { _ in string(using: &random, plain: false) }.joined(separator: ",") + "]"
        case ("rankingHint", _): return number(using: &random)
        case ("contentCreationDate", _), ("contentModificationDate", _), ("expirationDate", _):
            return ["\"2027-01-31T10:00:00Z\"", "\"2027-01-31T10:00:00.125+02:00\"", "\"2027-02-30T00:00:00Z\"", "\"yesterday\""].randomElement(using: &random)!
        case ("thumbnailData", _): return ["\"iVBORw0KGgo=\"", "\"!!\"", "\"\""].randomElement(using: &random)!
        case ("isCurrentVersion", _): return ["true", "false", "\"false\"", "\"true\"", "0", "fals"].randomElement(using: &random)!
        default: return string(using: &random, plain: kind < 5)
        }
    }

    static func number(using random: inout SeededGenerator) -> String {
        ["0", "-0", "40", "100", "101", "-5", "4.0", "4.5", "1e2", "1E+2", "2e-1", "1e400", "-1e400", "1e-400", "999999999",
         "1000000000", "12345678901234567890", "0.0000001", "5.00000000000000000001"].randomElement(using: &random)!
    }

    static func string(using random: inout SeededGenerator, plain: Bool) -> String {
        let pieces = plain ? ["a", "b", "item-", "7", "é", "🧀"]
            : ["a", " ", "é", "🧀", "\\n", "\\t", "\\\"", "\\\\", "\\/", "\\u00e9", "\\uD83E\\uDDC0", "\\ud800", "\\udc00", "\\u0000", "\\b", "\\f", "\\r",
               "\\x", "\u{7F}", "\u{202E}", "\\u12g4"]
        return "\"" + (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined() + "\""
    }
}
