package import Indexing

/// Which items hold each word of some of their fields, and each prefix of those words up to ``prefixLetters``
/// letters, as ``PostingBitmap``s: what a search scan asks of a word index ("the first `k` items, in priority
/// order, whose words match"), answered without walking every item that holds a common prefix.
///
/// Words are folded as every store folds them (``TextFolding``) and compared by their UTF-8 bytes, as SQLite
/// compares them. Members are only added: an item rewritten without a word keeps it here, so what this answers is
/// a superset of the items that match now, which the caller narrows (``WordMatch/isSatisfied(byWordsOf:)``).
package struct WordPostings: Sendable {
    /// Prefixes of up to this many letters (Unicode scalars, as FTS5 counted them) have a bitmap of their own; a longer
    /// one is the union of the words that start with it, merged only where a search reads it.
    package static let prefixLetters = 4

    /// Each word's bitmap, and the numbers (in ``prefixBitmaps``) of its prefixes' bitmaps, by the word's number.
    private var wordBitmaps: [PostingBitmap] = []
    private var wordPrefixes: [[Int32]] = []
    private var prefixBitmaps: [PostingBitmap] = []
    /// Each word's folded bytes, by its number.
    private var wordBytes: [[UInt8]] = []
    /// Word numbers by the hash of their bytes (``hash(_:)``): a word is found without copying its bytes, once per
    /// occurrence. A word whose hash another took first is kept in ``collidedWords`` instead.
    private var wordsByHash: [Int: Int32] = [:]
    private var collidedWords: [[UInt8]: Int32] = [:]
    private var prefixNumbers: [[UInt8]: Int32] = [:]
    /// The numbers of the words in byte order, for the words a longer prefix starts; those of the words added since it
    /// was last sorted wait in ``unsortedWords``.
    private var vocabulary: [Int32] = []
    private var unsortedWords: [Int32] = []
    /// The bits of a word's hash that number it: all of them, but for tests that make most words collide.
    private let hashMask: Int

    package init(hashMask: Int = ~0) {
        self.hashMask = hashMask
    }

    /// Adds `id` to the bitmaps of the words of `texts` and of their prefixes.
    package mutating func add(_ id: Int64, wordsOf texts: [String?]) {
        for case let text? in texts {
            TextFolding.forEachWord(in: text) { word in
                add(id, word: word)
                return true
            }
        }
    }

    /// Adds `id` to the bitmaps of one folded `word` and of its prefixes. A build adds a row's words one after the
    /// other, so a bitmap `id` already joined (a word or prefix the row holds twice) costs a comparison.
    package mutating func add(_ id: Int64, word: UnsafeBufferPointer<UInt8>) {
        let number = Int(self.number(of: word))
        wordBitmaps[number].insert(id)
        for prefix in wordPrefixes[number] { prefixBitmaps[Int(prefix)].insert(id) }
    }

    /// The number of `word`, given it (with its prefixes') when it is new.
    private mutating func number(of word: UnsafeBufferPointer<UInt8>) -> Int32 {
        let hash = hash(word)
        if let number = wordsByHash[hash] {
            if wordBytes[Int(number)].elementsEqual(word) { return number }
            if let number = collidedWords[Array(word)] { return number }
        }
        let key = Array(word), number = Int32(wordBytes.count)
        if wordsByHash[hash] == nil { wordsByHash[hash] = number } else { collidedWords[key] = number }
        var prefixes: [Int32] = []
        var letters = 0
        for end in 1...word.count where end == word.count || word[end] & 0xC0 != 0x80 {
            letters += 1
            let prefix = Array(word[0..<end])
            if let known = prefixNumbers[prefix] {
                prefixes.append(known)
            } else {
                prefixNumbers[prefix] = Int32(prefixBitmaps.count)
                prefixes.append(Int32(prefixBitmaps.count))
                prefixBitmaps.append(PostingBitmap())
            }
            if letters == Self.prefixLetters { break }
        }
        wordBytes.append(key)
        wordBitmaps.append(PostingBitmap())
        wordPrefixes.append(prefixes)
        unsortedWords.append(number)
        return number
    }

    private func hash(_ word: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(word))
        return hasher.finalize() & hashMask
    }

    /// Makes the words added since the last call findable by a prefix longer than ``prefixLetters``: call it after
    /// adding, before searching.
    package mutating func sortNewWords() {
        guard !unsortedWords.isEmpty else { return }
        let added = unsortedWords.sorted { wordBytes[Int($0)].lexicographicallyPrecedes(wordBytes[Int($1)]) }
        unsortedWords = []
        guard !vocabulary.isEmpty else {
            vocabulary = added
            return
        }
        var merged: [Int32] = []
        merged.reserveCapacity(vocabulary.count + added.count)
        var i = 0, j = 0
        while i < vocabulary.count || j < added.count {
            if j == added.count || (i < vocabulary.count && wordBytes[Int(vocabulary[i])].lexicographicallyPrecedes(wordBytes[Int(added[j])])) {
                merged.append(vocabulary[i])
                i += 1
            } else {
                merged.append(added[j])
                j += 1
            }
        }
        vocabulary = merged
    }

    /// The first `limit` members greater than `after`, in order, whose words satisfy `match` (or once did).
    package func firstMembers(matching match: WordMatch, after: Int64? = nil, limit: Int) -> [Int64] {
        let parts: [WordMatch] = if case .all(let parts) = match { parts } else { [match] }
        return PostingBitmap.firstMembers(ofIntersectionOfUnions: parts.map(bitmaps), after: after, limit: limit)
    }

    /// The number of the word `bytes`, if held.
    private func wordNumber(_ bytes: [UInt8]) -> Int32? {
        let number = bytes.withUnsafeBufferPointer { wordsByHash[hash($0)] }
        guard let number else { return nil }
        return wordBytes[Int(number)] == bytes ? number : collidedWords[bytes]
    }

    /// The bitmaps whose union holds the members whose words satisfy `match`: a walk merges them only in the chunks
    /// it reads (``PostingBitmap/firstMembers(ofIntersectionOfUnions:after:limit:)``).
    private func bitmaps(_ match: WordMatch) -> [PostingBitmap] {
        switch match {
        case .whole(let word): wordNumber(Array(word.utf8)).map { [wordBitmaps[Int($0)]] } ?? []
        case .prefix(let prefix): bitmaps(startingWith: Array(prefix.utf8))
        case .all(let parts): [PostingBitmap.intersection(ofUnions: parts.map(bitmaps))]
        case .any(let parts): parts.flatMap(bitmaps)
        }
    }

    /// The bitmap of `prefix` when it has one of its own (up to ``prefixLetters`` letters), else the bitmaps of the
    /// words it starts.
    private func bitmaps(startingWith prefix: [UInt8]) -> [PostingBitmap] {
        if prefix.lazy.filter({ $0 & 0xC0 != 0x80 }).count <= Self.prefixLetters {
            return prefixNumbers[prefix].map { [prefixBitmaps[Int($0)]] } ?? []
        }
        var low = 0, high = vocabulary.count
        while low < high {
            let middle = (low + high) / 2
            if wordBytes[Int(vocabulary[middle])].lexicographicallyPrecedes(prefix) { low = middle + 1 } else { high = middle }
        }
        var found: [PostingBitmap] = []
        while low < vocabulary.count, wordBytes[Int(vocabulary[low])].starts(with: prefix) {
            found.append(wordBitmaps[Int(vocabulary[low])])
            low += 1
        }
        return found
    }

    /// How many distinct words are held.
    package var wordCount: Int { wordBytes.count }

    /// The bytes the bitmaps and the words take, roughly (without the dictionaries' own tables).
    package var bytes: Int {
        wordBitmaps.reduce(0) { $0 + $1.bytes } + wordBytes.reduce(0) { $0 + $1.count + 32 } + wordPrefixes.reduce(0) { $0 + $1.count * 4 + 32 }
            + prefixBitmaps.reduce(0) { $0 + $1.bytes } + prefixNumbers.reduce(0) { $0 + $1.key.count + 40 } + wordsByHash.count * 16 + vocabulary.count * 4
    }
}

extension WordPostings {
    /// Writes each word's bytes and bitmap in number order, then each prefix's: the rest (the numbers by hash, each
    /// word's prefixes, the sorted vocabulary) is made again when read, in this process's hashing. After a build in
    /// segments, each bitmap is the segments' members of it (``PostingsSegments/Segment/members(of:counts:)``), in
    /// their order, then those held.
    func write(to file: SavedFileWriter, after segments: [PostingsSegments.Segment] = []) throws {
        let wordCounts = try segments.map { try $0.count() }
        try file.write(UInt32(wordBytes.count))
        for (number, (bytes, bitmap)) in zip(wordBytes, wordBitmaps).enumerated() {
            try file.write(counted: bytes)
            try PostingBitmap(concatenating: segments.members(of: number, counts: wordCounts) + [bitmap]).write(to: file)
        }
        let prefixCounts = try segments.map { try $0.count() }
        try file.write(UInt32(prefixNumbers.count))
        for (bytes, number) in prefixNumbers.sorted(by: { $0.value < $1.value }) {
            try file.write(counted: bytes)
            let members = try segments.members(of: Int(number), counts: prefixCounts) + [prefixBitmaps[Int(number)]]
            try PostingBitmap(concatenating: members).write(to: file)
        }
    }

    /// Writes every word's and prefix's members, in number order: one segment of a build in segments
    /// (``PostingsSegments``), which ``write(to:after:)`` merges.
    func writeMembers(to file: SavedFileWriter) throws {
        for bitmaps in [wordBitmaps, prefixBitmaps] {
            try file.write(UInt32(bitmaps.count))
            for bitmap in bitmaps { try bitmap.write(to: file) }
        }
    }

    /// Lets every word's and prefix's members go, keeping the words: once their segment is written.
    mutating func dropMembers() {
        wordBitmaps = Array(repeating: PostingBitmap(), count: wordBitmaps.count)
        prefixBitmaps = Array(repeating: PostingBitmap(), count: prefixBitmaps.count)
    }

    /// Reads what ``write(to:)`` wrote: each word is added as a build adds it (its prefixes with it), then given its
    /// bitmap; every prefix the words make must be in the file once, and nothing else.
    init(reading file: inout SavedFileReader) throws(SavedFileReader.Unusable) {
        self.init()
        for number in 0..<Int(try file.read(UInt32.self)) {
            let bytes = try file.readCounted(UInt8.self)
            guard !bytes.isEmpty, bytes.withUnsafeBufferPointer({ Int(self.number(of: $0)) }) == number else {
                throw SavedFileReader.Unusable(reason: "a word is empty or held twice")
            }
            wordBitmaps[number] = try PostingBitmap(reading: &file)
        }
        var given = Set<Int32>()
        for _ in 0..<Int(try file.read(UInt32.self)) {
            let bytes = try file.readCounted(UInt8.self)
            guard let number = prefixNumbers[bytes], given.insert(number).inserted else {
                throw SavedFileReader.Unusable(reason: "a prefix no word makes, or one held twice")
            }
            prefixBitmaps[Int(number)] = try PostingBitmap(reading: &file)
        }
        guard given.count == prefixBitmaps.count else { throw SavedFileReader.Unusable(reason: "prefixes of the words are missing") }
        sortNewWords()
    }
}
