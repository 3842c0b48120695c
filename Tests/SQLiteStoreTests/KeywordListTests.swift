import Foundation
import FuzzSupport
@testable import Indexing
@testable import SQLiteStore
import Testing

/// Keywords are stored as a JSON array of strings and read back for every hit.
@Suite("Stored keyword lists")
struct KeywordListTests {
    @Test func anyKeywordsRoundTrip() throws {
        let awkward = ["", "\"", "\\", "\\\"", "a,b", "[x]", "line\nbreak", "\r\t", "\u{0}\u{1}\u{1F}", "é", "日本", "😀", "\u{7F}"]
        var random = SeededGenerator(seed: 5)
        for _ in 0..<500 {
            let keywords = (0..<Int.random(in: 0...6, using: &random)).map { _ in
                (0..<Int.random(in: 0...4, using: &random)).map { _ in awkward.randomElement(using: &random)! }.joined()
            }
            let stored = KeywordList.encode(keywords)
            #expect(KeywordList.decode(stored) == keywords, "\(stored)")
            #expect(try JSONDecoder().decode([String].self, from: Data(stored.utf8)) == keywords, "stored lists are JSON")
        }
    }

    @Test func listsWrittenByAJSONEncoderAreRead() throws {
        let keywords = ["a/b", "x\u{2028}y", "\u{1}", "ok"]
        let stored = String(decoding: try JSONEncoder().encode(keywords), as: UTF8.self)
        #expect(KeywordList.decode(stored) == keywords)
        #expect(KeywordList.decode(#"[ "spaced" , "out" ]"#) == ["spaced", "out"])
    }

    @Test func anythingElseIsNoKeywords() {
        for stored in ["", "[", "]", "[\"open]", "[1]", "{}", "[\"a\"\"b\"]", "[\"\\x\"]", "null"] {
            #expect(KeywordList.decode(stored) == [], "\(stored)")
        }
    }
}
