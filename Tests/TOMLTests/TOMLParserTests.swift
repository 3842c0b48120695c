import Testing
import TOML

/// Reading TOML 1.0 into nodes: values and their positions, the definition rules, canonical date-times, limits,
/// and refusals that say where and what to write instead.
@Suite("Reading TOML documents")
struct TOMLParserTests {
    @Test func aFrontMatterBecomesNodesWithTheirPositions() throws {
        let table = try TOMLParser.parse("""
            title = "Cheese, a history"   # the title
            date = 2024-05-01T07:00:00+02:00
            draft = false
            tags = ["brie", 'comté',
              "époisses",]

            [extra]
            weight = 1_000
            ratio = 2.5e-1
            author.name = "Ana"
            """)
        #expect(table.keys == ["title", "date", "draft", "tags", "extra"])
        #expect(table["title"]?.string == "Cheese, a history")
        #expect(table["title"]?.mark == TOMLMark(line: 1, column: 9))
        #expect(table["date"]?.value == .offsetDateTime("2024-05-01T07:00:00+02:00"))
        #expect(table["draft"]?.boolean == false)
        let tags = try #require(table["tags"]?.elements)
        #expect(tags.map(\.string) == ["brie", "comté", "époisses"])
        #expect(tags[2].mark == TOMLMark(line: 5, column: 3))
        let extra = try #require(table["extra"])
        #expect(extra.mark == TOMLMark(line: 7, column: 1))
        #expect(extra["weight"]?.integer == 1000)
        #expect(extra["ratio"]?.value == .float(0.25))
        #expect(extra["author"]?.mark == TOMLMark(line: 10, column: 1), "a dotted key's table is where its key is")
        #expect(extra["author"]?["name"]?.string == "Ana")
        #expect(extra["author"]?["name"]?.mark == TOMLMark(line: 10, column: 15))
    }

    @Test func columnsCountCharactersNotBytes() {
        #expect(refusal("title = \"été\" x\n")?.mark == TOMLMark(line: 1, column: 15))
        #expect(refusal("a = 1\nb = \"🧀\" 🧀\n")?.mark == TOMLMark(line: 2, column: 9))
    }

    @Test func aByteOrderMarkIsSkippedInBothEntryPoints() throws {
        #expect(try TOMLParser.parse("\u{FEFF}a = 1\n")["a"]?.integer == 1)
        #expect(try TOMLParser.parse(utf8: [0xEF, 0xBB, 0xBF] + Array("a = 1".utf8))["a"]?.mark == TOMLMark(line: 1, column: 5))
        #expect(refusal("a = 1\n\u{FEFF}b = 2")?.mark == TOMLMark(line: 2, column: 1), "only at the start")
        #expect(refusal("\u{FEFF}\u{FEFF}a = 1") != nil)
    }

    @Test func invalidUTF8IsRefusedWhereItIs() {
        let error = Attempt { () throws(TOMLError) in try TOMLParser.parse(utf8: Array("a = \"é".utf8) + [0xC3, 0x28, 0x22]) }.error
        #expect(error?.mark == TOMLMark(line: 1, column: 7))
        #expect(error?.message.contains("not valid UTF-8") == true)
        for bad: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xFF]] {
            #expect(Attempt { () throws(TOMLError) in try TOMLParser.parse(utf8: Array("# ".utf8) + bad) }.error != nil, "\(bad)")
        }
    }

    @Test func dateTimesAreValidatedAndCanonical() throws {
        let table = try TOMLParser.parse("""
            a = 1979-05-27 07:32:00z
            b = 1979-05-27t07:32:00.999999-07:00
            c = 1979-05-27T07:32:00
            d = 1979-05-27
            e = 07:32:00.5
            f = 2000-02-29
            g = 1990-12-31T23:59:60Z
            h = 1979-05-27 # a date, then a comment
            """)
        #expect(table["a"]?.value == .offsetDateTime("1979-05-27T07:32:00Z"))
        #expect(table["b"]?.value == .offsetDateTime("1979-05-27T07:32:00.999999-07:00"))
        #expect(table["c"]?.value == .localDateTime("1979-05-27T07:32:00"))
        #expect(table["d"]?.value == .localDate("1979-05-27"))
        #expect(table["e"]?.value == .localTime("07:32:00.5"))
        #expect(table["f"]?.value == .localDate("2000-02-29"))
        #expect(table["g"]?.value == .offsetDateTime("1990-12-31T23:59:60Z"))
        #expect(table["h"]?.value == .localDate("1979-05-27"))
        for text in ["1900-02-29", "2023-04-31", "2023-13-01", "2023-00-10", "2023-01-01T24:00:00", "2023-01-01T23:60:00",
                     "2023-01-01T23:59:61", "2023-01-01T23:59:00+24:00", "2023-01-01T23:59:00+01:60", "07:32", "07:32:00Z",
                     "2023-01-01T07:32", "2023-1-01", "2023-01-01T", "2023-01-01 07:32:00.", "2024-05-01Tcol:07:00"] {
            #expect(refusal("a = \(text)\n") != nil, "\(text)")
        }
    }

    @Test func integersAreExactAndRefusedOutside64Bits() throws {
        let table = try TOMLParser.parse("""
            max = 9223372036854775807
            min = -9223372036854775808
            hex = 0x7FFF_FFFF_FFFF_FFFF
            oct = 0o755
            bin = 0b1101
            zero = -0
            """)
        #expect(table["max"]?.integer == .max)
        #expect(table["min"]?.integer == .min)
        #expect(table["hex"]?.integer == .max)
        #expect(table["oct"]?.integer == 0o755)
        #expect(table["bin"]?.integer == 13)
        #expect(table["zero"]?.integer == 0)
        for text in ["9223372036854775808", "-9223372036854775809", "0x8000000000000000", "0o1777777777777777777777",
                     "0b" + String(repeating: "1", count: 64), String(repeating: "9", count: 400)] {
            #expect(refusal("a = \(text)")?.message.contains("does not fit in a 64-bit integer") == true, "\(text)")
        }
    }

    @Test func floatsIncludeInfinityAndNaNButNotOverflow() throws {
        let table = try TOMLParser.parse("a = -inf\nb = nan\nc = -0.0\nd = 1e-400\ne = 6.626e-34\nf = 1_000.000_1")
        #expect(table["a"]?.value == .float(-.infinity))
        if case .float(let nan) = table["b"]?.value { #expect(nan.isNaN) } else { Issue.record("nan") }
        if case .float(let zero) = table["c"]?.value { #expect(zero == 0 && zero.sign == .minus) } else { Issue.record("-0.0") }
        #expect(table["d"]?.value == .float(0))
        #expect(table["e"]?.value == .float(6.626e-34))
        #expect(table["f"]?.value == .float(1000.0001))
        #expect(refusal("a = 1e400")?.message.contains("too large for a 64-bit float") == true)
    }

    @Test func stringsReadEscapesAndMultiLineRules() throws {
        let table = try TOMLParser.parse(
            "a = \"tab\\there \\u00E9 \\U0001F9C0 \\\"q\\\" \\\\\"\n"
            + "b = \"\"\"\r\nline one\r\nline two \\\r\n    continued\"\"\"\"\"\n"
            + "c = '''\n'quoted' \\n raw'''\n"
            + "d = 'C:\\path'\n")
        #expect(table["a"]?.string == "tab\there é 🧀 \"q\" \\")
        #expect(table["b"]?.string == "line one\nline two continued\"\"", "CRLF read as LF, the line-ending backslash trims")
        #expect(table["c"]?.string == "'quoted' \\n raw")
        #expect(table["d"]?.string == "C:\\path")
        for text in ["\"\\uD800\"", "\"\\U00110000\"", "\"\\x41\"", "\"a\u{7F}\"", "'a\u{1}'", "\"\"\"a\rb\"\"\"", "'''a\rb'''",
                     "\"\"\"a\"\"\"\"\"\"", "\"open", "'''open"] {
            #expect(refusal("a = \(text)\n") != nil, "\(text.debugDescription)")
        }
    }

    /// The definition rules as the reference decoders apply them.
    @Test(arguments: [
        ("[a.b.c]\n[a]\nx = 1\n", true),
        ("[a.b.c]\n[a.b]\n", true),
        ("[a.b.c]\n[a]\nb.d = 1\n", true),            // an implicit table takes dotted keys in the section that reaches it
        ("[a]\nb.c = 1\n[a.b.d]\n", true),            // a dotted table's sub-tables may have headers
        ("[[a.b]]\n[[a.b]]\n[a]\nc = 1\n", true),
        ("a.b = 1\na.c = 2\n", true),
        ("x = { a.b = 1, a.c = 2 }\n", true),
        ("[a]\n[a]\n", false),
        ("a.b = 1\n[a]\n", false),
        ("[a]\nb.c = 1\n[a.b]\n", false),
        ("[a]\nb.c = 1\n[x]\n[a.b.d]\nk = 1\n[a]\n", false),
        ("a = {}\n[a]\n", false),
        ("a = {}\na.b = 1\n", false),
        ("a = []\n[[a]]\n", false),
        ("[[a]]\n[a]\n", false),
        ("[a]\n[[a]]\n", false),
        ("[a.b]\nc = 1\n[a]\nb.d = 1\n", false),
        ("[x]\na.b = 1\n[y]\n[x.a]\n", false),
        ("x = { a = { b = 1 }, a.c = 2 }\n", false),
        ("x = { a.b = 1, a = 2 }\n", false),
    ])
    func definitionRules(text: String, valid: Bool) {
        let error = refusal(text)
        #expect((error == nil) == valid, "\(text.debugDescription): \(String(describing: error))")
    }

    @Test func arraysOfTablesAppendInOrder() throws {
        let table = try TOMLParser.parse("[[p]]\nn = 1\n[[p]]\nn = 2\n[p.q]\nm = 3\n[[p]]\n")
        let elements = try #require(table["p"]?.elements)
        #expect(elements.map { $0["n"]?.integer } == [1, 2, nil])
        #expect(elements[1]["q"]?["m"]?.integer == 3)
        #expect(elements.map(\.mark.line) == [1, 3, 7])
    }

    @Test(arguments: [
        ("a = 1\nb = 2 3\n", 2, 7, "expected the end of the line after the value of b"),
        ("a = [}\n", 1, 6, "expected a value"),
        ("[a\n", 1, 3, "expected ']' to close the table header"),
        ("[[a]\n", 1, 5, "expected ']]' to close the array-of-tables header"),
        ("a = { b = 1,\n}", 1, 13, "an inline table { … } stays on one line"),
        ("a = { b = 1, }", 1, 14, "an inline table takes no comma after its last value"),
        ("x = 1\nx = 2\n", 2, 1, "the key x is already defined, as an integer, at 1:1"),
        ("[t]\na.b = 1\n[t.a]\n", 3, 1, "the table t.a was already made by dotted keys at 2:1"),
        ("a = 'b\n", 1, 7, "a '…' string ends on its line"),
        ("a = 01\n", 1, 5, "has a leading zero"),
        ("a = True\n", 1, 5, "booleans are lower case"),
        ("a = 1\r\n\rb = 2", 2, 1, "a carriage return must be followed by a line feed"),
        ("# comment \u{1}\n", 1, 11, "is not allowed in a comment"),
        ("a = \"\\q\"\n", 1, 6, "invalid escape"),
    ])
    func refusalsSayWhereAndWhat(text: String, line: Int, column: Int, message: String) {
        let error = refusal(text)
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
        #expect(error?.mark == TOMLMark(line: line, column: column), "\(String(describing: error))")
        #expect(error?.description.hasPrefix("\(line):\(column): ") == true)
    }

    @Test func keysAreQuotedInMessagesOnOneLine() {
        let error = refusal("\"a\\nb\" = 1\n\"a\\nb\" = 2\n")
        #expect(error?.message.hasPrefix("the key \"a\\u{A}b\" is already defined") == true, "\(String(describing: error))")
    }

    @Test func theSizeLimitIsExact() throws {
        var limits = TOMLLimits()
        limits.maxBytes = 64
        let atLimit = "a = \"" + String(repeating: "x", count: 58) + "\""
        #expect(atLimit.utf8.count == 64)
        #expect(try TOMLParser.parse(atLimit, limits: limits)["a"]?.string?.count == 58)
        #expect(refusal(atLimit + "\n", limits: limits)?.message == "the text is 65 bytes, over the limit of 64; shorten it")
        #expect(Attempt { () throws(TOMLError) in try TOMLParser.parse(utf8: Array((atLimit + " ").utf8), limits: limits) }.error != nil)
    }

    @Test func theValueLimitCountsEveryValueAndTable() throws {
        var limits = TOMLLimits()
        limits.maxValues = 6
        // The root, a, the array, its two elements, the table t: six.
        let text = "a = 1\nb = [1, 2]\n[t]\n"
        #expect(try TOMLParser.parse(text, limits: limits).nodeCount == 6)
        limits.maxValues = 5
        #expect(refusal(text, limits: limits)?.message == "the document holds more than 5 values; split it or shorten it")
    }

    @Test func theDepthLimitIsExact() throws {
        var limits = TOMLLimits()
        limits.maxDepth = 3
        #expect(refusal("a = [[[1]]]", limits: limits) == nil)
        #expect(refusal("a = [[[[1]]]]", limits: limits)?.mark == TOMLMark(line: 1, column: 8))
        #expect(refusal("a.b.c = [1]", limits: limits) == nil)
        #expect(refusal("a.b.c = [[1]]", limits: limits)?.message.contains("nested deeper than 3") == true)
        #expect(refusal("a.b.c.d = 1", limits: limits) == nil)
        #expect(refusal("a.b.c.d.e = 1", limits: limits)?.message.contains("deeper than the limit of 3") == true)
        #expect(refusal("[a.b.c]", limits: limits) == nil)
        #expect(refusal("[a.b.c.d]", limits: limits) != nil)
        #expect(refusal("[a.b]\n[[a.b.c]]", limits: limits) != nil, "an array of tables counts two levels")
        #expect(refusal("[a]\nb = { c = { d = 1 } }", limits: limits) == nil)
        #expect(refusal("[a]\nb = { c = { d = [] } }", limits: limits) != nil)
    }

    @Test func tablesCompareByTheirEntriesAndLookUpByKey() throws {
        let table = TOMLTable([TOMLEntry(key: "a", node: TOMLNode(.integer(1), mark: TOMLMark(line: 1, column: 5))),
                               TOMLEntry(key: "a", node: TOMLNode(.integer(2), mark: TOMLMark(line: 2, column: 5)))])
        #expect(table["a"]?.integer == 1, "a key written twice is found at its first entry")
        #expect(table["b"] == nil)
        #expect(try TOMLParser.parse("a = 1\nb = 2") == TOMLParser.parse("a = 1\nb = 2"))
        #expect(try TOMLParser.parse("a = 1\nb = 2") != TOMLParser.parse("b = 2\na = 1"))
        #expect(TOMLValue.localTime("07:00:00").typeName == "local time")
    }

    /// toml-test's comparison is only a check if it can fail.
    @Test func theSuiteComparisonCatchesDifferences() throws {
        let table = TOMLNode(.table(try TOMLParser.parse("a = 1\nb = 1979-05-27T07:32:00Z\nc = [1.5]")), mark: TOMLMark(line: 1, column: 1))
        let good: [String: Any] = ["a": ["type": "integer", "value": "1"], "b": ["type": "datetime", "value": "1979-05-27T00:32:00-07:00"],
                                   "c": [["type": "float", "value": "1.50"]]]
        #expect(TaggedJSON.difference(table, good) == nil)
        var wrongValue = good
        wrongValue["a"] = ["type": "integer", "value": "2"]
        #expect(TaggedJSON.difference(table, wrongValue) != nil)
        var wrongInstant = good
        wrongInstant["b"] = ["type": "datetime", "value": "1979-05-27T07:32:00-07:00"]
        #expect(TaggedJSON.difference(table, wrongInstant) != nil)
        var wrongType = good
        wrongType["c"] = [["type": "integer", "value": "1"]]
        #expect(TaggedJSON.difference(table, wrongType) != nil)
        var missing = good
        missing["a"] = nil
        #expect(TaggedJSON.difference(table, missing) != nil)
    }
}
