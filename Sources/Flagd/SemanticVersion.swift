/// A version as flagd's `sem_ver` reads it: `MAJOR.MINOR.PATCH` with an optional `v`, missing parts as 0
/// (`1` is 1.0.0), a pre-release after `-` ordered as Semantic Versioning 2.0 orders it, build metadata ignored.
struct SemanticVersion: Comparable {
    var core: [UInt64]
    var preRelease: [Substring]

    init?(_ text: String) {
        var rest = Substring(text)
        if rest.first == "v" || rest.first == "V" { rest = rest.dropFirst() }
        if let plus = rest.firstIndex(of: "+") { rest = rest[..<plus] }
        var preRelease: [Substring] = []
        if let dash = rest.firstIndex(of: "-") {
            preRelease = rest[rest.index(after: dash)...].split(separator: ".", omittingEmptySubsequences: false)
            guard preRelease.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } }) else { return nil }
            rest = rest[..<dash]
        }
        let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var core: [UInt64] = []
        for part in parts {
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && $0.isNumber }), let number = UInt64(part) else { return nil }
            core.append(number)
        }
        self.core = core + Array(repeating: 0, count: 3 - core.count)
        self.preRelease = preRelease
    }

    var major: UInt64 { core[0] }
    var minor: UInt64 { core[1] }

    static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        if lhs.core != rhs.core { return lhs.core.lexicographicallyPrecedes(rhs.core) }
        switch (lhs.preRelease.isEmpty, rhs.preRelease.isEmpty) {
        case (true, _): return false
        case (false, true): return true
        case (false, false):
            for (left, right) in zip(lhs.preRelease, rhs.preRelease) where left != right {
                switch (UInt64(left), UInt64(right)) {
                case let (l?, r?): return l < r
                case (.some, nil): return true
                case (nil, .some): return false
                case (nil, nil): return left < right
                }
            }
            return lhs.preRelease.count < rhs.preRelease.count
        }
    }

    static func == (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        lhs.core == rhs.core && lhs.preRelease == rhs.preRelease
    }
}
