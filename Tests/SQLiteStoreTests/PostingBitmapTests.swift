import FuzzSupport
@testable import Indexing
@testable import SQLiteStore
import ProcessSupport
import Testing

/// ``PostingBitmap`` and ``WordPostings`` held to a plain model (sets of ids, words compared byte by byte): sparse
/// chunks (arrays) and dense ones (bits, past 4,096 members), members added in order and out of it, first members
/// after a given one, intersections, unions and prefixes longer than the ones kept.
@Suite("Posting bitmaps against a model")
struct PostingBitmapTests {
    /// Ids as item rows take them: a band (`(100 - hint) << 40`), then a sequence.
    static func randomIDs(_ random: inout SeededGenerator) -> Set<Int64> {
        var ids = Set<Int64>()
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let band = Int64.random(in: 0...100, using: &random) << 40
            let start = band + Int64.random(in: 0...200_000, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: for _ in 0..<Int.random(in: 0...300, using: &random) { ids.insert(start + Int64.random(in: 0..<200_000, using: &random)) }
            case 1: for id in start..<(start + Int64.random(in: 4_000...20_000, using: &random)) where Int.random(in: 0..<4, using: &random) > 0 { ids.insert(id) }
            default: for id in start..<(start + 70_000) where Int.random(in: 0..<20, using: &random) == 0 { ids.insert(id) }
            }
        }
        return ids
    }

    static func bitmap(_ ids: Set<Int64>, _ random: inout SeededGenerator) -> PostingBitmap {
        var bitmap = PostingBitmap()
        let order = Bool.random(using: &random) ? ids.sorted() : ids.shuffled(using: &random)
        for id in order { bitmap.insert(id) }
        // Some twice: a member added again changes nothing.
        for id in order.prefix(50) { bitmap.insert(id) }
        return bitmap
    }

    static func members(_ bitmap: PostingBitmap) -> [Int64] {
        PostingBitmap.firstMembers(ofIntersection: [bitmap], limit: .max)
    }

    /// Runs `check`, seconds of pure CPU, on a thread of its own, so that the concurrency pool stays free for the
    /// other tests' servers and tasks; returns the problems it found. (Not on `DispatchQueue.global()`: on Linux its
    /// threads, one per core, are the ones Swift's tasks run on.)
    static func offThePool(_ check: @escaping @Sendable (inout Problems) -> Void) async throws -> [String] {
        try await onOwnThread {
            var problems = Problems()
            check(&problems)
            return problems.found
        }
    }

    /// What a check found wrong, by line.
    struct Problems {
        var found: [String] = []
        mutating func expect(_ holds: Bool, _ message: @autoclosure () -> String = "", line: Int = #line) {
            if !holds { found.append("line \(line): \(message())") }
        }
    }

    @Test func bitmapsHoldWhatTheModelHolds() async throws {
        let problems = try await Self.offThePool(Self.checkBitmapsAgainstTheModel)
        #expect(problems.isEmpty, "\(problems.prefix(10))")
    }

    static func checkBitmapsAgainstTheModel(_ problems: inout Problems) {
        var random = SeededGenerator(seed: 4096)
        for _ in 0..<12 {
            let models = (0..<Int.random(in: 1...3, using: &random)).map { _ in randomIDs(&random) }
            // Intersections need shared members: the later sets share part of the first.
            let sets = models.enumerated().map { index, set in index == 0 ? set : set.union(models[0].filter { _ in Int.random(in: 0..<3, using: &random) > 0 }) }
            let bitmaps = sets.map { bitmap($0, &random) }
            for (set, bitmap) in zip(sets, bitmaps) {
                problems.expect(members(bitmap) == set.sorted())
                for probe in set.prefix(20) { problems.expect(bitmap.contains(probe)) }
                for probe in set.prefix(20).map({ $0 + 1 }) where !set.contains(probe) { problems.expect(!bitmap.contains(probe)) }
            }
            let common = sets.dropFirst().reduce(sets[0]) { $0.intersection($1) }.sorted()
            problems.expect(members(PostingBitmap.intersection(bitmaps)) == common)
            problems.expect(members(PostingBitmap.intersection(ofUnions: [bitmaps])) == sets.reduce(Set()) { $0.union($1) }.sorted())
            for _ in 0..<10 {
                let after = Bool.random(using: &random) ? common.randomElement(using: &random) ?? sets[0].randomElement(using: &random) : nil
                let limit = [1, 20, 101, 5_000].randomElement(using: &random)!
                let expected = Array(common.filter { after == nil || $0 > after! }.prefix(limit))
                problems.expect(PostingBitmap.firstMembers(ofIntersection: bitmaps, after: after, limit: limit) == expected)
            }
            checkUnions(of: sets, bitmaps, &random, &problems)
            // The first set split at random into parts: each chunk's members spread over several bitmaps of a union.
            let parts = Dictionary(grouping: sets[0]) { _ in Int.random(in: 0..<4, using: &random) }.values.map(Set.init)
            checkUnions(of: sets + parts, bitmaps + parts.map { bitmap($0, &random) }, &random, &problems)
            problems.expect(PostingBitmap.firstMembers(ofIntersectionOfUnions: [bitmaps, []], limit: .max).isEmpty, "a union of none holds none")
        }
    }

    /// Intersections of unions of `bitmaps` (each the bitmap of the set at its index in `sets`), merged only in the
    /// chunks the walk reads, and read after members and after ids that are not members: the members the model holds.
    static func checkUnions(of sets: [Set<Int64>], _ bitmaps: [PostingBitmap], _ random: inout SeededGenerator, _ problems: inout Problems) {
        for _ in 0..<12 {
            let unions = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                Array(sets.indices.shuffled(using: &random).prefix(Int.random(in: 1...sets.count, using: &random)))
            }
            let held = unions.map { union in union.reduce(Set<Int64>()) { $0.union(sets[$1]) } }
            let all = held.dropFirst().reduce(held[0]) { $0.intersection($1) }.sorted()
            let member = all.randomElement(using: &random) ?? sets[0].randomElement(using: &random)
            let after = [nil, member, member.map { $0 + 1 }, member.map { $0 | 0xFFFF }, Int64.random(in: 0...(101 << 40), using: &random)]
                .randomElement(using: &random)!
            let limit = [1, 20, 101, 5_000, .max].randomElement(using: &random)!
            let expected = Array(all.filter { after == nil || $0 > after! }.prefix(limit))
            let found = PostingBitmap.firstMembers(ofIntersectionOfUnions: unions.map { $0.map { bitmaps[$0] } }, after: after, limit: limit)
            problems.expect(found == expected, "unions \(unions) after \(after.map(String.init) ?? "none"), limit \(limit)")
            problems.expect(members(PostingBitmap.intersection(ofUnions: unions.map { $0.map { bitmaps[$0] } })) == all, "the whole intersection of \(unions)")
        }
    }

    /// A bitmap's members cut at random points into parts (a build in segments), each built on its own, then
    /// concatenated: the bitmap built whole, chunk for chunk and container kind for kind (a chunk two parts share is an
    /// array while its members fit one), so that a file merged from segments is the file a build in memory saves.
    @Test func partsConcatenatedAreTheBitmapBuiltWhole() async throws {
        let problems = try await Self.offThePool { problems in
            var random = SeededGenerator(seed: 65_536)
            for _ in 0..<40 {
                let ids = Self.randomIDs(&random).sorted()
                // Some cuts inside a chunk, some at its start, some parts empty.
                var cuts = (0..<Int.random(in: 0...5, using: &random)).map { _ in Int.random(in: 0...ids.count, using: &random) }
                cuts += ids.indices.dropFirst().filter { ids[$0] >> 16 != ids[$0 - 1] >> 16 }.shuffled(using: &random).prefix(2)
                let bounds = [0] + cuts.sorted() + [ids.count]
                let parts = zip(bounds, bounds.dropFirst()).map { start, end in Self.bitmap(inOrder: ids[start..<end]) }
                let whole = Self.bitmap(inOrder: ids[...])
                problems.expect(Self.layout(PostingBitmap(concatenating: parts)) == Self.layout(whole), "\(ids.count) ids cut at \(bounds)")
            }
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    static func bitmap(inOrder ids: ArraySlice<Int64>) -> PostingBitmap {
        var bitmap = PostingBitmap()
        for id in ids { bitmap.insert(id) }
        return bitmap
    }

    /// Each chunk's key, kind and members.
    static func layout(_ bitmap: PostingBitmap) -> [String] {
        zip(bitmap.keys, bitmap.containers).map { key, container in
            let kind = container.withView { view in if case .array = view { "array" } else { "bits" } }
            return "\(key) \(kind) \(container.forEachMember())"
        }
    }

    /// Bitmaps saved to a file and read back (``SavedFileReader``) keep their members where they are in the mapped
    /// file, and hold what they held: alone, in intersections and unions with bitmaps in memory, and once new members
    /// are added (each chunk they land in copied out first), while the file keeps what was saved.
    @Test func bitmapsReadInPlaceFromASavedFileHoldWhatTheModelHoldsAndTakeNewMembers() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("bitmaps.saved")
        var random = SeededGenerator(seed: 2048)
        let first = Self.randomIDs(&random)
        let sets = [first] + (0..<5).map { _ in Self.randomIDs(&random).union(first.filter { _ in Bool.random(using: &random) }) }
        let file = try SavedFileWriter(replacing: path)
        try file.write(UInt8(7))  // an odd start: the members must be aligned all the same
        for set in sets { try Self.bitmap(set, &random).write(to: file) }
        try file.finish()

        let read = try Self.readBitmaps(sets.count, from: path)
        for (bitmap, set) in zip(read, sets) {
            #expect(bitmap.containers.allSatisfy { if case .mapped = $0 { true } else { false } }, "read in place, not copied")
            #expect(Self.members(bitmap) == set.sorted())
        }
        let inMemory = sets.map { Self.bitmap($0, &random) }
        let mixed = [read[0], inMemory[1], read[2]]
        #expect(Self.members(PostingBitmap.intersection(mixed)) == sets[0].intersection(sets[1]).intersection(sets[2]).sorted())
        #expect(Self.members(PostingBitmap.intersection(ofUnions: [[read[3], inMemory[4]]])) == sets[3].union(sets[4]).sorted())
        var problems = Problems()
        Self.checkUnions(of: sets + sets, read + inMemory, &random, &problems)
        #expect(problems.found.isEmpty, "\(problems.found.prefix(10))")

        var changed = read
        var models = sets
        for index in changed.indices {
            let near = models[index].randomElement(using: &random)!
            for _ in 0..<300 {
                let id = [near + Int64.random(in: -5_000...5_000, using: &random), Int64.random(in: 0...(1 << 41), using: &random)].randomElement(using: &random)!
                changed[index].insert(id)
                models[index].insert(id)
            }
            #expect(Self.members(changed[index]) == models[index].sorted())
        }
        #expect(try Self.readBitmaps(sets.count, from: path).map(Self.members) == sets.map { $0.sorted() }, "the file is unchanged")
    }

    /// The `count` bitmaps the file at `path` holds after its first byte.
    static func readBitmaps(_ count: Int, from path: String) throws -> [PostingBitmap] {
        guard var file = try SavedFileReader(path: path) else { throw SavedFileReader.Unusable(reason: "no file at \(path)") }
        _ = try file.read(UInt8.self)
        var bitmaps: [PostingBitmap] = []
        for _ in 0..<count { bitmaps.append(try PostingBitmap(reading: &file)) }
        try file.verifyChecksum()
        return bitmaps
    }

    /// With `hashMask` 3, words are numbered by two bits of their hash: most collide, and are told apart by their bytes.
    @Test(arguments: [~0, 3])
    func wordPostingsFindWhatAByteComparisonOfTheFoldedWordsFinds(hashMask: Int) async throws {
        let problems = try await Self.offThePool { Self.checkWordPostingsAgainstTheModel(&$0, hashMask: hashMask) }
        #expect(problems.isEmpty, "\(problems.prefix(10))")
    }

    static func checkWordPostingsAgainstTheModel(_ problems: inout Problems, hashMask: Int) {
        let words = ["camembert", "cambridge", "camel", "cat", "Ça", "çava", "éclair", "eclairage", "straße", "strasse", "日本語", "日本", "x1", "x10", "ǅungla", "naïveté"]
        var random = SeededGenerator(seed: 66)
        var postings = WordPostings(hashMask: hashMask)
        var model: [Int64: [[UInt8]]] = [:]
        for round in 0..<3 {
            // Ids 997 apart: the rows spread over fourteen chunks.
            for id in stride(from: Int64(round * 300 * 997), to: Int64((round * 300 + 300) * 997), by: 997) {
                let text = (0..<Int.random(in: 1...4, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
                postings.add(id, wordsOf: [text, nil])
                TextFolding.forEachWord(in: text) { word in
                    model[id, default: []].append(Array(word))
                    return true
                }
            }
            postings.sortNewWords()
            for typed in words + ["c", "ca", "cam", "camemb", "camembe", "eclai", "eclaira", "日", "x", "x1", "straß", "dzungl", "naivete"] {
                let term = SearchTerms(typed).words[0]
                for match in [WordMatch.prefix(term), .whole(term)] {
                    let expected = model.keys.sorted().filter { id in
                        model[id]!.contains { word in
                            if case .prefix = match { word.starts(with: term.utf8) } else { word.elementsEqual(term.utf8) }
                        }
                    }
                    problems.expect(postings.firstMembers(matching: match, limit: .max) == expected, "\(match) after round \(round)")
                }
            }
            // Trees as typo corrections and synonyms make them: any of a prefix and whole words, all of those.
            for _ in 0..<40 {
                func word() -> String { SearchTerms(words.randomElement(using: &random)!).words[0] }
                func leaf() -> WordMatch {
                    Bool.random(using: &random) ? .prefix(String(word().prefix(Int.random(in: 1...8, using: &random)))) : .whole(word())
                }
                let parts = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                    Int.random(in: 0..<3, using: &random) == 0 ? .any((0..<Int.random(in: 2...4, using: &random)).map { _ in leaf() }) : leaf()
                }
                let match = parts.count == 1 && Bool.random(using: &random) ? parts[0] : .all(parts + (Bool.random(using: &random) ? [.any([.all([leaf(), leaf()]), leaf()])] : []))
                let expected = model.keys.sorted().filter { id in
                    match.isSatisfied { term, isPrefix in
                        model[id]!.contains { isPrefix ? $0.starts(with: term.utf8) : $0.elementsEqual(term.utf8) }
                    }
                }
                let after = Bool.random(using: &random) ? expected.randomElement(using: &random) : nil
                let found = postings.firstMembers(matching: match, after: after, limit: 50)
                problems.expect(found == Array(expected.filter { after == nil || $0 > after! }.prefix(50)), "\(match) after round \(round)")
            }
        }
    }
}

extension PostingBitmap.Container {
    /// Its members, in order.
    func forEachMember() -> [UInt16] {
        var members: [UInt16] = []
        _ = forEach(after: nil) { members.append($0); return true }
        return members
    }
}
