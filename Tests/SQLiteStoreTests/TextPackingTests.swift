import Foundation
import FuzzSupport
import GRDB
@testable import Indexing
import Logging
import PluginAPI
import ProcessSupport
@testable import SQLiteStore
import Testing

/// Items' descriptions packed with a dictionary the index trains on them (``TextPacking``, ``PackedText``), held to
/// what was written: every read gives the text back, the search postings hold the same words as for text
/// stored plain, and a damaged value fails a search with its reason instead of answering garbage or trapping.
@Suite("Packed descriptions", .timeLimit(.minutes(3)))
struct TextPackingTests {
    /// Words made of syllables, so that descriptions repeat pieces as prose does (what a dictionary learns).
    static let words: [String] = {
        let syllables = ["ka", "lo", "ne", "mi", "ru", "sa", "vo", "ti", "che", "dra", "fen", "gor", "pla", "qui", "str", "zen", "é", "ß", "日本"]
        var random = SeededGenerator(seed: 7)
        return (0..<600).map { _ in (0..<Int.random(in: 1...4, using: &random)).map { _ in syllables.randomElement(using: &random)! }.joined() }
    }()

    static func description(_ random: inout SeededGenerator) -> String {
        (0..<Int.random(in: 12...40, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
    }

    /// Items `prefix<n>` for `ids`, each with a description of its own starting with a word no other item holds
    /// (``word(_:_:)``).
    static func items(_ ids: Range<Int>, prefix: String = "i", domain: String = "com.test", _ random: inout SeededGenerator) -> [SearchableItem] {
        ids.map { n in
            item("\(prefix)\(n)", domain: domain, title: "title \(n)", description: word(prefix, n) + " " + description(&random))
        }
    }

    /// The word only item `prefix<n>` holds, and no other's a prefix of.
    static func word(_ prefix: String, _ n: Int) -> String { "w\(prefix)\(n)z" }

    static func index(_ directory: TemporaryDirectory, postings: SearchPostingsFields = .all) throws -> SQLiteSearchIndex {
        try SQLiteSearchIndex(
            path: directory.path("index.sqlite"), searchCacheEntries: 0, postings: postings, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        )
    }

    /// How each item's description is stored: `typeof` by identifier.
    static func storage(_ index: SQLiteSearchIndex) async throws -> [String: String] {
        try await index.database.read { db in
            try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT uniqueIdentifier, typeof(contentDescription) FROM item").map { ($0[0], $0[1]) })
        }
    }

    static func lastCommit(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT lastNumber FROM index_commit") ?? 0
    }

    static func dictionaries(_ index: SQLiteSearchIndex) async throws -> Int {
        try await index.database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM text_dictionary") ?? 0 }
    }

    /// The first hit of a search for `word` (others are typo corrections), with the description it shows.
    static func firstHit(_ word: String, in index: SQLiteSearchIndex) async throws -> SearchHit? {
        try await index.search(SearchQuery(text: word)).hits.first
    }

    static func found(_ word: String, in index: SQLiteSearchIndex) async throws -> [String] {
        try await index.search(SearchQuery(text: word)).hits.map(\.uniqueIdentifier)
    }

    @Test func descriptionsArePackedOnceEnoughAreWrittenAndEveryReadGivesThemBack() async throws {
        let directory = try TemporaryDirectory()
        let index = try Self.index(directory)
        var random = SeededGenerator(seed: 1)
        let early = Self.items(0..<(TextPacking.minSamples - 1), &random)
        try await index.commit(IndexBatch(operations: [.upsert(early)]))
        #expect(try await Self.dictionaries(index) == 0, "too few descriptions to learn from")
        let later = Self.items(TextPacking.minSamples..<(TextPacking.minSamples + 50), &random)
            + [item("short", description: "a few words"), item("none")]
        try await index.commit(IndexBatch(operations: [.upsert(later)]))
        #expect(try await Self.dictionaries(index) == 1)
        let stored = try await Self.storage(index)
        #expect(early.allSatisfy { stored[$0.uniqueIdentifier] == "text" }, "rows written before the dictionary stay as they are")
        #expect(later.dropLast(2).allSatisfy { stored[$0.uniqueIdentifier] == "blob" }, "rows written with it are packed")
        #expect(stored["short"] == "text" && stored["none"] == "null")

        let size = try await index.database.read { db in
            try (Int.fetchOne(db, sql: "SELECT sum(length(contentDescription)) FROM item WHERE typeof(contentDescription) = 'blob'") ?? 0,
                 Int.fetchOne(db, sql: "SELECT sum(length(item_text(contentDescription))) FROM item WHERE typeof(contentDescription) = 'blob'") ?? 0)
        }
        #expect(size.0 * 2 < size.1, "packed \(size.0) bytes of \(size.1): less than half")

        // Through a scan of the rows (before any postings), then through the postings built from the rows.
        for postings in [false, true] {
            if postings { try await index.buildSearchPostings() }
            for written in [early[3], later[7], later[later.count - 3]] {
                let hit = try await Self.firstHit(written.contentDescription!.split(separator: " ")[0].description, in: index)
                #expect(hit?.uniqueIdentifier == written.uniqueIdentifier)
                #expect(hit?.contentDescription == written.contentDescription, "the description shown is the one written")
            }
        }
        #expect(try await index.item(withIdentifier: later[0].uniqueIdentifier)?.contentDescription == later[0].contentDescription)
        // A row stored plain, rewritten: packed, its old words gone.
        var rewritten = early[3]
        rewritten.contentDescription = "wnew3z " + Self.description(&random)
        try await index.commit(IndexBatch(operations: [.upsert([rewritten])]))
        #expect(try await Self.storage(index)[rewritten.uniqueIdentifier] == "blob")
        #expect(try await Self.firstHit("wnew3z", in: index)?.contentDescription == rewritten.contentDescription)
        #expect(try await !Self.found(early[3].contentDescription!.split(separator: " ")[0].description, in: index).contains(rewritten.uniqueIdentifier))
    }

    @Test(arguments: [SearchPostingsFields.off, .all])
    func rewritesAndDeletionsOfPackedRowsLeaveNoWordBehind(postings: SearchPostingsFields) async throws {
        let directory = try TemporaryDirectory()
        let index = try Self.index(directory, postings: postings)
        var random = SeededGenerator(seed: 2)
        try await index.commit(IndexBatch(operations: [.upsert(Self.items(0..<1_200, &random) + Self.items(0..<100, prefix: "o", domain: "com.other", &random))]))
        if postings != .off { try await index.buildSearchPostings() }
        #expect(try await Self.dictionaries(index) == 1)
        let sent = try await index.database.read { db in try Self.lastCommit(db) }
        // Rewritten with other descriptions, deleted one by one, a domain purged, then the other domain's items not
        // sent again swept as a run's end sweeps them, and the purged rows reclaimed.
        try await index.commit(IndexBatch(operations: [
            .upsert(Self.items(0..<40, prefix: "i", &random).map { var rewritten = $0; rewritten.contentDescription = "rewritten \(Self.description(&random))"; return rewritten }),
            .deleteIdentifiers((40..<60).map { "i\($0)" }),
            .deleteDomains(["com.other"]),
        ]))
        try await index.commit(IndexBatch(operations: [
            .upsert(Self.items(100..<1_200, prefix: "i", &random).map { var resent = $0; resent.contentDescription = "resent " + resent.contentDescription!; return resent }),
            .deleteStale(domain: "com.test", committedThrough: sent),
        ]))
        _ = try await index.reclaimPurgedItems(limit: 1_000)
        #expect(try await index.database.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE item_text(contentDescription) LIKE 'resent %'")
        } == 1_100)
        for (gone, id) in [(Self.word("i", 5), "i5"), (Self.word("i", 39), "i39"), (Self.word("i", 45), "i45"), (Self.word("o", 3), "o3"), (Self.word("i", 70), "i70")] {
            #expect(try await !Self.found(gone, in: index).contains(id), "\(gone) left with the description that held it")
        }
        #expect(try await index.search(SearchQuery(text: "rewritten")).total == 40, "sent again after the sweep's commit")
        #expect(try await Self.firstHit(Self.word("i", 100), in: index)?.uniqueIdentifier == "i100")
    }

    @Test func anotherProcessReadsRowsPackedWithADictionaryItNeverSaw() async throws {
        let directory = try TemporaryDirectory()
        let writer = try Self.index(directory), reader = try Self.index(directory, postings: .off)
        #expect(try await reader.search(SearchQuery(text: Self.word("i", 7))).hits.isEmpty)
        var random = SeededGenerator(seed: 3)
        let written = Self.items(0..<1_100, &random)
        try await writer.commit(IndexBatch(operations: [.upsert(written)]))
        #expect(try await Self.firstHit(Self.word("i", 7), in: reader)?.contentDescription == written[7].contentDescription)
        // And writes with it: the dictionary the other trained, not one of its own.
        let more = Self.items(0..<5, prefix: "r", &random)
        try await reader.commit(IndexBatch(operations: [.upsert(more)]))
        #expect(try await Self.dictionaries(reader) == 1)
        #expect(try await Self.storage(writer)["r2"] == "blob")
        #expect(try await Self.firstHit(Self.word("r", 2), in: writer)?.contentDescription == more[2].contentDescription)
    }

    /// A dictionary's id is taken from its bytes: one a process trained in a transaction that rolled back (and may
    /// hold) never stands for another's.
    @Test func aDictionaryTrainedByATransactionThatRolledBackNeverStandsForAnother() async throws {
        let directory = try TemporaryDirectory()
        let index = try Self.index(directory, postings: .off), other = try Self.index(directory, postings: .off)
        var random = SeededGenerator(seed: 4)
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            _ = try await index.commit(IndexBatch(operations: [.upsert(Self.items(0..<1_100, &random))]), alongside: { _, _ in throw Refused() })
        }
        #expect(try await Self.dictionaries(index) == 0)
        // Another process trains on other text: other bytes, so another id; what it packs reads back here.
        let written = Self.items(0..<1_100, prefix: "k", &random).map { var item = $0; item.contentDescription = item.contentDescription!.uppercased(); return item }
        try await other.commit(IndexBatch(operations: [.upsert(written)]))
        #expect(try await Self.dictionaries(index) == 1)
        #expect(try await Self.firstHit(Self.word("k", 9), in: index)?.contentDescription == written[9].contentDescription)
    }

    /// Values a damaged file (or another tool) could hold, each with what the warning says of it.
    static let damage: [(name: String, bytes: [UInt8], says: String)] = [
        ("another format", [2, 1, 60, 0, 0, 0], "is not a packed text"),
        ("an unknown dictionary", PackedText.header(dictionary: 99, length: 60) + [0, 0, 0], "the text dictionary 99 of the index is missing"),
        ("a frame cut short", [], "cannot be unpacked"),
        ("a length past the bound", PackedText.header(dictionary: 1, length: PackedText.maxTextBytes + 1) + [0, 0], "is not a packed text"),
        ("a length other than the frame's", [], "bytes where its header says"),
        ("an empty value", [], "is not a packed text"),
    ]

    @Test(arguments: 0..<6)
    func aDamagedValueReadsAsNoneSaidOnceAndItsRowCanBeWrittenAgain(_ which: Int) async throws {
        let directory = try TemporaryDirectory()
        let log = LogRecorder()
        let index = try SQLiteSearchIndex(path: directory.path("index.sqlite"), searchCacheEntries: 0, postings: .off, logger: log.logger())
        var random = SeededGenerator(seed: 5)
        let written = Self.items(0..<1_100, &random)
        try await index.commit(IndexBatch(operations: [.upsert(written)]))
        let (name, bytes, says) = Self.damage[which]
        try await index.database.write { db in
            let packed = try Data.fetchOne(db, sql: "SELECT contentDescription FROM item WHERE uniqueIdentifier = 'i7'")!
            let header = try packed.withUnsafeBytes { try #require(PackedText.readHeader($0)) }
            let damaged: Data = switch name {
            case "a frame cut short": packed.prefix(header.frameStart + 3)
            case "a length other than the frame's": Data(PackedText.header(dictionary: header.dictionary, length: header.length + 5)) + packed[header.frameStart...]
            default: Data(bytes)
            }
            try db.execute(sql: "UPDATE item SET contentDescription = ? WHERE uniqueIdentifier = 'i7'", arguments: [damaged])
        }
        for _ in 0..<2 {
            #expect(try await index.search(SearchQuery(text: Self.word("i", 7))).hits.isEmpty, "\(name): its description's words are none")
            let hit = try await index.search(SearchQuery(text: "title 7", limit: 200)).hits.first { $0.uniqueIdentifier == "i7" }
            #expect(hit != nil && hit?.contentDescription == nil, "\(name): found by its title, shown without its description")
        }
        #expect(index.textPacking.dictionaries.damagedValuesRead >= 2)
        let warnings = log.messages.filter { $0.contains("the file is damaged") }
        #expect(warnings.count == 1 && warnings.allSatisfy { $0.contains(says) }, "\(name): \(warnings)")
        #expect(try await Self.firstHit(Self.word("i", 512), in: index)?.contentDescription == written[512].contentDescription, "the other rows read as before")
        // Written again by its source, then deleted: neither is stopped by what it held.
        var again = written[7]
        again.contentDescription = "wagain7z " + Self.description(&random)
        try await index.commit(IndexBatch(operations: [.upsert([again])]))
        #expect(try await Self.firstHit("wagain7z", in: index)?.contentDescription == again.contentDescription)
        try await index.commit(IndexBatch(operations: [.deleteIdentifiers(["i7"])]))
        #expect(try await Self.firstHit("wagain7z", in: index) == nil)
    }

    /// A write too small to train on, then one large enough: the large one trains the dictionary and is packed, as is
    /// the same large write tried again after its transaction rolled back.
    @Test(arguments: [false, true])
    func aLargeWriteAfterSmallOnesOrARollbackTrainsTheDictionary(rolledBack: Bool) async throws {
        let directory = try TemporaryDirectory()
        let index = try Self.index(directory, postings: .off)
        var random = SeededGenerator(seed: 9)
        let large = Self.items(0..<1_100, &random)
        struct Refused: Error {}
        if rolledBack {
            await #expect(throws: Refused.self) {
                _ = try await index.commit(IndexBatch(operations: [.upsert(large)]), alongside: { _, _ in throw Refused() })
            }
        } else {
            try await index.commit(IndexBatch(operations: [.upsert(Self.items(0..<50, prefix: "s", &random))]))
        }
        try await index.commit(IndexBatch(operations: [.upsert(large)]))
        #expect(try await Self.dictionaries(index) == 1)
        let stored = try await Self.storage(index)
        #expect(large.allSatisfy { stored[$0.uniqueIdentifier] == "blob" })
    }

    /// A dictionary whose bytes are damaged: what it packed reads as none, said once, and writes go on, as written.
    @Test func aDamagedDictionaryLeavesWritesGoingOnAsWritten() async throws {
        let directory = try TemporaryDirectory()
        var random = SeededGenerator(seed: 10)
        let written = Self.items(0..<1_100, &random)
        try await Self.index(directory).commit(IndexBatch(operations: [.upsert(written)]))
        // Zstandard's magic number, then what no dictionary holds (without the number, any bytes are a dictionary).
        let damaged = Data([0x37, 0xA4, 0x30, 0xEC, 1, 2, 3, 4] + [UInt8](repeating: 0, count: 56))
        try await Self.index(directory).database.write { db in try db.execute(sql: "UPDATE text_dictionary SET bytes = ?", arguments: [damaged]) }
        let log = LogRecorder()
        let index = try SQLiteSearchIndex(path: directory.path("index.sqlite"), searchCacheEntries: 0, postings: .off, logger: log.logger())
        let more = Self.items(0..<3, prefix: "m", &random)
        try await index.commit(IndexBatch(operations: [.upsert(more)]))
        #expect(try await Self.storage(index)["m1"] == "text")
        #expect(try await Self.firstHit(Self.word("m", 1), in: index)?.contentDescription == more[1].contentDescription)
        #expect(try await index.search(SearchQuery(text: Self.word("i", 4))).hits.isEmpty, "its description's words are none")
        let hit = try await index.search(SearchQuery(text: "title 4", limit: 200)).hits.first { $0.uniqueIdentifier == "i4" }
        #expect(hit != nil && hit?.contentDescription == nil)
        let warnings = log.messages.filter { $0.contains("the file is damaged") }
        #expect(warnings.count == 1 && warnings[0].contains("cannot be read by Zstandard"), "\(warnings)")
    }

    /// A database an earlier release wrote, every description as written: packed in place, a few rows a transaction,
    /// and searched as before.
    @Test func descriptionsStoredAsWrittenArePackedInPlaceAndFoundAsBefore() async throws {
        let directory = try TemporaryDirectory()
        var random = SeededGenerator(seed: 6)
        let written = Self.items(0..<2_500, &random) + [item("short", description: "a few words")]
        try await Self.index(directory).commit(IndexBatch(operations: [.upsert(written)]))
        try await Self.index(directory).database.write { db in
            try db.execute(sql: "UPDATE item SET contentDescription = item_text(contentDescription); DELETE FROM text_dictionary")
        }
        let index = try Self.index(directory)
        let queries = [Self.word("i", 3), Self.word("i", 2_400), Self.words[5], Self.words[17] + " " + Self.words[40], "title 12"]
        func answers() async throws -> [[String]] {
            var answers: [[String]] = []
            for query in queries {
                answers.append(try await index.search(SearchQuery(text: query)).hits.map { "\($0.uniqueIdentifier) \($0.contentDescription ?? "")" })
            }
            return answers
        }
        let before = try await answers()
        try await index.buildSearchPostings()
        let packed = try #require(try await index.packStoredDescriptions(rowsATransaction: 700))
        #expect(packed.descriptions == 2_500 && packed.bytesPacked * 2 < packed.bytesAsWritten, "\(packed)")
        let stored = try await Self.storage(index)
        #expect(written.dropLast().allSatisfy { stored[$0.uniqueIdentifier] == "blob" } && stored["short"] == "text")
        #expect(try await answers() == before, "the same hits, through the postings built before the rows were packed")
        #expect(try await index.packStoredDescriptions() == SQLiteSearchIndex.DescriptionsPacked(), "nothing left to pack")
        // A new process builds its postings from the packed rows and finds the same.
        let restarted = try Self.index(directory)
        try await restarted.buildSearchPostings()
        for (query, hits) in zip(queries, before) {
            #expect(try await restarted.search(SearchQuery(text: query)).hits.map { "\($0.uniqueIdentifier) \($0.contentDescription ?? "")" } == hits)
        }
    }

    @Test func tooFewDescriptionsToLearnFromAreLeftAsWritten() async throws {
        let directory = try TemporaryDirectory()
        let index = try Self.index(directory)
        var random = SeededGenerator(seed: 8)
        try await index.commit(IndexBatch(operations: [.upsert(Self.items(0..<300, &random))]))
        #expect(try await index.packStoredDescriptions() == nil)
        #expect(try await Self.storage(index).values.allSatisfy { $0 == "text" })
    }

    /// The postings against a scan of the rows (``SearchPostingsTests``) on packed rows: the same hits, scores and totals, before and
    /// after rewrites.
    @Test func searchesOfPackedRowsAnswerAsFullText() async throws {
        let pair = try SearchPostingsTests.Pair(allFields: true)
        var random = SeededGenerator(seed: 11)
        func items(_ ids: Range<Int>) -> [SearchableItem] {
            ids.map { n in
                var made = SearchPostingsTests.randomItem("i\(n)", &random)
                made.contentDescription = (made.contentDescription ?? "") + " " + Self.description(&random)
                return made
            }
        }
        try await pair.keeping.commit(IndexBatch(operations: [.upsert(items(0..<1_200))]))
        #expect(try await Self.dictionaries(pair.keeping) == 1)
        try await pair.keeping.buildSearchPostings()
        var answered = 0
        for round in 0..<2 {
            for _ in 0..<40 { answered += try await pair.expectSameResults(try SearchPostingsTests.randomQuery(&random)) }
            if round == 0 { try await pair.plain.commit(IndexBatch(operations: [.upsert(items(0..<150)), .deleteIdentifiers(["i400", "i401"])])) }
        }
        #expect(answered > 20, "the postings answered \(answered) batches")
    }

    @Test func aFileALaterReleaseMigratedIsRefused() async throws {
        let directory = try TemporaryDirectory()
        try await Self.index(directory).database.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')")
        }
        let error = #expect(throws: IndexError.self) { _ = try Self.index(directory) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("a later release of the scheduler changed its schema (v99-from-the-future)"))
    }

    @Test func headersReadBackAndHostileOnesAreRefused() {
        for (dictionary, length) in [(1, 48), (300, 16_000), (Int64.max, PackedText.maxTextBytes)] as [(Int64, Int)] {
            let bytes = PackedText.header(dictionary: dictionary, length: length) + [0]
            let header = bytes.withUnsafeBytes { PackedText.readHeader($0) }
            #expect(header == PackedText.Header(dictionary: dictionary, length: length, frameStart: bytes.count - 1))
        }
        let hostile: [[UInt8]] = [
            [], [1], [1, 1], [1, 1, 1], [0, 1, 1, 0], [1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 1, 0],
            [1, 1, 0, 0], PackedText.header(dictionary: 1, length: 10) , [1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 1, 0],
        ]
        for bytes in hostile { #expect(bytes.withUnsafeBytes { PackedText.readHeader($0) } == nil, "\(bytes)") }
    }
}
