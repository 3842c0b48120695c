import Testing
import TOML

/// Input built to break a parser: the texts that crashed TOMLKit (toml++), nesting meant to overflow the stack,
/// and sizes meant to make it quadratic. Each is refused or read, never a crash. No test here times the parser
/// (a debug build on a busy machine is no measure); the time limit only stops one that hangs.
@Suite("Hostile TOML", .timeLimit(.minutes(5)))
struct HostileInputTests {
    /// Inputs that aborted the whole process under toml++ (an assertion), with where the refusal must point.
    @Test(arguments: [
        ("date = 2024-05-01Tcol:07:00", 1, 19),
        ("t = { date = 2024-05-01Tcol:07:00 }", 1, 25),
        ("a = [2024-05-01Tcol:07:00]", 1, 17),
        ("a = [1, 2024-05-01Tcol:07:00, 3]\n", 1, 20),
        ("a = [}", 1, 6),
        ("\u{FEFF}[[[a]]]", 1, 3),
        ("\u{FEFF}[ =]", 1, 3),
        ("\u{FEFF}[[a]", 1, 5),
        ("\u{FEFF}[]", 1, 2),
        ("\u{FEFF}", 0, 0),
        ("\u{FEFF}a = {", 1, 6),
        ("a = 1979-05-27T", 1, 16),
        ("a = 1979-05-27 07:", 1, 19),
        ("a = \"\\U", 1, 6),
        ("a = \"\"\"\\", 1, 8),
        ("a = '''''", 1, 5),
        ("\"", 1, 1),
        ("a.", 1, 3),
        ("[a.]", 1, 4),
        ("a = 0x", 1, 7),
        ("a = +", 1, 6),
        ("a = -", 1, 6),
        ("=", 1, 1),
    ])
    func knownCrashersAreRefusedWithTheirPosition(text: String, line: Int, column: Int) {
        let error = refusal(text)
        if line == 0 {
            #expect(error == nil, "an empty document (only a BOM) is an empty table")
            return
        }
        #expect(error?.mark == TOMLMark(line: line, column: column), "\(text.debugDescription): \(String(describing: error))")
    }

    /// Multi-line strings with a lone carriage return: in toml-test's TOML 1.1 list only, refused in 1.0 as well.
    @Test func aLoneCarriageReturnInAMultiLineStringIsRefused() {
        #expect(refusal("multi-cr = \"\"\"null\r\"\"\"\n")?.message.contains("carriage return") == true)
        #expect(refusal("rawmulti-cr = '''null\r'''\n")?.message.contains("carriage return") == true)
    }

    @Test func aDottedKeyOf30000PartsIsRefusedAtTheLimit() {
        let text = Array(repeating: "a", count: 30_000).joined(separator: ".") + " = 1\n"
        let error = refusal(text)
        #expect(error?.message.contains("more than 65 dotted parts") == true, "\(String(describing: error))")
        #expect(error?.mark == TOMLMark(line: 1, column: 131), "at the 66th part")
    }

    @Test func aHeaderOf30000PartsIsRefusedAtTheLimit() {
        let header = "[" + Array(repeating: "a", count: 30_000).joined(separator: ".") + "]\n"
        #expect(refusal(header)?.mark == TOMLMark(line: 1, column: 132))
        let arrayHeader = "[[" + Array(repeating: "\"a\"", count: 30_000).joined(separator: " . ") + "]]\n"
        #expect(refusal(arrayHeader) != nil)
    }

    /// Each opening pattern repeated 30,000 times (then the closing one, if any), refused where it crosses level 64.
    @Test(arguments: [
        ("[", "", 1, 69),
        ("[", "]", 1, 69),
        ("{a=", "", 1, 5 + 64 * 3),
        ("[{a=", "", 1, 5 + 32 * 4),
        ("[\n", "", 65, 1),
        ("{a.b=", "", 1, 5 + 32 * 5),
    ])
    func nestingOf30000LevelsIsRefusedAtTheLimit(opening: String, closing: String, line: Int, column: Int) {
        let text = "a = " + String(repeating: opening, count: 30_000) + String(repeating: closing, count: 30_000)
        let error = refusal(text)
        #expect(error?.message.contains("deeper than 64 levels") == true, "\(String(describing: error))")
        #expect(error?.mark == TOMLMark(line: line, column: column), "\(String(describing: error))")
    }

    @Test func nestingUpToTheLimitIsReadAndFreedWithoutRecursingDeeply() async throws {
        // On a task's thread (a small stack): 64 levels of the default, and 1,000 (the ceiling) when asked for.
        let deepest = "a = " + String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(refusal(deepest) == nil)
        var limits = TOMLLimits()
        limits.maxDepth = 1_000_000
        let ceiling = "a = " + String(repeating: "[", count: 1000) + "1" + String(repeating: "]", count: 1000)
        let header = "[" + Array(repeating: "t", count: 999).joined(separator: ".") + "]\nk = 1\n"
        let counts = try await Task.detached {
            [try TOMLParser.parse(ceiling, limits: limits).nodeCount, try TOMLParser.parse(header, limits: limits).nodeCount]
        }.value
        #expect(counts == [1002, 1001])
        #expect(refusal("a = " + String(repeating: "[", count: 1001) + String(repeating: "]", count: 1001), limits: limits) != nil)
    }

    @Test func twentyThousandKeysInOneTableRead() throws {
        var text = "[table]\n"
        for index in 0..<20_000 { text += "key\(index) = \(index)\n" }
        let table = try TOMLParser.parse(text)
        #expect(table["table"]?.table?.count == 20_000)
        #expect(table["table"]?["key19999"]?.integer == 19_999)
    }

    @Test func manyDottedKeysHeadersAndArrayTablesRead() throws {
        var dotted = "", headers = "", arrayTables = ""
        for index in 0..<20_000 {
            dotted += "site.params.k\(index) = \"v\"\n"
            headers += "[t\(index)]\nv = \(index)\n"
            arrayTables += "[[posts]]\nid = \(index)\n"
        }
        let elementsOnOneLine = "a = [" + (0..<20_000).map(String.init).joined(separator: ",") + "]"
        #expect(try TOMLParser.parse(dotted)["site"]?["params"]?.table?.count == 20_000)
        #expect(try TOMLParser.parse(headers).count == 20_000)
        #expect(try TOMLParser.parse(arrayTables)["posts"]?.elements?.count == 20_000)
        #expect(try TOMLParser.parse(elementsOnOneLine)["a"]?.elements?.count == 20_000)
    }

    @Test func theValueBudgetStopsAHugeArray() {
        let text = "a = [" + String(repeating: "1,", count: 200_000) + "]"
        let error = refusal(text, limits: { var limits = TOMLLimits(); limits.maxBytes = 1 << 22; return limits }())
        #expect(error?.message == "the document holds more than 100000 values; split it or shorten it")
    }

    @Test func aMegabyteOfOneStringOrOfQuotesIsRead() throws {
        let big = String(repeating: "x", count: (1 << 20) - 10)
        let table = try TOMLParser.parse("a = \"\(big)\"")
        #expect(table["a"]?.string?.utf8.count == big.utf8.count)
        let quotes = "a = \"\"\"" + String(repeating: "\"\"x", count: 300_000) + "\"\"\""
        #expect(refusal(quotes) == nil)
        let comments = String(repeating: "#" + String(repeating: " ", count: 100) + "\n", count: 10_000)
        #expect(refusal(comments) == nil)
        let escapes = "a = \"" + String(repeating: "\\u00e9", count: 150_000) + "\""
        #expect(try TOMLParser.parse(escapes)["a"]?.string?.count == 150_000)
    }

    @Test func marksStayCheapWhenAnErrorIsLate() {
        // An error at the end of a long document computes one mark from the start; nothing quadratic.
        let text = String(repeating: "k = [1, 2, 3]\n", count: 1) + (0..<30_000).map { "k\($0) = \($0)\n" }.joined() + "k0 = 1\n"
        let error = refusal(text)
        #expect(error?.mark == TOMLMark(line: 30_002, column: 1))
    }
}
