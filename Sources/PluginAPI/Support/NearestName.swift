/// Suggests the closest valid name for a misspelt one: "did you mean 'enabled'?".
package enum NearestName {
    /// `" (did you mean 'x'?)"` when a candidate is close to `name`, otherwise the empty string.
    package static func suggestion(for name: String, among candidates: some Collection<String>) -> String {
        guard let nearest = nearest(to: name, among: candidates) else { return "" }
        return " (did you mean '\(nearest)'?)"
    }

    /// The candidate with the smallest edit distance to `name`, if that distance is small for its length; else the
    /// one candidate that `name` (of three letters or more) abbreviates: `prod` for `production`.
    package static func nearest(to name: String, among candidates: some Collection<String>) -> String? {
        let lowered = Array(name.lowercased())
        let scored = candidates.map { ($0, editDistance(lowered, Array($0.lowercased()))) }
        guard let best = scored.min(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }) else { return nil }
        let tolerance = max(1, min(3, best.0.count / 3))
        if best.1 <= tolerance { return best.0 }
        let abbreviated = lowered.count < 3 ? [] : candidates.filter { $0.lowercased().hasPrefix(String(lowered)) }
        return abbreviated.count == 1 ? abbreviated.first : nil
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and adjacent transpositions.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
