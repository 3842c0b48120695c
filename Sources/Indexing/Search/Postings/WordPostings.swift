/// Which items hold each word of some of their fields, and each prefix of those words up to ``prefixLetters``
/// letters, as ``PostingBitmap``s: what a search scan asks of a full-text table ("the first `k` items, in priority
/// order, whose words match"), answered without walking every item that holds a common prefix.
///
/// Words are folded as the full-text tables fold them (``TextFolding``) and compared by their UTF-8 bytes, as SQLite
/// compares them. Members are only added: an item rewritten without a word keeps it here, so what this answers is
/// a superset of the items that match now, which the caller narrows (``WordMatch/isSatisfied(byWordsOf:)``).
package struct WordPostings: Sendable {
    /// Prefixes of up to this many letters (Unicode scalars, as FTS5 counts them) have a bitmap of their own; a longer
    /// one is the union of the words that start with it (few, once six letters are typed).
    package static let prefixLetters = 6

    private var words: [[UInt8]: PostingBitmap] = [:]
    private var prefixes: [[UInt8]: PostingBitmap] = [:]
    /// ``words``' keys in byte order, for the words a longer prefix starts; the words added since it was last sorted
    /// wait in ``unsortedWords``.
    private var vocabulary: [[UInt8]] = []
    private var unsortedWords: [[UInt8]] = []

    package init() {}

    /// Adds `id` to the bitmaps of the words of `texts` and of their prefixes.
    package mutating func add(_ id: Int64, wordsOf texts: [String?]) {
        for case let text? in texts {
            TextFolding.forEachWord(in: text) { word in
                add(id, word: word)
                return true
            }
        }
    }

    /// Adds `id` to the bitmaps of one folded `word` and of its prefixes.
    package mutating func add(_ id: Int64, word: UnsafeBufferPointer<UInt8>) {
        let key = Array(word)
        if words[key]?.insert(id) == nil {
            var bitmap = PostingBitmap()
            bitmap.insert(id)
            words[key] = bitmap
            unsortedWords.append(key)
        }
        var letters = 0
        for end in 1...word.count where end == word.count || word[end] & 0xC0 != 0x80 {
            letters += 1
            prefixes[Array(word[0..<end]), default: PostingBitmap()].insert(id)
            if letters == Self.prefixLetters { break }
        }
    }

    /// Makes the words added since the last call findable by a prefix longer than ``prefixLetters``: call it after
    /// adding, before searching.
    package mutating func sortNewWords() {
        guard !unsortedWords.isEmpty else { return }
        let added = unsortedWords.sorted { $0.lexicographicallyPrecedes($1) }
        unsortedWords = []
        guard !vocabulary.isEmpty else {
            vocabulary = added
            return
        }
        var merged: [[UInt8]] = []
        merged.reserveCapacity(vocabulary.count + added.count)
        var i = 0, j = 0
        while i < vocabulary.count || j < added.count {
            if j == added.count || (i < vocabulary.count && vocabulary[i].lexicographicallyPrecedes(added[j])) {
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
        return PostingBitmap.firstMembers(ofIntersection: parts.map(members), after: after, limit: limit)
    }

    /// The members whose words satisfy `match`.
    private func members(_ match: WordMatch) -> PostingBitmap {
        switch match {
        case .whole(let word): words[Array(word.utf8)] ?? PostingBitmap()
        case .prefix(let prefix): members(startingWith: Array(prefix.utf8))
        case .all(let parts): PostingBitmap.intersection(parts.map(members))
        case .any(let parts): PostingBitmap.union(parts.map(members))
        }
    }

    private func members(startingWith prefix: [UInt8]) -> PostingBitmap {
        if prefix.lazy.filter({ $0 & 0xC0 != 0x80 }).count <= Self.prefixLetters { return prefixes[prefix] ?? PostingBitmap() }
        var low = 0, high = vocabulary.count
        while low < high {
            let middle = (low + high) / 2
            if vocabulary[middle].lexicographicallyPrecedes(prefix) { low = middle + 1 } else { high = middle }
        }
        var found: [PostingBitmap] = []
        while low < vocabulary.count, vocabulary[low].starts(with: prefix) {
            found.append(words[vocabulary[low]]!)
            low += 1
        }
        return found.isEmpty ? PostingBitmap() : PostingBitmap.union(found)
    }

    /// How many distinct words are held.
    package var wordCount: Int { words.count }

    /// The bytes the bitmaps and the words take, roughly (without the dictionaries' own tables).
    package var bytes: Int {
        words.reduce(0) { $0 + $1.key.count + 32 + $1.value.bytes } + prefixes.reduce(0) { $0 + $1.key.count + 32 + $1.value.bytes } + vocabulary.count * 8
    }
}
