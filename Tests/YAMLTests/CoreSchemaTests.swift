import Testing
import YAML

/// Scalars resolved by the field that reads them, as the YAML 1.2 core schema says.
@Suite("Core schema resolution")
struct CoreSchemaTests {
    /// The value of `key: text`.
    func value(_ text: String) throws -> YAMLNode {
        try #require(try YAMLComposer.compose("key: \(text)\n")?["key"])
    }

    @Test(arguments: [("true", true), ("True", true), ("TRUE", true), ("false", false), ("False", false), ("FALSE", false), ("!!bool true", true)])
    func booleansAreTrueOrFalse(text: String, expected: Bool) throws {
        #expect(try value(text).bool() == expected)
    }

    @Test(arguments: ["yes", "no", "on", "off", "Yes", "NO", "y", "n"])
    func yamlOneOneBooleansAreRefusedWithAdvice(text: String) throws {
        let node = try value(text)
        do {
            _ = try node.bool()
            Issue.record("'\(text)' was read as a boolean")
        } catch {
            #expect(error.message == "'\(text)' is not a boolean in YAML 1.2; write true or false")
            #expect(error.mark == YAMLMark(line: 1, column: 6))
        }
    }

    @Test(arguments: ["\"true\"", "'false'", "1", "[true]", "~"])
    func otherValuesAreNotBooleans(text: String) throws {
        #expect(throws: YAMLError.self) { try value(text).bool() }
    }

    @Test(arguments: [("", true), ("~", true), ("null", true), ("Null", true), ("NULL", true), ("!!null ''", true),
                      ("'null'", false), ("\"~\"", false), ("nil", false), ("0", false)])
    func nullsAreTheCoreSchemasOnly(text: String, isNull: Bool) throws {
        #expect(try value(text).isNull == isNull)
    }

    @Test(arguments: [("42", 42), ("-17", -17), ("+5", 5), ("0o17", 15), ("0x1F", 31), ("0", 0), ("!!int 7", 7)])
    func integersInEveryCoreForm(text: String, expected: Int) throws {
        #expect(try value(text).integer(in: -100...100) == expected)
    }

    @Test(arguments: [
        ("1e19", "'1e19' is not a whole number; write one between 0 and 100"),
        ("99999999999999999999", "'99999999999999999999' is out of range: write a whole number between 0 and 100"),
        ("-99999999999999999999", "out of range"),
        ("101", "'101' is out of range"),
        ("1.5", "is not a whole number"),
        ("\"42\"", "not the quoted text '42'; remove the quotes"),
        ("0x", "is not a whole number"),
        ("1_000", "is not a whole number"),
        ("[1]", "not a list or a mapping"),
    ])
    func integersAreRangeCheckedBeforeConversion(text: String, message: String) throws {
        let node = try value(text)
        do {
            _ = try node.integer(in: 0...100)
            Issue.record("'\(text)' was read as an integer")
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test(arguments: [("0.5", 0.5), ("1", 1.0), ("-2.5e-1", -0.25), (".5", 0.5), ("1.", 1.0), ("1e2", 100.0), ("!!float 3", 3.0)])
    func numbersInEveryCoreForm(text: String, expected: Double) throws {
        #expect(try value(text).number(in: -1000...1000) == expected)
    }

    @Test(arguments: ["1e19", "-1e19", "1e400", ".inf", "-.inf", ".nan", "0x7fffffffffffffffff", "abc", "1.2.3", "e5", "'0.5'"])
    func hugeInfiniteAndMalformedNumbersAreRefused(text: String) throws {
        #expect(throws: YAMLError.self) { try value(text).number(in: 0...1) }
    }

    @Test(arguments: [("no", "no"), ("NO", "NO"), ("on", "on"), ("1.10", "1.10"), ("'true'", "true"), ("0x1F", "0x1F"),
                      ("\"a\\tb\"", "a\tb"), ("|\n  two\n  lines\n", "two\nlines\n"), ("!!str 12", "12")])
    func stringsAreTheTextTheyLookLike(text: String, expected: String) throws {
        #expect(try value(text).string() == expected)
    }

    @Test func partitionsNamedLikeBooleansStayNames() throws {
        let list = try #require(try YAMLComposer.compose("partitions: [no, se, on, 1.10]\n")?["partitions"]?.elements)
        #expect(try list.map { try $0.string() } == ["no", "se", "on", "1.10"])
    }

    @Test(arguments: ["~", "null", "", "[a]", "{a: 1}"])
    func nullsAndCollectionsAreNotStrings(text: String) throws {
        #expect(throws: YAMLError.self) { try value(text).string() }
    }
}
