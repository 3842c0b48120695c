import Foundation
import Testing

@Suite("scheduler index and scheduler search")
struct IndexCommandTests {
    @Test func importReportsBadLinesWithTheirNumbersAndExitsOne() async throws {
        let workspace = try Workspace()
        try workspace.write("items.ndjson", [
            itemLine("a", title: "Cheetah"),
            #"{"uniqueIdentifier":"b","domainIdentifier":"com.test","rankingHint":400}"#,
            "",
            "{broken",
            itemLine("c", title: "Lion"),
        ].joined(separator: "\n"))

        let outcome = try await SchedulerProcess.run(["index", "import", workspace.path("items.ndjson")] + workspace.database)

        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("imported 2 items, rejected 2 lines"))
        #expect(outcome.stderr.contains("items.ndjson:2: rankingHint: must be between 0 and 100 (got 400)"))
        #expect(outcome.stderr.contains("items.ndjson:4: not valid JSON"))
        let search = try await SchedulerProcess.run(["search", "lio"] + workspace.database)
        #expect(search.stdout.contains("Lion"))
    }

    @Test func itemShowsOneItemAndExitsOneWhenNoneHasTheIdentifier() async throws {
        let workspace = try Workspace()
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2]).base64EncodedString()
        let lines = [
            #"{"uniqueIdentifier":"a/b é","domainIdentifier":"com.test","title":"Cheetah","keywords":["cat","fast"],"thumbnailData":"\#(png)","contentURL":"test://a"}"#,
            #"{"uniqueIdentifier":"gone","domainIdentifier":"com.test","title":"Gone","expirationDate":"2001-01-01T00:00:00Z"}"#,
        ]
        try workspace.write("items.ndjson", lines.joined(separator: "\n"))
        #expect(try await SchedulerProcess.run(["index", "import", workspace.path("items.ndjson")] + workspace.database).status == 0)

        let shown = try await SchedulerProcess.run(["item", "a/b é"] + workspace.database)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.hasPrefix("Cheetah\n"), "\(shown.stdout)")
        for line in ["identifier    a/b é", "keywords      cat, fast", "link          test://a", "thumbnail     image/png stored", "opens         0"] {
            #expect(shown.stdout.contains(line), "\(line): \(shown.stdout)")
        }
        let json = try await SchedulerProcess.run(["item", "a/b é", "--json"] + workspace.database)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["thumbnailType"] as? String == "image/png" && object["displayName"] is NSNull && object["thumbnailData"] == nil)

        for identifier in ["gone", "nope", "a/b", ""] {
            let missing = try await SchedulerProcess.run(["item", identifier] + workspace.database)
            #expect(missing.status == 1, "\(identifier)")
            #expect(missing.stderr.contains("no item '\(identifier)' in the index"), "\(identifier): \(missing.stderr)")
        }
    }

    @Test func importReadsStandardInputAndExitsZeroWhenAllLinesAreGood() async throws {
        let workspace = try Workspace()
        let input = (1...2500).map { itemLine("i\($0)", title: "Item \($0)") }.joined(separator: "\n")
        let outcome = try await SchedulerProcess.run(["index", "import", "-"] + workspace.database, input: Data(input.utf8))
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("imported 2500 items, rejected 0 lines"))
        let broad = try await SchedulerProcess.run(["search", "item"] + workspace.database)
        #expect(broad.stdout.hasPrefix("100+ matches\n"), "counted up to 100: \(broad.stdout.prefix(80))")
        let narrow = try await SchedulerProcess.run(["search", "item 2500"] + workspace.database)
        #expect(narrow.stdout.hasPrefix("1 match\n"), "\(narrow.stdout)")
    }

    @Test func aRunOfBadLinesLongerThanABatchDoesNotEndTheImport() async throws {
        let workspace = try Workspace()
        let input = (Array(repeating: "garbage", count: 25) + [itemLine("after", title: "After")]).joined(separator: "\n")
        let outcome = try await SchedulerProcess.run(["index", "import", "-", "--batch-size", "10"] + workspace.database, input: Data(input.utf8))
        #expect(outcome.stdout.contains("imported 1 items, rejected 25 lines"))
    }

    @Test func importOfAMissingFileFailsClearly() async throws {
        let workspace = try Workspace()
        let outcome = try await SchedulerProcess.run(["index", "import", workspace.path("nope.ndjson")] + workspace.database)
        #expect(outcome.status != 0)
        #expect(outcome.stderr.contains("cannot open"))
        #expect(outcome.stderr.contains("nope.ndjson"))
    }

    @Test func searchCountsFacetsAndRefusesAnUnknownOne() async throws {
        let workspace = try Workspace()
        let lines = [
            itemLine("a", domain: "com.shop.help.en", title: "Fromage frais"), itemLine("b", domain: "com.shop.help.en", title: "Fromages"),
            itemLine("c", domain: "com.shop.blog", title: "Fromagerie"),
        ]
        _ = try await SchedulerProcess.run(["index", "import", "-"] + workspace.database, input: Data(lines.joined(separator: "\n").utf8))
        let outcome = try await SchedulerProcess.run(["search", "from", "--limit", "1", "--facets", "domain,domainTree"] + workspace.database)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("domain: com.shop.help.en 2, com.shop.blog 1\n"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("domainTree: com 3, com.shop 3, com.shop.help 2, com.shop.help.en 2, com.shop.blog 1\n"), "\(outcome.stdout)")
        let refused = try await SchedulerProcess.run(["search", "from", "--facets", "domain,author"] + workspace.database)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("--facets: unknown facet 'author'; the facets are domain, domainTree, type"), "\(refused.stderr)")
    }

    @Test func searchPrintsTheDocumentedJSON() async throws {
        let workspace = try Workspace()
        let line = #"{"uniqueIdentifier":"cat-1","domainIdentifier":"com.shop.categories","title":"Fromages","keywords":["brie"],"contentURL":"shop://category/1","rankingHint":10}"#
        _ = try await SchedulerProcess.run(["index", "import", "-"] + workspace.database, input: Data(line.utf8))

        let outcome = try await SchedulerProcess.run(["search", "from", "--json", "--domain", "com.shop"] + workspace.database)

        #expect(outcome.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(object["total"] as? Int == 1)
        let hit = try #require((object["hits"] as? [[String: Any]])?.first)
        let expectedKeys: Set = [
            "uniqueIdentifier", "domainIdentifier", "contentType", "title", "displayName", "contentDescription",
            "keywords", "authorNames", "contentCreationDate", "contentModificationDate", "contentURL", "relatedUniqueIdentifier", "thumbnailURL",
            "rankingHint", "version", "expirationDate", "score", "highlights", "snippet", "sections",
        ]
        #expect(Set(hit.keys) == expectedKeys)
        let highlights = try #require(hit["highlights"] as? [String: Any])
        #expect(Set(highlights.keys) == ["title", "displayName", "contentDescription", "keywords", "authorNames"])
        #expect(hit["contentURL"] as? String == "shop://category/1")
        #expect(hit["displayName"] is NSNull)
    }

    @Test(arguments: [["--limit", "0"], ["--limit", "5000"], ["--offset", "-3"], ["--domain", "bad..domain"]])
    func searchRefusesOutOfRangeOptions(options: [String]) async throws {
        let workspace = try Workspace()
        let outcome = try await SchedulerProcess.run(["search", "x"] + options + workspace.database)
        #expect(outcome.status != 0)
        #expect(outcome.stderr.contains(options[0]))
    }

    @Test func hostileSearchTextIsHarmless() async throws {
        let workspace = try Workspace()
        _ = try await SchedulerProcess.run(["index", "import", "-"] + workspace.database, input: Data(itemLine("a", title: "Salt and pepper").utf8))
        let outcome = try await SchedulerProcess.run(["search", "\"AND\" (PEP* -* 😀 [", "--json"] + workspace.database)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("\"total\":1"))
    }

    @Test func deleteTakesExactlyOneKindOfTarget() async throws {
        let workspace = try Workspace()
        let none = try await SchedulerProcess.run(["index", "delete"] + workspace.database)
        let two = try await SchedulerProcess.run(["index", "delete", "--all", "--id", "x"] + workspace.database)
        #expect(none.status != 0 && two.status != 0)
        #expect(none.stderr.contains("exactly one of --id, --domain or --all"))
    }

    @Test func deleteByDomainIsHierarchicalAndStatsShowWhatIsLeft() async throws {
        let workspace = try Workspace()
        let lines = [
            itemLine("a", domain: "com.shop", title: "A"), itemLine("b", domain: "com.shop.fr", title: "B"),
            itemLine("c", domain: "com.shopping", title: "C"),
        ]
        _ = try await SchedulerProcess.run(["index", "import", "-"] + workspace.database, input: Data(lines.joined(separator: "\n").utf8))

        let delete = try await SchedulerProcess.run(["index", "delete", "--domain", "com.shop"] + workspace.database)
        let stats = try await SchedulerProcess.run(["index", "stats", "--json"] + workspace.database)

        #expect(delete.stdout.contains("deleted 2 items"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        #expect(object["domains"] as? [String: Int] == ["com.shopping": 1])
        #expect(object["total"] as? Int == 1)
        #expect((object["databaseBytes"] as? Int ?? 0) > 0)
    }

    /// The saved search postings an import leaves beside the database are counted apart from it; an import without
    /// them leaves none to count.
    @Test func statsCountTheSavedSearchPostingsBesideTheDatabase() async throws {
        let workspace = try Workspace()
        let lines = Data([itemLine("a", title: "Alpha"), itemLine("b", title: "Beta")].joined(separator: "\n").utf8)
        _ = try await SchedulerProcess.run(["index", "import", "-"] + workspace.database, input: lines)
        let saved = try #require(try FileManager.default.attributesOfItem(atPath: workspace.path("index.sqlite.postings"))[.size] as? Int)
        let stats = try await SchedulerProcess.run(["index", "stats", "--json"] + workspace.database)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        #expect(object["savedSearchPostingsBytes"] as? Int == saved)
        let text = try await SchedulerProcess.run(["index", "stats"] + workspace.database)
        #expect(text.stdout.contains("its saved search postings beside it: \(saved) bytes"), "\(text.stdout)")

        let without = ["--database", workspace.path("without.sqlite")]
        _ = try await SchedulerProcess.run(["index", "import", "-", "--no-search-postings"] + without, input: lines)
        let none = try await SchedulerProcess.run(["index", "stats", "--json"] + without)
        let noneObject = try #require(try JSONSerialization.jsonObject(with: Data(none.stdout.utf8)) as? [String: Any])
        #expect(noneObject["savedSearchPostingsBytes"] == nil)
        #expect((noneObject["databaseBytes"] as? Int ?? 0) > 0)
    }

    /// An import in batches too small to train a dictionary on at first leaves its first batch's descriptions as
    /// written: `index pack` packs them, and a search shows them as they were written.
    @Test func packPacksTheDescriptionsStoredAsWritten() async throws {
        let workspace = try Workspace()
        let syllables = ["ka", "lo", "ne", "mi", "ru", "sa", "vo", "ti", "che", "dra", "fen", "gor"]
        let lines = (0..<1_200).map { n in
            let words = (0..<20).map { k in syllables[(n * 7 + k * 5) % syllables.count] + syllables[(n + k * 3) % syllables.count] }
            return #"{"uniqueIdentifier":"i\#(n)","domainIdentifier":"com.test","title":"Item \#(n)","contentDescription":"unique\#(n)x \#(words.joined(separator: " "))"}"#
        }
        let imported = try await SchedulerProcess.run(
            ["index", "import", "-", "--batch-size", "600", "--no-search-postings"] + workspace.database, input: Data(lines.joined(separator: "\n").utf8)
        )
        #expect(imported.status == 0, "\(imported.stderr)")
        let packed = try await SchedulerProcess.run(["index", "pack"] + workspace.database)
        #expect(packed.status == 0, "\(packed.stderr)")
        #expect(packed.stdout.hasPrefix("packed 600 descriptions: "), "\(packed.stdout)")
        let again = try await SchedulerProcess.run(["index", "pack"] + workspace.database)
        #expect(again.stdout == "nothing to pack: every description worth packing is packed\n", "\(again.stdout)")
        let search = try await SchedulerProcess.run(["search", "unique7x", "--json"] + workspace.database)
        #expect(search.stdout.contains(#""contentDescription":"unique7x "#), "\(search.stdout)")

        let few = ["--database", workspace.path("few.sqlite")]
        _ = try await SchedulerProcess.run(["index", "import", "-"] + few, input: Data(lines.prefix(10).joined(separator: "\n").utf8))
        let none = try await SchedulerProcess.run(["index", "pack"] + few)
        #expect(none.status == 0 && none.stdout.hasPrefix("nothing packed: no dictionary to pack with (fewer than 1,000 distinct descriptions"), "\(none.stdout)")
    }

    @Test func theDatabaseComesFromTheConfigRelativeToItsFolder() async throws {
        let workspace = try Workspace()
        try workspace.write("conf/scheduler.yaml", "store:\n  sqlite: { path: ../var/index.sqlite }\n")
        let outcome = try await SchedulerProcess.run(
            ["index", "import", "-", "--config", workspace.path("conf")], input: Data(itemLine("a", title: "A").utf8)
        )
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: workspace.path("var/index.sqlite")))
    }

    @Test func aMissingConfigSaysWhatToDo() async throws {
        let workspace = try Workspace()
        let outcome = try await SchedulerProcess.run(["index", "stats", "--config", workspace.path("absent")])
        #expect(outcome.status != 0)
        #expect(outcome.stderr.contains("scheduler.yaml"))
        #expect(outcome.stderr.contains("--database"))
    }

    /// A process killed in the middle of an import keeps every batch it committed, and only those.
    @Test func aKilledImportKeepsItsCommittedBatchesWhole() async throws {
        let workspace = try Workspace()
        let (process, stdin, _, _) = try SchedulerProcess.start(["index", "import", "-", "--batch-size", "1000"] + workspace.database)
        let lines = (1...2500).map { itemLine("k\($0)", title: "Kept \($0)") }.joined(separator: "\n") + "\n"
        stdin.fileHandleForWriting.write(Data(lines.utf8))

        // Two batches commit; the last 500 items wait for more input that never comes.
        var count = 0
        for _ in 0..<600 where count < 2000 {
            try await Task.sleep(for: .milliseconds(50))
            let stats = try await SchedulerProcess.run(["index", "stats", "--json"] + workspace.database)
            count = (try? JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])?["total"] as? Int ?? 0
        }
        kill(process.processIdentifier, SIGKILL)
        _ = await process.exited()

        let stats = try await SchedulerProcess.run(["index", "stats", "--json"] + workspace.database)
        let total = (try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])?["total"] as? Int
        #expect(total == 2000)
        let last = try await SchedulerProcess.run(["search", "kept 2000", "--json"] + workspace.database)
        let uncommitted = try await SchedulerProcess.run(["search", "kept 2001", "--json"] + workspace.database)
        #expect(last.stdout.contains("\"uniqueIdentifier\":\"k2000\""), "the full-text index holds the last committed batch")
        #expect(!uncommitted.stdout.contains("\"uniqueIdentifier\":\"k2001\""), "and nothing of the uncommitted one")
    }

    @Test(arguments: [[], ["index"], ["index", "import"], ["index", "delete"], ["index", "stats"], ["index", "pack"], ["search"]])
    func everyCommandHasHelp(command: [String]) async throws {
        let outcome = try await SchedulerProcess.run(command + ["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("USAGE"))
    }
}
