/// The number of typos between what was typed and an indexed word: the fewest letters inserted, deleted, replaced
/// or neighbours swapped (optimal string alignment) that turn the typed word into a start of the indexed word, as
/// every typed word matches the start of a word.
enum TypoDistance {
    /// The typos between `typed` and the closest start of `word`, when at most `limit`.
    static func typos(from typed: [Unicode.Scalar], toStartOf word: [Unicode.Scalar], atMost limit: Int) -> Int? {
        let n = typed.count
        // Starts longer than `n + limit` letters are more than `limit` typos away.
        let m = min(word.count, n + limit)
        guard n > 0, m >= n - limit else { return nil }
        var beforePrevious = [Int](repeating: 0, count: m + 1)
        var previous = Array(0...m)
        var current = [Int](repeating: 0, count: m + 1)
        for i in 1...n {
            current[0] = i
            var rowMinimum = i
            if m > 0 {
                for j in 1...m {
                    var distance = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (typed[i - 1] == word[j - 1] ? 0 : 1))
                    if i > 1, j > 1, typed[i - 1] == word[j - 2], typed[i - 2] == word[j - 1] {
                        distance = min(distance, beforePrevious[j - 2] + 1)
                    }
                    current[j] = distance
                    rowMinimum = min(rowMinimum, distance)
                }
            }
            if rowMinimum > limit { return nil }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        let distance = previous.min()!
        return distance <= limit ? distance : nil
    }
}
