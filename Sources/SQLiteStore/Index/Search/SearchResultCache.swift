package import Foundation
package import Indexing
import Synchronization

/// Recent search results, answered again while they are still exactly what a search would compute.
///
/// As-you-type search repeats itself: many people type the same first letters. A result is a function of the
/// query, the index's content and the clock, so an entry is reused only while
/// - the index's last commit number is the one it was computed at (every change to what a search can see is a
///   commit, whichever process writes the file; the number is read in the search's own read transaction), and
/// - no item the search read has expired since (an entry lives until the earliest expiration among the rows its
///   scans read: rows it did not read could not change its answer, rows already expired stay expired).
///
/// Bounded in entries and in bytes of hit text (each entry counted twice: its results, and their rendering once an
/// answer renders them, ``RenderedResults``); the least recently used entry goes first.
///
/// A result is kept the second time it is computed, not the first (a doorkeeper, as in TinyLFU): most searches that
/// are never repeated (a long query typed once) then cost no entry, nor the eviction of one that is repeated. The
/// doorkeeper remembers the keys of the last `4 × maxEntries` results computed and not kept, and a key whose entry
/// went stale with a commit, or was cleared by ``removeAll()``, is kept again the next time it is computed.
package final class SearchResultCache: Sendable {
    /// What makes two searches the same: the folded words, the filters, the page, the order and the typos forgiven.
    package struct Key: Hashable, Sendable {
        /// The words, sequences, synonyms and filters, as ``KeyBytes``: compared byte by byte, as the index compares
        /// words (`String`'s equality is canonical equivalence: a composed and a decomposed "한국" are one string to
        /// Swift and two words to the index).
        var text: [UInt8]
        var limit: Int
        var offset: Int
        var facets: [SearchFacet]
        var sort: SearchSort
        var distinct: SearchDistinct?
        var typos: TypoTolerance
        /// The lift of opens: its half-life, and the day it was computed (opens fade by the day).
        var popularityHalfLife: Duration?
        var popularityDay: Int?

        package init(query: SearchQuery, terms: SearchTerms, now: Date) {
            var text = KeyBytes()
            text.append(terms.words)
            text.append(count: terms.sequences.count)
            for sequence in terms.sequences { text.append(sequence) }
            let searched = query.searchedDomains
            text.append(count: searched?.count ?? -1)
            for domain in searched ?? [] { text.append(domain) }
            let groups = query.audience.groups
            text.append(count: groups?.count ?? -1)
            for group in groups ?? [] { text.append(group) }
            text.append(query.contentType)
            switch query.version {
            case .current: text.append(count: -1)
            case .any: text.append(count: -2)
            case .named(let version): text.append(version)
            }
            text.append(count: terms.synonyms.count)
            for span in terms.synonyms {
                text.append(count: span.words.lowerBound)
                text.append(count: span.words.upperBound)
                text.append(count: span.alternatives.count)
                for phrase in span.alternatives { text.append(phrase) }
            }
            self.text = text.bytes
            limit = query.limit
            offset = query.offset
            facets = query.facets
            sort = query.sort
            distinct = query.distinct
            typos = query.typos
            popularityHalfLife = query.popularityHalfLife
            popularityDay = query.popularityHalfLife.map { _ in UsageDay.of(now) }
        }
    }

    /// Strings and counts written one after another, each string after its length, so that two different lists never
    /// write the same bytes.
    struct KeyBytes {
        var bytes: [UInt8] = []

        mutating func append(count: Int) {
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: count).littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func append(_ string: String?) {
            guard let string else { return append(count: -1) }
            append(count: string.utf8.count)
            bytes.append(contentsOf: string.utf8)
        }

        mutating func append(_ strings: [String]) {
            append(count: strings.count)
            for string in strings { append(string) }
        }
    }

    private struct Entry {
        var results: SearchResults
        var commitNumber: Int64
        var validUntil: Date
        var bytes: Int
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// Each entry's key by its ``Entry/lastUse``: the least recently used is found without scanning every entry.
        var keysByUse: [UInt64: Key] = [:]
        /// No entry was used before this.
        var oldestUse: UInt64 = 0
        var bytes = 0
        var uses: UInt64 = 0
        /// Bumped by ``removeAll()``: results computed before it are not stored.
        var generation: UInt64 = 0
        /// The doorkeeper: the hashes of keys computed once and not kept, each with the number of its latest
        /// sighting, and the last sightings (a ring, the oldest at `sightingsHead` once it is full).
        var sightings: [Int: UInt64] = [:]
        var sightingsOrder: [(hash: Int, number: UInt64)] = []
        var sightingsHead = 0
        var sightingsCount: UInt64 = 0

        /// Forgets the entry for `key`, if any.
        mutating func remove(_ key: Key) {
            guard let entry = entries.removeValue(forKey: key) else { return }
            keysByUse[entry.lastUse] = nil
            bytes -= entry.bytes
        }

        /// Whether results for `key` are kept now: its entry is there, or it was computed once before (and is among
        /// the last `capacity` sightings). If neither, remembers that it was.
        mutating func admits(_ key: Key, capacity: Int) -> Bool {
            let hash = key.hashValue
            if sightings.removeValue(forKey: hash) != nil || entries[key] != nil { return true }
            remember(hash, capacity: capacity)
            return false
        }

        /// Remembers that the key of `hash` was computed, among the last `capacity` sightings.
        mutating func remember(_ hash: Int, capacity: Int) {
            sightingsCount += 1
            sightings[hash] = sightingsCount
            let sighting = (hash: hash, number: sightingsCount)
            guard sightingsOrder.count == capacity else { return sightingsOrder.append(sighting) }
            let oldest = sightingsOrder[sightingsHead]
            // Forgotten unless seen again since.
            if sightings[oldest.hash] == oldest.number { sightings[oldest.hash] = nil }
            sightingsOrder[sightingsHead] = sighting
            sightingsHead = (sightingsHead + 1) % capacity
        }
    }

    /// Bytes of hit text kept at most, whatever the number of entries.
    package static let maxBytes = 32 * 1024 * 1024

    private let maxEntries: Int
    /// Sightings the doorkeeper remembers: four times the entries kept.
    private var doorkeeperCapacity: Int { 4 * maxEntries }
    private let state = Mutex(State())

    /// A cache of `maxEntries` results; 0 keeps nothing.
    package init(maxEntries: Int) {
        self.maxEntries = maxEntries
    }

    /// The results stored for `key`, if computed at `commitNumber` and still valid at `now`.
    package func results(for key: Key, commitNumber: Int64, now: Date) -> SearchResults? {
        guard maxEntries > 0 else { return nil }
        return state.withLock { state in
            guard var entry = state.entries[key] else { return nil }
            guard entry.commitNumber == commitNumber, now < entry.validUntil else {
                // It was repeated: kept again the next time it is computed.
                state.remove(key)
                state.remember(key.hashValue, capacity: doorkeeperCapacity)
                return nil
            }
            state.keysByUse[entry.lastUse] = nil
            state.uses += 1
            entry.lastUse = state.uses
            state.keysByUse[entry.lastUse] = key
            state.entries[key] = entry
            return entry.results
        }
    }

    /// Which ``removeAll()`` the cache is at: read it before computing results, hand it to ``store(_:for:commitNumber:validUntil:generation:)``.
    package var generation: UInt64 { state.withLock(\.generation) }

    /// Forgets every result: what a search computes changed without a commit (opens were recorded, ``Popularity``).
    package func removeAll() {
        let capacity = doorkeeperCapacity
        state.withLock { state in
            // They were repeated: each is kept again the next time it is computed (opens recorded every few seconds
            // would otherwise make every popular search wait for a second computation).
            // Least recently used first, as the ring forgets.
            for use in state.keysByUse.keys.sorted() { state.remember(state.keysByUse[use]!.hashValue, capacity: capacity) }
            state.entries = [:]
            state.keysByUse = [:]
            state.oldestUse = state.uses + 1
            state.bytes = 0
            state.generation += 1
        }
    }

    /// Keeps `results`, computed at `commitNumber` after ``generation`` was read as `generation`, until `validUntil`
    /// or the next commit, if the doorkeeper admits them (their key was computed before); results computed before a
    /// ``removeAll()`` are not kept.
    package func store(_ results: SearchResults, for key: Key, commitNumber: Int64, validUntil: Date, generation: UInt64) {
        guard maxEntries > 0, state.withLock({ $0.admits(key, capacity: doorkeeperCapacity) }) else { return }
        // Kept with a place for their rendering (the JSON body), counted as large as the results.
        var results = results
        results.rendering = RenderedResults()
        let bytes = 2 * Self.byteCount(of: results)
        guard bytes <= Self.maxBytes / 8 else { return }
        state.withLock { state in
            guard state.generation == generation else { return }
            state.remove(key)
            while !state.entries.isEmpty, state.entries.count >= maxEntries || state.bytes + bytes > Self.maxBytes {
                // Uses only grow, so the walk to the oldest one left is paid once per use: no scan of every entry (which
                // a profile of never-repeated searches put at 4 % of the service's CPU, the cache full).
                while state.keysByUse[state.oldestUse] == nil { state.oldestUse += 1 }
                state.remove(state.keysByUse[state.oldestUse]!)
            }
            state.uses += 1
            state.entries[key] = Entry(results: results, commitNumber: commitNumber, validUntil: validUntil, bytes: bytes, lastUse: state.uses)
            state.keysByUse[state.uses] = key
            state.bytes += bytes
        }
    }

    /// About how many bytes `results` hold.
    private static func byteCount(of results: SearchResults) -> Int {
        let facets = results.facets?.values.reduce(0) { $0 + $1.reduce(0) { $0 + 32 + $1.key.utf8.count } } ?? 0
        return (results.hits + results.hits.flatMap(\.sections)).reduce(64 + facets) { total, hit in
            let texts = [hit.uniqueIdentifier, hit.domainIdentifier, hit.contentType, hit.title, hit.displayName, hit.contentDescription, hit.contentURL, hit.thumbnailURL, hit.relatedUniqueIdentifier, hit.version]
            let highlights = hit.highlights.map { ranges in
                16 * (ranges.title.count + ranges.displayName.count + ranges.contentDescription.count + (ranges.keywords + ranges.authorNames).reduce(0) { $0 + $1.count + 1 })
            } ?? 0
            let snippet = hit.snippet.map { $0.text.utf8.count + 16 * $0.highlights.count } ?? 0
            return total + 128 + texts.reduce(0) { $0 + ($1?.utf8.count ?? 0) } + (hit.keywords + hit.authorNames).reduce(0) { $0 + $1.utf8.count + 16 }
                + highlights + snippet
        }
    }
}
