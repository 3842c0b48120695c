/// What an item's words must hold to match a search, as a tree every store renders in its own query language (a
/// PostgreSQL `tsquery`) or evaluates (the SQLite index's postings and scans, the memory store): a typed word as a prefix, a
/// typo correction or a synonym as a whole word, all of some, any of others.
package indirect enum WordMatch: Hashable, Sendable {
    /// An indexed word starting with this folded word.
    case prefix(String)
    /// An indexed word that is exactly this folded word.
    case whole(String)
    /// Every one of these.
    case all([WordMatch])
    /// At least one of these.
    case any([WordMatch])

    /// `all` of `matches`, or the one match itself.
    static func all(of matches: [WordMatch]) -> WordMatch { matches.count == 1 ? matches[0] : .all(matches) }
    /// `any` of `matches`, or the one match itself.
    static func any(of matches: [WordMatch]) -> WordMatch { matches.count == 1 ? matches[0] : .any(matches) }

    /// This tree as query text: each word through `word` (given whether it is a prefix), children joined by `and`
    /// or `or`, every `any` and every group below the top in parentheses.
    package func rendered(word: (String, _ isPrefix: Bool) -> String, and: String, or: String) -> String {
        func render(_ match: WordMatch, nested: Bool) -> String {
            switch match {
            case .prefix(let text): return word(text, true)
            case .whole(let text): return word(text, false)
            case .all(let matches):
                let joined = matches.map { render($0, nested: true) }.joined(separator: and)
                return nested ? "(" + joined + ")" : joined
            case .any(let matches): return "(" + matches.map { render($0, nested: true) }.joined(separator: or) + ")"
            }
        }
        return render(self, nested: false)
    }

    /// Whether an item matches, `holds` telling whether it holds a word (as a prefix of one of its words, or whole).
    package func isSatisfied(by holds: (String, _ isPrefix: Bool) -> Bool) -> Bool {
        switch self {
        case .prefix(let word): holds(word, true)
        case .whole(let word): holds(word, false)
        case .all(let matches): matches.allSatisfy { $0.isSatisfied(by: holds) }
        case .any(let matches): matches.contains { $0.isSatisfied(by: holds) }
        }
    }
}
