import Foundation

/// The settings of a Hugo site that decide its headings' ids (`markup.goldmark` in its configuration):
///
/// - `parser.autoHeadingID` (default on): off, headings get no id, and no section an anchor;
/// - `parser.autoHeadingIDType`: `github` (the default), `github-ascii` (accents folded, other non-ASCII dropped) or
///   `blackfriday` (runs of anything but letters and numbers made one `-`);
/// - `extensions.typographer`: what Goldmark's typographer puts in place of `--`, `---`, `...`, `<<` and `>>` (HTML
///   entities by default, which an id leaves out; etcd.io keeps `--` with `enDash: '--'`), or `false` (`disable:
///   true` since Hugo 0.112) to leave the text as written. Quotes become entities, which no id keeps.
///
/// Ids are made from the heading's plain text as Hugo since 0.120 reads it (``HeadingText``).
struct HugoHeadings: Sendable, Hashable {
    enum IDType: String, Sendable, CaseIterable {
        case github
        case githubASCII = "github-ascii"
        case blackfriday
    }

    var idType = IDType.github
    var autoHeadingID = true
    /// The typographer's replacements, or `nil` when it is off.
    var typographer: Typographer? = Typographer()

    /// What the typographer puts in place of each sequence, as the id reads it (HTML entities resolved).
    struct Typographer: Sendable, Hashable {
        /// The longest replacement read (a heading of `--` must not grow a thousandfold).
        static let maxReplacementBytes = 16

        var enDash = "–"
        var emDash = "—"
        var ellipsis = "…"
        var leftAngleQuote = "«"
        var rightAngleQuote = "»"

        /// The sequences the typographer replaces, longest first where one starts another, and by what; quotes by
        /// nothing an id keeps.
        var replacements: [(sequence: String, replacement: String)] {
            [("---", emDash), ("--", enDash), ("...", ellipsis), ("<<", leftAngleQuote), (">>", rightAngleQuote), ("'", "’"), ("\"", "”")]
        }

        /// `text` as the id reads it once typographed: each sequence replaced, read left to right. With `firstPiece`,
        /// only what comes before the first sequence (Goldmark splits a text there, and a link's or emphasis's id
        /// text is its first piece).
        func apply(to text: String, firstPiece: Bool) -> String {
            var result = ""
            var rest = text[...]
            outer: while let first = rest.first {
                for (sequence, replacement) in replacements where rest.hasPrefix(sequence) {
                    if firstPiece { break outer }
                    result += replacement
                    rest = rest.dropFirst(sequence.count)
                    continue outer
                }
                result.append(first)
                rest = rest.dropFirst()
            }
            return result
        }

        /// The named entities a typographer's replacement is usually written with, as characters.
        private static let entities: [Substring: Character] = [
            "ndash": "–", "mdash": "—", "hellip": "…", "laquo": "«", "raquo": "»", "lsquo": "‘", "rsquo": "’", "ldquo": "“",
            "rdquo": "”", "nbsp": "\u{A0}", "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'",
        ]

        /// `replacement` with its numeric entities (`&#45;`, `&#x2d;`) and those of ``entities`` resolved, as Hugo reads
        /// the text an id is made of; other text, unknown names included, as written.
        static func resolvingEntities(_ replacement: String) -> String {
            var result = ""
            var rest = replacement[...]
            while let ampersand = rest.firstIndex(of: "&") {
                result += rest[..<ampersand]
                rest = rest[ampersand...]
                guard let semicolon = rest.prefix(12).firstIndex(of: ";"), let character = character(named: rest[rest.index(after: rest.startIndex)..<semicolon]) else {
                    result.append("&")
                    rest = rest.dropFirst()
                    continue
                }
                result.append(character)
                rest = rest[rest.index(after: semicolon)...]
            }
            return result + rest
        }

        private static func character(named name: Substring) -> Character? {
            guard name.first == "#" else { return entities[name] }
            let digits = name.dropFirst()
            let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            return value.flatMap(Unicode.Scalar.init).map(Character.init)
        }
    }

    /// The id Hugo makes of `text` (a heading's plain text), before its duplicate counter; `heading` when empty.
    func id(of text: String) -> String {
        let id: String
        switch idType {
        case .blackfriday: id = Self.blackfridayID(text)
        case .github: id = Self.githubID(text, asciiOnly: false)
        case .githubASCII: id = Self.githubID(text, asciiOnly: true)
        }
        return id.isEmpty ? "heading" : id
    }

    /// Hugo's `sanitizeAnchorNameWithHook`: the text trimmed; `-` and space become `-`, letters, digits and `_` are
    /// lowercased (Go's one-to-one mapping), the rest removed. `asciiOnly` first folds accents (NFD, marks removed, NFC)
    /// and then drops every non-ASCII character.
    private static func githubID(_ text: String, asciiOnly: Bool) -> String {
        var source = text
        if asciiOnly {
            let decomposed = source.decomposedStringWithCanonicalMapping.unicodeScalars.filter { $0.properties.generalCategory != .nonspacingMark }
            source = String(String.UnicodeScalarView(decomposed)).precomposedStringWithCanonicalMapping
        }
        var id = String.UnicodeScalarView()
        for scalar in source.trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars {
            if asciiOnly, !scalar.isASCII { continue }
            if scalar == "-" || scalar == " " {
                id.append("-")
            } else if scalar == "_" || scalar.properties.isAlphabeticLetter || scalar.properties.generalCategory == .decimalNumber {
                id.append(scalar.goLowercase)
            }
        }
        return String(id)
    }

    /// Blackfriday's `SanitizedAnchorName`: letters and numbers lowercased, each run of anything else between them one
    /// `-`, none at either end.
    private static func blackfridayID(_ text: String) -> String {
        var id = String.UnicodeScalarView()
        var dashPending = false
        for scalar in text.unicodeScalars {
            let category = scalar.properties.generalCategory
            guard scalar.properties.isAlphabeticLetter || category == .decimalNumber || category == .letterNumber || category == .otherNumber else {
                dashPending = true
                continue
            }
            if dashPending, !id.isEmpty { id.append("-") }
            dashPending = false
            id.append(scalar.goLowercase)
        }
        return String(id)
    }
}

extension Unicode.Scalar {
    /// Go's `unicode.ToLower`, which maps one rune to one: the first of the full mapping (`İ` is `i`).
    var goLowercase: Unicode.Scalar { properties.lowercaseMapping.unicodeScalars.first ?? self }
}
