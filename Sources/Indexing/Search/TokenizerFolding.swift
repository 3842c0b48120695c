/// What SQLite's FTS5 tokenizer (unicode61, `remove_diacritics 2`, the separators of
/// ``TextFolding/tokenizerSeparators``) makes of each character: a separator between words, or a word character
/// folded to one character or to none. It folds character by character, without context: `É` is `e`, `й` stays
/// `й`, a final `ς` is `σ`, a combining accent is dropped, and most other marks (Devanagari vowel signs, a virama)
/// separate words. Read from the tokenizer itself by `scripts/generate-folding-table`, so that every store folds
/// what it stores, and what a user types, as that tokenizer does; `TextFoldingTokenizerTests` keeps them equal.
enum TokenizerFolding {
    /// What one character is to the tokenizer.
    enum Folded: Equatable, Sendable {
        /// It separates words.
        case separator
        /// It is part of a word and folds to this character, or to nothing (a combining accent).
        case word(Unicode.Scalar?)
    }

    /// How each character of a run folds; see ``runs``.
    enum Rule: Equatable, Sendable {
        case separator
        /// A word character folded to nothing.
        case removed
        /// A word character folded to the character this far from it (0: itself).
        case shifted(Int32)
        /// Every character of the run folds to this one.
        case replaced(Unicode.Scalar)
        /// Capital and small letters alternating, from a capital: each capital folds to the small letter after it.
        case pairs
    }

    /// What `scalar` is to the tokenizer.
    static func fold(_ scalar: Unicode.Scalar) -> Folded {
        let value = scalar.value
        if value < 0x80 {
            switch value {
            case 0x30...0x39, 0x61...0x7A: return .word(scalar)
            case 0x41...0x5A: return .word(Unicode.Scalar(value | 0x20)!)
            default: return .separator
            }
        }
        let table = Table.shared
        // The last run starting at or before `value` (the first starts at U+0080).
        var low = 0, high = table.starts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if table.starts[middle] <= value { low = middle } else { high = middle }
        }
        switch table.rules[low] {
        case .separator: return .separator
        case .removed: return .word(nil)
        case .shifted(let distance): return .word(Unicode.Scalar(UInt32(Int64(value) + Int64(distance))) ?? scalar)
        case .replaced(let folded): return .word(folded)
        case .pairs: return .word((value - table.starts[low]) % 2 == 0 ? Unicode.Scalar(value + 1) ?? scalar : scalar)
        }
    }

    /// The runs, read once from their text.
    private struct Table: Sendable {
        var starts: [UInt32] = []
        var rules: [Rule] = []

        static let shared = Table(runs: TokenizerFolding.runs)

        init(runs: String) {
            for line in runs.split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard fields.count == 2, let start = UInt32(fields[0], radix: 16), starts.last.map({ $0 < start }) ?? (start == 0x80)
                else { preconditionFailure("TokenizerFolding.runs: malformed line \(line)") }
                starts.append(start)
                rules.append(Self.rule(fields[1]))
            }
        }

        private static func rule(_ text: Substring) -> Rule {
            switch text.first {
            case "s" where text == "separator": return .separator
            case "r" where text == "removed": return .removed
            case "p" where text == "pairs": return .pairs
            case "=": if let value = UInt32(text.dropFirst(), radix: 16), let scalar = Unicode.Scalar(value) { return .replaced(scalar) }
            case "+", "-": if let distance = Int32(text) { return .shifted(distance) }
            default: break
            }
            preconditionFailure("TokenizerFolding.runs: unknown rule \(text)")
        }
    }
}
