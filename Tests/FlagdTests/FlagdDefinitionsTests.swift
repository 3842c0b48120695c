import Flagd
import Foundation
import Testing

/// Flag files people get wrong, and files written to hurt: each refused with its line, column and JSON pointer, or
/// evaluated to the default with the reason kept, never a crash.
@Suite struct FlagdDefinitionsTests {
    /// A file with one flag `f` whose targeting is `targeting` (JSON text).
    static func file(targeting: String, evaluators: String = "{}") -> String {
        """
        {
          "flags": {
            "f": {
              "state": "ENABLED",
              "variants": {"on": true, "off": false},
              "defaultVariant": "off",
              "targeting": \(targeting)
            }
          },
          "$evaluators": \(evaluators)
        }
        """
    }

    static func problem(_ text: String) throws -> FlagdDefinitionError? {
        try FlagdDefinitions(parsing: text).problems.first
    }

    @Test func anUnknownOperatorIsRefusedWithWhereItIs() throws {
        let error = try #require(try Self.problem(Self.file(targeting: #"{"if": [{"regex": ["a", "b"]}, "on", "off"]}"#)))
        #expect(error.pointer == "/flags/f/targeting/if/0/regex")
        #expect(error.mark.line == 7)
        #expect(error.mark.column == 29)
        #expect(error.message.contains("unknown operator \"regex\""))
        #expect(error.message.contains("fractional"))
    }

    @Test func refsResolveAndCyclesAndMissingOnesAreRefused() throws {
        let good = try FlagdDefinitions(parsing: Self.file(
            targeting: #"{"if": [{"$ref": "staff"}, "on", "off"]}"#,
            evaluators: #"{"staff": {"ends_with": [{"var": "email"}, "@example.com"]}}"#
        ))
        #expect(good.problems.isEmpty)
        #expect(good.resolve("f", targetingKey: "u", attributes: ["email": .string("a@example.com")]).variant == "on")
        #expect(good.resolve("f", targetingKey: "u", attributes: ["email": .string("a@elsewhere.org")]).variant == "off")

        let cycle = try #require(try Self.problem(Self.file(
            targeting: #"{"$ref": "a"}"#, evaluators: #"{"a": {"!": {"$ref": "b"}}, "b": {"and": [true, {"$ref": "a"}]}}"#
        )))
        #expect(cycle.message.contains(#"$ref cycle: "a" → "b" → "a""#))
        #expect(cycle.pointer == "/$evaluators/b/and/1/$ref")

        let missing = try #require(try Self.problem(Self.file(targeting: #"{"$ref": "nobody"}"#, evaluators: #"{"staff": true}"#)))
        #expect(missing.message.contains(#"which $evaluators does not hold; it holds "staff""#))
        #expect(missing.pointer == "/flags/f/targeting/$ref")
    }

    @Test func anEvaluatorUsedTwiceAtEveryLevelIsRefusedBeforeItGrows() throws {
        // 4^12 nodes once expanded, 26 levels deep: refused at the node budget, quickly.
        let evaluators = (0..<12).map { level in
            level == 0 ? #""e0": true"# : #""e\#(level)": {"or": [\#(Array(repeating: #"{"$ref": "e\#(level - 1)"}"#, count: 4).joined(separator: ", "))]}"#
        }.joined(separator: ", ")
        let error = try #require(try Self.problem(Self.file(targeting: #"{"$ref": "e11"}"#, evaluators: "{\(evaluators)}")))
        #expect(error.message.contains("over 10000 values"))
    }

    @Test func aRuleWithTwoOperatorsInOneObjectIsRefused() throws {
        let error = try #require(try Self.problem(Self.file(targeting: #"{"==": [1, 1], "!=": [1, 2]}"#)))
        #expect(error.message.contains("exactly one operator"))
    }

    @Test func theFileItselfMustBeSound() {
        let cases: [(String, String)] = [
            ("", "an object with \"flags\""),
            ("[]", "an object with \"flags\""),
            (#"{"flags": {}, "flagz": {}}"#, "unknown key \"flagz\""),
            (#"{"flags": {"a": {"state": "ENABLED", "variants": {"x": 1}}, "a": {"state": "DISABLED", "variants": {"x": 1}}}}"#, "duplicate"),
            (#"{"flags": {"a": {"state": "ENABLED", "variants": {"x": 1}"#, "syntax"),
            ("{\"flags\": {}, \"metadata\": " + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "}", "deep"),
            ("{\"flags\": {}, \"metadata\": {\"pad\": \"" + String(repeating: "x", count: FlagdDefinitions.maxBytes) + "\"}}", "over the limit"),
        ]
        for (text, expected) in cases {
            #expect(throws: FlagdDefinitionError.self, "\(text.prefix(60))") { try FlagdDefinitions(parsing: text) }
            if let error = Self.error(of: text) {
                #expect(error.message.lowercased().contains(expected.lowercased()), "\(error)")
            }
        }
    }

    static func error(of text: String) -> FlagdDefinitionError? {
        do { _ = try FlagdDefinitions(parsing: text) } catch { return error }
        return nil
    }

    @Test func aFlagsProblemsLeaveItsNeighboursUsable() throws {
        let definitions = try FlagdDefinitions(parsing: """
            flags:
              good: {state: ENABLED, variants: {on: true}, defaultVariant: on}
              noState: {variants: {on: true}}
              badState: {state: enabled, variants: {on: true}}
              badDefault: {state: ENABLED, variants: {on: true}, defaultVariant: off}
            """)
        #expect(definitions.resolve("good", targetingKey: nil).value == .bool(true))
        #expect(definitions.resolve("good", targetingKey: nil).reason == .static)
        #expect(definitions.problems.map(\.pointer) == ["/flags/noState", "/flags/badState/state", "/flags/badDefault/defaultVariant"])
        #expect(definitions.problems.map(\.mark.line) == [3, 4, 5])
        #expect(definitions.resolve("badState", targetingKey: nil).errorCode == .parseError)
        #expect(definitions.resolve("missing", targetingKey: nil).errorCode == .flagNotFound)
    }

    @Test func aDisabledFlagResolvesToNoVariant() throws {
        let definitions = try FlagdDefinitions(parsing: #"{"flags": {"f": {"state": "DISABLED", "variants": {"on": true}, "defaultVariant": "on"}}}"#)
        let resolution = definitions.resolve("f", targetingKey: "u")
        #expect(resolution.reason == .disabled)
        #expect(resolution.variant == nil)
    }

    @Test(arguments: [
        (#"{"fractional": [{"var": "targetingKey"}, ["on", 0], ["off", 0]]}"#, "add up to 0"),
        (#"{"fractional": [{"var": "targetingKey"}, ["on", 2147483647], ["off", 1]]}"#, "more than 2147483647"),
        (#"{"fractional": [["on", 50], ["off", 50]]}"#, "targeting key"),
        (#"{"fractional": [{"var": "missing"}, ["on", 50], ["off", 50]]}"#, "null"),
        (#"{"fractional": [{"var": "targetingKey"}, ["on", "heavy"]]}"#, "weight is a number"),
        (#"{"sem_ver": [{"var": "version"}, ">=", "1.2.3"]}"#, "is not a version"),
        (#"{"sem_ver": ["1.0.0", "=~", "1.2.3"]}"#, "is not one of"),
        (#"{"starts_with": [{"var": "n"}]}"#, "takes 2 arguments, not 1"),
        (#"{"if": [true, ["on"], "off"]}"#, "not a variant name"),
        (#"{"cat": ["o", "x"]}"#, "not a variant of"),
    ])
    func aTargetingFailureFallsBackAndSaysWhy(targeting: String, reason: String) throws {
        let definitions = try FlagdDefinitions(parsing: Self.file(targeting: targeting))
        #expect(definitions.problems.isEmpty)
        let resolution = definitions.resolve("f", targetingKey: targeting.contains("[[") ? nil : "unit", attributes: ["version": .string("one")])
        #expect(resolution.variant != "on")
        #expect(resolution.problems.contains { $0.contains(reason) }, "\(resolution.problems)")
    }

    @Test func theSameFlagsReadAlikeFromJSONAndYAML() throws {
        let json = try FlagdDefinitions(parsing: Self.file(targeting: #"{"if": [{"in": [{"var": "partition"}, ["fr", "de"]]}, "on", "off"]}"#))
        let yaml = try FlagdDefinitions(parsing: """
            flags:
              f:
                state: ENABLED
                variants: {on: true, off: false}
                defaultVariant: off
                targeting:
                  if:
                    - in: [{var: partition}, [fr, de]]
                    - on
                    - off
            """)
        for partition in ["fr", "de", "en", ""] {
            let attributes: [String: FlagValue] = ["partition": .string(partition)]
            #expect(json.resolve("f", targetingKey: "u", attributes: attributes) == yaml.resolve("f", targetingKey: "u", attributes: attributes))
        }
        #expect(json.resolve("f", targetingKey: "u", attributes: ["partition": .string("fr")]).variant == "on")
    }

    /// JSON tools indent with tabs, which YAML (the reader) refuses: outside strings they are read as spaces, with
    /// lines and columns unchanged; inside a string a tab stays the string's.
    @Test func aTabIndentedJSONFileReadsAsFlagdReadsIt() throws {
        let tabbed = Self.file(targeting: #"{"if": [{"in": ["a\tb", {"var": "tag"}]}, "on", "off"]}"#).replacingOccurrences(of: "  ", with: "\t")
        let definitions = try FlagdDefinitions(parsing: tabbed)
        #expect(definitions.problems.isEmpty)
        #expect(definitions.resolve("f", targetingKey: nil, attributes: ["tag": .string("xa\tbx")]).variant == "on")
        #expect(definitions.resolve("f", targetingKey: nil, attributes: ["tag": .string("a b")]).variant == "off")

        let broken = "{\n\t\"flags\": {\n\t\t\"f\": 1,\n\t\t\"f\": 2\n\t}\n}"
        let error = try #require(throws: FlagdDefinitionError.self) { try FlagdDefinitions(parsing: broken) }
        #expect(error.mark.line == 4, "the line where the key is written twice: \(error)")
    }

    /// `in` with an empty needle finds it in any string, as JavaScript's `includes` (which flagd's JsonLogic uses);
    /// `\/` is a slash in JSON.
    @Test func anEmptyNeedleIsInEveryStringAndEscapedSlashesAreSlashes() throws {
        let empty = try FlagdDefinitions(parsing: Self.file(targeting: #"{"if": [{"in": ["", {"var": "path"}]}, "on", "off"]}"#))
        #expect(empty.resolve("f", targetingKey: nil, attributes: ["path": .string("anything")]).variant == "on")
        let decomposed = try FlagdDefinitions(parsing: Self.file(targeting: #"{"if": [{"in": ["e\u0301", {"var": "name"}]}, "on", "off"]}"#))
        #expect(decomposed.resolve("f", targetingKey: nil, attributes: ["name": .string("caf\u{E9}")]).variant == "off", "bytes compare, as in Go")
        #expect(decomposed.resolve("f", targetingKey: nil, attributes: ["name": .string("cafe\u{301}")]).variant == "on")
        let long = String(repeating: "ab", count: 100_000)
        // Long texts from the context cost linear time, not their product (which would take minutes here).
        let needleInVar = try FlagdDefinitions(parsing: Self.file(targeting: #"{"if": [{"in": [{"var": "needle"}, {"var": "text"}]}, "on", "off"]}"#))
        let haystack = String(repeating: "ab", count: 300_000)
        #expect(needleInVar.resolve("f", targetingKey: nil, attributes: ["needle": .string(long + "c"), "text": .string(haystack)]).variant == "off")
        #expect(needleInVar.resolve("f", targetingKey: nil, attributes: ["needle": .string(long + "a"), "text": .string(haystack)]).variant == "on")
        let slash = try FlagdDefinitions(parsing: Self.file(targeting: #"{"if": [{"starts_with": [{"var": "path"}, "\/docs\/"]}, "on", "off"]}"#))
        #expect(slash.resolve("f", targetingKey: nil, attributes: ["path": .string("/docs/a")]).variant == "on")
        #expect(slash.resolve("f", targetingKey: nil, attributes: ["path": .string("/blog/a")]).variant == "off")
    }
}

/// What a small file could make every evaluation or every load cost, bounded where flagd does not bound it.
@Suite struct FlagdBudgetTests {
    /// A long text joined many times (`cat`, or a list turned into the needle of `in`) fails the rule for that
    /// unit (the default variant, the failure kept) instead of building gigabytes.
    @Test(arguments: [
        #"{"in": ["zzz", {"cat": [{"$ref": "s"}, {"$ref": "s"}, {"$ref": "s"}]}]}"#,
        #"{"in": [[{"$ref": "s"}, {"$ref": "s"}, {"$ref": "s"}], "zzz"]}"#,
    ])
    func aTextARuleBuildsIsBounded(condition: String) throws {
        let long = String(repeating: "a", count: 30_000)
        let definitions = try FlagdDefinitions(parsing: FlagdDefinitionsTests.file(
            targeting: #"{"if": [\#(condition), "on", "off"]}"#, evaluators: #"{"s": "\#(long)"}"#
        ))
        let resolution = definitions.resolve("f", targetingKey: "k", attributes: [:])
        #expect(resolution.problems.contains { $0.contains("would pass 65536 bytes") }, "\(resolution.problems)")
        // Two copies fit: the rule works below the bound.
        let short = try FlagdDefinitions(parsing: FlagdDefinitionsTests.file(
            targeting: #"{"if": [{"in": ["zzz", {"cat": [{"$ref": "s"}, {"$ref": "s"}]}]}, "on", "off"]}"#, evaluators: #"{"s": "\#(long)"}"#
        ))
        #expect(short.resolve("f", targetingKey: "k", attributes: [:]).problems.isEmpty)
    }

    /// Each flag under the per-flag budget, many of them past the file's: the whole file is refused at once.
    @Test func manyFlagsExpandingOneLargeEvaluatorAreRefusedAsAFile() throws {
        var evaluators = [#""e0": {"==": [1, 1]}"#]
        for level in 1...10 { evaluators.append(#""e\#(level)": {"and": [{"$ref": "e\#(level - 1)"}, {"$ref": "e\#(level - 1)"}]}"#) }
        let flags = (0..<30).map { #""f\#($0)": {"state": "ENABLED", "variants": {"a": true}, "defaultVariant": "a", "targeting": {"$ref": "e10"}}"# }
        let text = #"{"$evaluators": {\#(evaluators.joined(separator: ","))}, "flags": {\#(flags.joined(separator: ","))}}"#
        #expect(text.utf8.count < 5_000)
        #expect {
            try FlagdDefinitions(parsing: text)
        } throws: { error in
            (error as? FlagdDefinitionError)?.message.contains("the file's rules hold over 100000 values") == true
        }
        // One such flag alone loads.
        let one = #"{"$evaluators": {\#(evaluators.joined(separator: ","))}, "flags": {\#(flags[0])}}"#
        #expect(try FlagdDefinitions(parsing: one).problems.isEmpty)
    }

    @Test func bytesThatAreNotUTF8AreRefusedWithTheirPlace() {
        var bytes = Array(#"{"flags": {"f": {"state": "ENABLED", "variants": {"on": true, ""#.utf8)
        bytes += [0xFF] + Array(#"": false}, "defaultVariant": "on"}}}"#.utf8)
        #expect {
            try FlagdDefinitions(parsing: bytes)
        } throws: { error in
            guard let error = error as? FlagdDefinitionError else { return false }
            return error.mark.line == 1 && error.message.contains("UTF-8")
        }
    }

    /// flagd looks variant names up as Go strings: a composed `é` names no variant written decomposed.
    @Test func variantNamesAreMatchedByTheirBytes() throws {
        let definitions = try FlagdDefinitions(parsing: #"""
            {"flags": {"f": {"state": "ENABLED", "variants": {"caf\u00e9": true, "off": false}, "defaultVariant": "off",
              "targeting": {"if": [{"==": [{"var": "k"}, 1]}, "cafe\u0301", "caf\u00e9"]}}}}
            """#)
        #expect(definitions.resolve("f", targetingKey: nil, attributes: ["k": .number(2)]).variant == "caf\u{E9}")
        let decomposed = definitions.resolve("f", targetingKey: nil, attributes: ["k": .number(1)])
        #expect(decomposed.reason == .error, "\(decomposed)")
        #expect(decomposed.variant == nil)
    }
}
