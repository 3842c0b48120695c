/// A set of item row identifiers kept as Roaring bitmaps keep them (without run containers): the identifiers split by
/// their high bits into chunks of 65,536, each chunk a sorted array of low halves while it holds at most 4,096, else
/// 1,024 words of bits. What ``WordPostings`` keeps per word and prefix: the first members of an intersection come
/// chunk by chunk, so a search that wants the first `k` matches in priority order stops after the first chunks,
/// however many items hold each word.
package struct PostingBitmap: Sendable {
    /// A chunk's members: their low 16 bits.
    ///
    /// `@unchecked Sendable`: a ``mapped(_:)`` container points into a saved file mapped read-only, never written
    /// (``MappedFile``), which its bitmap keeps mapped (``PostingBitmap/savedFile``).
    enum Container: @unchecked Sendable {
        case array([UInt16])
        case bits([UInt64])
        /// Members read in place from a saved file: a change copies them into an array of the container's own first.
        case mapped(View)

        /// A container's members wherever they are: what every reading operation works on.
        enum View {
            case array(UnsafeBufferPointer<UInt16>)
            case bits(UnsafeBufferPointer<UInt64>)
        }

        static let arrayLimit = 4_096
        static let bitWordCount = 1_024

        func withView<R, E>(_ body: (View) throws(E) -> R) throws(E) -> R {
            switch self {
            case .array(let values): try values.withUnsafeBufferPointer { (buffer) throws(E) in try body(.array(buffer)) }
            case .bits(let words): try words.withUnsafeBufferPointer { (buffer) throws(E) in try body(.bits(buffer)) }
            case .mapped(let view): try body(view)
            }
        }

        var count: Int {
            withView { view in
                switch view {
                case .array(let values): values.count
                case .bits(let words): words.reduce(0) { $0 + $1.nonzeroBitCount }
                }
            }
        }

        /// The bytes of the process's own memory it takes (a mapped one's are the file's, which the kernel manages).
        var bytes: Int {
            switch self {
            case .array(let values): values.capacity * 2
            case .bits: Self.bitWordCount * 8
            case .mapped: 0
            }
        }

        func contains(_ low: UInt16) -> Bool {
            withView { view in
                switch view {
                case .array(let values): values.sortedIndex(of: low).found
                case .bits(let words): words[Int(low >> 6)] & (1 << UInt64(low & 63)) != 0
                }
            }
        }

        /// The members of both, or `nil` when none.
        func intersection(_ other: Container) -> Container? {
            withView { left in other.withView { right in Self.intersection(left, right) } }
        }

        private static func intersection(_ left: View, _ right: View) -> Container? {
            switch (left, right) {
            case (.bits(let left), .bits(let right)):
                var any: UInt64 = 0
                let words = [UInt64](unsafeUninitializedCapacity: Self.bitWordCount) { words, count in
                    for index in 0..<Self.bitWordCount {
                        words[index] = left[index] & right[index]
                        any |= words[index]
                    }
                    count = Self.bitWordCount
                }
                return any == 0 ? nil : .bits(words)
            case (.array(let values), .bits(let words)), (.bits(let words), .array(let values)):
                let kept = values.filter { words[Int($0 >> 6)] & (1 << UInt64($0 & 63)) != 0 }
                return kept.isEmpty ? nil : .array(kept)
            case (.array(let left), .array(let right)):
                var kept: [UInt16] = []
                var i = 0, j = 0
                while i < left.count, j < right.count {
                    if left[i] < right[j] { i += 1 } else if left[i] > right[j] { j += 1 } else {
                        kept.append(left[i])
                        i += 1
                        j += 1
                    }
                }
                return kept.isEmpty ? nil : .array(kept)
            }
        }

        /// Adds its members to `words`, 1,024 words of bits.
        func or(into words: UnsafeMutableBufferPointer<UInt64>) {
            withView { view in
                switch view {
                case .bits(let more): for index in 0..<Self.bitWordCount { words[index] |= more[index] }
                case .array(let values): for value in values { words[Int(value >> 6)] |= 1 << UInt64(value & 63) }
                }
            }
        }

        /// Its members as 1,024 words of bits, copied.
        var bitWords: [UInt64] {
            withView { view in
                switch view {
                case .bits(let words): return Array(words)
                case .array(let values):
                    var words = [UInt64](repeating: 0, count: Self.bitWordCount)
                    for value in values { words[Int(value >> 6)] |= 1 << UInt64(value & 63) }
                    return words
                }
            }
        }

        /// Calls `body` with each member greater than `after` in order until it returns `false`; returns whether it was
        /// never told to stop.
        func forEach(after: UInt16?, _ body: (UInt16) -> Bool) -> Bool {
            withView { view in
                switch view {
                case .array(let values):
                    let start = after.map { after in values.sortedIndex(of: after).index + (values.sortedIndex(of: after).found ? 1 : 0) } ?? 0
                    for value in values[start...] where !body(value) { return false }
                case .bits(let words):
                    for index in (after.map { Int($0 >> 6) } ?? 0)..<Self.bitWordCount where words[index] != 0 {
                        var rest = words[index]
                        while rest != 0 {
                            let value = UInt16(index << 6 | rest.trailingZeroBitCount)
                            rest &= rest - 1
                            if let after, value <= after { continue }
                            guard body(value) else { return false }
                        }
                    }
                }
                return true
            }
        }

        /// Adds `low`, in place: the payload is taken out first, so that it is the only reference and changes
        /// without a copy. A mapped container is copied into one of its own first.
        mutating func insert(_ low: UInt16) {
            switch self {
            case .mapped(let view) where !contains(low): self = .copied(view)
            default: break
            }
            switch self {
            case .array(let values) where values.last == low: return
            case .bits(let words) where words[Int(low >> 6)] & (1 << UInt64(low & 63)) != 0: return
            case .array(var values):
                self = .array([])
                if let last = values.last, last < low {
                    values.append(low)
                } else {
                    let (index, found) = values.sortedIndex(of: low)
                    if !found { values.insert(low, at: index) }
                }
                self = values.count > Self.arrayLimit ? .bits(Container.array(values).bitWords) : .array(values)
            case .bits(var words):
                self = .array([])
                words[Int(low >> 6)] |= 1 << UInt64(low & 63)
                self = .bits(words)
            case .mapped: return  // a member already
            }
        }

        /// Its members and `later`'s, all greater than its own: an array while they fit one, else bits.
        func appending(_ later: Container) -> Container {
            if case .array(let values) = owned, case .array(let more) = later.owned, values.count + more.count <= Self.arrayLimit {
                return .array(values + more)
            }
            var words = bitWords
            words.withUnsafeMutableBufferPointer { later.or(into: $0) }
            return .bits(words)
        }

        /// The same members in a container of its own: a mapped one copied out of its file.
        var owned: Container {
            if case .mapped(let view) = self { Self.copied(view) } else { self }
        }

        /// The members of `view` in a container of its own.
        private static func copied(_ view: View) -> Container {
            switch view {
            case .array(let values): .array(Array(values))
            case .bits(let words): .bits(Array(words))
            }
        }
    }

    /// The chunks' high bits (`id >> 16`), ascending, and their members.
    private(set) var keys: [Int64] = []
    private(set) var containers: [Container] = []
    /// The saved file the members of ``Container/mapped(_:)`` containers are in, kept mapped while the bitmap (or a
    /// copy) lives; `nil` for a bitmap made in memory. An intersection or a union of several is made in memory.
    private var savedFile: MappedFile?

    package init() {}

    /// Whether no identifier is a member.
    package var isEmpty: Bool { keys.isEmpty }

    /// Adds `id`: at the end when it is greater than every member (a build walks rows in identifier order), else in
    /// its place.
    package mutating func insert(_ id: Int64) {
        let key = id >> 16, low = UInt16(truncatingIfNeeded: id)
        if let last = keys.last, last == key {
            containers[containers.count - 1].insert(low)
        } else if keys.last.map({ $0 < key }) ?? true {
            keys.append(key)
            containers.append(.array([low]))
        } else {
            let (index, found) = keys.sortedIndex(of: key)
            if found {
                containers[index].insert(low)
            } else {
                keys.insert(key, at: index)
                containers.insert(.array([low]), at: index)
            }
        }
    }

    /// How many identifiers are members (a walk of the chunks).
    package var count: Int { containers.reduce(0) { $0 + $1.count } }

    /// Whether `id` is a member.
    package func contains(_ id: Int64) -> Bool {
        let (index, found) = keys.sortedIndex(of: id >> 16)
        return found && containers[index].contains(UInt16(truncatingIfNeeded: id))
    }

    /// The bytes the members take (the arrays' capacity, not Swift's per-array headers).
    package var bytes: Int { containers.reduce(keys.capacity * 8) { $0 + $1.bytes } }

    /// The members of `parts`, each of whose members are all greater than the previous part's: what one bitmap built
    /// from their rows in order holds, container for container (``Container/arrayLimit`` decides a chunk two parts
    /// share as ``insert(_:)`` would). What a build in segments (``PostingsSegments``) merges its segments' with.
    package init(concatenating parts: [PostingBitmap]) {
        if parts.count == 1 {
            self = parts[0]
            return
        }
        self.init()
        for part in parts {
            for (key, container) in zip(part.keys, part.containers) {
                guard keys.last == key else {
                    keys.append(key)
                    containers.append(container.owned)
                    continue
                }
                containers[containers.count - 1] = containers[containers.count - 1].appending(container)
            }
        }
    }

    /// The members of every bitmap of `intersection`.
    package static func intersection(_ intersection: [PostingBitmap]) -> PostingBitmap {
        self.intersection(ofUnions: intersection.map { [$0] })
    }

    /// The members of every one of `unions`, each the members of any of its bitmaps, merged only in the chunks every
    /// union has members in.
    package static func intersection(ofUnions unions: [[PostingBitmap]]) -> PostingBitmap {
        if unions.count == 1, unions[0].count == 1 { return unions[0][0] }
        var result = PostingBitmap()
        forEachCommonChunk(of: unions, after: nil) { key, common in
            result.keys.append(key)
            // A chunk only one bitmap holds is that bitmap's container, which may be in its saved file: the result
            // keeps no file mapped (`savedFile`), so it holds its own copy.
            result.containers.append(common.owned)
            return true
        }
        return result
    }

    /// The first `limit` members of the intersection of `bitmaps` greater than `after`, in order.
    package static func firstMembers(ofIntersection bitmaps: [PostingBitmap], after: Int64? = nil, limit: Int) -> [Int64] {
        firstMembers(ofIntersectionOfUnions: bitmaps.map { [$0] }, after: after, limit: limit)
    }

    /// The first `limit` members greater than `after`, in order, of the intersection of `unions`, each the members of
    /// any of its bitmaps: chunk by chunk, so that a dense intersection stops after its first chunks, and a union is
    /// merged only in the chunks the walk reads (a prefix longer than ``WordPostings/prefixLetters`` is the union of
    /// the words it starts, hundreds when it is short).
    package static func firstMembers(ofIntersectionOfUnions unions: [[PostingBitmap]], after: Int64? = nil, limit: Int) -> [Int64] {
        var found: [Int64] = []
        guard limit > 0 else { return found }
        forEachCommonChunk(of: unions, after: after) { key, common in
            let low = after.flatMap { $0 >> 16 == key ? UInt16(truncatingIfNeeded: $0) : nil }
            return common.forEach(after: low) { value in
                found.append(key << 16 | Int64(value))
                return found.count < limit
            }
        }
        return found
    }

    /// Calls `body` with each chunk in which every one of `unions` has members (from the chunk holding `after`), in
    /// order, until it returns `false`: the chunks of the union with the fewest are walked, and each other union keeps
    /// what it holds of their members (``UnionWalk/intersection(with:in:)``).
    private static func forEachCommonChunk(of unions: [[PostingBitmap]], after: Int64?, _ body: (Int64, Container) -> Bool) {
        guard !unions.contains(where: \.isEmpty) else { return }
        var walks = unions.map(UnionWalk.init)
        let keyCounts = walks.map(\.keyCount)
        guard let pivot = keyCounts.indices.min(by: { keyCounts[$0] < keyCounts[$1] }) else { return }
        let pivotKeys = walks[pivot].keys
        chunks: for position in pivotKeys.sortedIndex(of: after.map { $0 >> 16 } ?? .min).index..<pivotKeys.count {
            let key = pivotKeys[position]
            guard var common = walks[pivot].members(in: key) else { continue }
            for index in walks.indices where index != pivot {
                guard let kept = walks[index].intersection(with: common, in: key) else { continue chunks }
                common = kept
            }
            guard body(key, common) else { return }
        }
    }

    /// A walk through the chunks of a union of bitmaps, in ascending order of their keys: where each bitmap is.
    private struct UnionWalk {
        let bitmaps: [PostingBitmap]
        private var positions: [Int]

        init(_ bitmaps: [PostingBitmap]) {
            self.bitmaps = bitmaps
            positions = Array(repeating: 0, count: bitmaps.count)
        }

        /// How many chunks its bitmaps hold together (a chunk several hold counted as often).
        var keyCount: Int { bitmaps.reduce(0) { $0 + $1.keys.count } }

        /// The keys of the chunks any of its bitmaps holds, ascending.
        var keys: [Int64] {
            bitmaps.count == 1 ? bitmaps[0].keys : Set(bitmaps.lazy.flatMap(\.keys)).sorted()
        }

        /// The members of the union in the chunk `key`, `nil` when none; keys must be asked in ascending order.
        mutating func members(in key: Int64) -> Container? {
            Self.merged(containers(in: key))
        }

        /// The members of `common` the union holds in the chunk `key`, `nil` when none; keys must be asked in
        /// ascending order. A few members are looked up in each of the union's containers, without merging them.
        mutating func intersection(with common: Container, in key: Int64) -> Container? {
            let found = containers(in: key)
            guard found.count > 1, common.count <= Self.lookedUpMembers else { return Self.merged(found).flatMap(common.intersection) }
            var kept: [UInt16] = []
            _ = common.forEach(after: nil) { value in
                if found.contains(where: { $0.contains(value) }) { kept.append(value) }
                return true
            }
            return kept.isEmpty ? nil : .array(kept)
        }

        /// The members of any of `containers`: the one itself, or their merge as bits.
        private static func merged(_ containers: [Container]) -> Container? {
            guard containers.count > 1 else { return containers.first }
            var words = containers[0].bitWords
            words.withUnsafeMutableBufferPointer { words in
                for container in containers.dropFirst() { container.or(into: words) }
            }
            return .bits(words)
        }

        /// Up to how many members of a chunk are looked up in a union's containers rather than intersected with
        /// their merge (1,024 words of bits to fill).
        private static let lookedUpMembers = 64

        /// The containers its bitmaps hold in the chunk `key`; keys must be asked in ascending order.
        private mutating func containers(in key: Int64) -> [Container] {
            var found: [Container] = []
            for index in bitmaps.indices {
                let keys = bitmaps[index].keys
                while positions[index] < keys.count, keys[positions[index]] < key { positions[index] += 1 }
                if positions[index] < keys.count, keys[positions[index]] == key { found.append(bitmaps[index].containers[positions[index]]) }
            }
            return found
        }
    }
}

extension RandomAccessCollection where Element: Comparable, Index == Int {
    /// Where `value` is in this sorted collection, or where it would go.
    func sortedIndex(of value: Element) -> (index: Int, found: Bool) {
        var low = startIndex, high = endIndex
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return (low, low < endIndex && self[low] == value)
    }
}

extension PostingBitmap {
    /// Writes the chunks: their count, then each one's high bits, its kind and its members, those aligned so that they
    /// are read in place (``init(reading:)``).
    func write(to file: SavedFileWriter) throws {
        try file.write(UInt32(keys.count))
        for (key, container) in zip(keys, containers) {
            try file.write(key)
            try container.withView { view in
                switch view {
                case .array(let values):
                    try file.write(UInt8(0))
                    try file.write(UInt32(values.count))
                    try file.align(to: MemoryLayout<UInt16>.alignment)
                    try file.write(bytes: UnsafeRawBufferPointer(values))
                case .bits(let words):
                    try file.write(UInt8(1))
                    try file.align(to: MemoryLayout<UInt64>.alignment)
                    try file.write(bytes: UnsafeRawBufferPointer(words))
                }
            }
        }
    }

    /// Reads what ``write(to:)`` wrote, its members left where they are in the file's mapping (which the caller keeps
    /// while the bitmap lives), refusing chunks out of order and containers of no known kind or size.
    init(reading file: inout SavedFileReader) throws(SavedFileReader.Unusable) {
        self.init()
        savedFile = file.mappedFile
        let count = try file.read(UInt32.self)
        for _ in 0..<count {
            let key = try file.read(Int64.self)
            guard keys.last.map({ $0 < key }) ?? true else { throw SavedFileReader.Unusable(reason: "a bitmap's chunks are out of order") }
            switch try file.read(UInt8.self) {
            case 0:
                let count = Int(try file.read(UInt32.self))
                try file.align(to: MemoryLayout<UInt16>.alignment)
                let values = try file.inPlace(UInt16.self, count: count)
                guard count <= Container.arrayLimit, values.indices.dropFirst().allSatisfy({ values[$0 - 1] < values[$0] }) else {
                    throw SavedFileReader.Unusable(reason: "a bitmap's array holds \(values.count) members, or out of order")
                }
                containers.append(.mapped(.array(values)))
            case 1:
                try file.align(to: MemoryLayout<UInt64>.alignment)
                containers.append(.mapped(.bits(try file.inPlace(UInt64.self, count: Container.bitWordCount))))
            case let kind:
                throw SavedFileReader.Unusable(reason: "a bitmap's chunk is of unknown kind \(kind)")
            }
            keys.append(key)
        }
    }
}
