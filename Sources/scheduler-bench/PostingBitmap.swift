/// A set of row identifiers kept as Roaring bitmaps keep them (without run containers): the identifiers split by
/// their high bits into chunks of 65,536, each chunk a sorted array of low halves while it holds at most 4,096, else
/// 1,024 words of bits. The candidate search structure ``BitmapCandidatesBenchmark`` measures against FTS5.
struct PostingBitmap {
    /// A chunk's members: their low 16 bits.
    enum Container {
        case array([UInt16])
        case bits([UInt64])

        static let arrayLimit = 4_096

        var bytes: Int {
            switch self {
            case .array(let values): values.count * 2
            case .bits: 8_192
            }
        }

        /// The members of both, or `nil` when none.
        func intersection(_ other: Container) -> Container? {
            switch (self, other) {
            case (.bits(let left), .bits(let right)):
                var any: UInt64 = 0
                let words = [UInt64](unsafeUninitializedCapacity: 1_024) { words, count in
                    for index in 0..<1_024 {
                        words[index] = left[index] & right[index]
                        any |= words[index]
                    }
                    count = 1_024
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

        var bitWords: [UInt64] {
            switch self {
            case .bits(let words): return words
            case .array(let values):
                var words = [UInt64](repeating: 0, count: 1_024)
                for value in values { words[Int(value >> 6)] |= 1 << UInt64(value & 63) }
                return words
            }
        }

        /// Bits while dense, an array while sparse.
        static func fitted(_ words: [UInt64]) -> Container {
            let count = words.reduce(0) { $0 + $1.nonzeroBitCount }
            guard count <= arrayLimit else { return .bits(words) }
            var values: [UInt16] = []
            values.reserveCapacity(count)
            for (index, word) in words.enumerated() where word != 0 {
                var rest = word
                while rest != 0 {
                    values.append(UInt16(index << 6 | rest.trailingZeroBitCount))
                    rest &= rest - 1
                }
            }
            return .array(values)
        }

        /// Calls `body` with each member in order until it returns `false`; returns whether it was never told to stop.
        func forEach(_ body: (UInt16) -> Bool) -> Bool {
            switch self {
            case .array(let values):
                for value in values where !body(value) { return false }
            case .bits(let words):
                for (index, word) in words.enumerated() where word != 0 {
                    var rest = word
                    while rest != 0 {
                        guard body(UInt16(index << 6 | rest.trailingZeroBitCount)) else { return false }
                        rest &= rest - 1
                    }
                }
            }
            return true
        }
    }

    /// The chunks' high bits (`id >> 16`), ascending, and their members.
    private(set) var keys: [Int64] = []
    private(set) var containers: [Container] = []

    /// Adds `id`, greater than every member (a build walks rows in identifier order).
    mutating func append(_ id: Int64) {
        let key = id >> 16, low = UInt16(truncatingIfNeeded: id)
        if keys.last != key {
            keys.append(key)
            containers.append(.array([low]))
            return
        }
        let last = containers.count - 1
        switch containers[last] {
        case .array(var values):
            guard values.last != low else { return }
            containers[last] = .array([])
            values.append(low)
            containers[last] = values.count > Container.arrayLimit ? .bits(Container.array(values).bitWords) : .array(values)
        case .bits(var words):
            containers[last] = .array([])
            words[Int(low >> 6)] |= 1 << UInt64(low & 63)
            containers[last] = .bits(words)
        }
    }

    var bytes: Int { containers.reduce(keys.count * 8) { $0 + $1.bytes } }

    /// The members of every bitmap of `union`.
    static func union(_ union: [PostingBitmap]) -> PostingBitmap {
        var merged: [Int64: [UInt64]] = [:]
        for bitmap in union {
            for (key, container) in zip(bitmap.keys, bitmap.containers) {
                merged[key, default: [UInt64](repeating: 0, count: 1_024)].withUnsafeMutableBufferPointer { words in
                    switch container {
                    case .bits(let more): for index in 0..<1_024 { words[index] |= more[index] }
                    case .array(let values): for value in values { words[Int(value >> 6)] |= 1 << UInt64(value & 63) }
                    }
                }
            }
        }
        var result = PostingBitmap()
        for key in merged.keys.sorted() {
            result.keys.append(key)
            result.containers.append(.fitted(merged[key]!))
        }
        return result
    }

    /// The first `limit` members of the intersection of `bitmaps`, in order: chunk by chunk, so that a dense
    /// intersection stops after its first chunks.
    static func firstMembers(ofIntersection bitmaps: [PostingBitmap], limit: Int) -> [Int64] {
        guard let pivot = bitmaps.indices.min(by: { bitmaps[$0].keys.count < bitmaps[$1].keys.count }) else { return [] }
        var found: [Int64] = []
        var positions = Array(repeating: 0, count: bitmaps.count)
        chunks: for (key, container) in zip(bitmaps[pivot].keys, bitmaps[pivot].containers) {
            var common = container
            for (index, bitmap) in bitmaps.enumerated() where index != pivot {
                while positions[index] < bitmap.keys.count, bitmap.keys[positions[index]] < key { positions[index] += 1 }
                guard positions[index] < bitmap.keys.count, bitmap.keys[positions[index]] == key else { continue chunks }
                guard let kept = common.intersection(bitmap.containers[positions[index]]) else { continue chunks }
                common = kept
            }
            let complete = common.forEach { low in
                found.append(key << 16 | Int64(low))
                return found.count < limit
            }
            if !complete { break }
        }
        return found
    }
}
