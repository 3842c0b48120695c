import Indexing
import YAML

/// Reads the `search:` section of `scheduler.yaml`:
///
/// ```yaml
/// search:
///   typos: { oneTypoFrom: 5, twoTyposFrom: 9, disabledOn: [ticket, sku] }   # or `typos: false`
/// ```
struct SearchSettingsParser {
    static let typoKeys = ["oneTypoFrom", "twoTyposFrom", "disabledOn"]
    /// A word longer than this is cut as a search term is: a larger allowance would never apply.
    static let lettersRange = 1...SearchTerms.maxTermCharacters

    let reader: NodeReader

    func parse(_ node: YAMLNode) -> SearchSettings? {
        guard let fields = reader.mapping(node, "search", known: ["typos"]) else { return nil }
        var settings = SearchSettings()
        for (key, _, value) in fields where key == "typos" {
            guard let typos = typoTolerance(value) else { return nil }
            settings.typos = typos
        }
        return settings
    }

    private func typoTolerance(_ node: YAMLNode) -> TypoTolerance? {
        if node.elements == nil, node.scalarText != nil {
            guard let enabled = reader.bool(node, "search.typos") else { return nil }
            return enabled ? .standard : .off
        }
        guard let fields = reader.mapping(node, "search.typos", known: Self.typoKeys) else { return nil }
        var typos = TypoTolerance.standard
        var valid = true
        for (key, _, value) in fields {
            switch key {
            case "oneTypoFrom":
                if let letters = reader.integer(value, "search.typos.oneTypoFrom", in: Self.lettersRange) { typos.oneTypoFrom = letters } else { valid = false }
            case "twoTyposFrom":
                if let letters = reader.integer(value, "search.typos.twoTyposFrom", in: Self.lettersRange) { typos.twoTyposFrom = letters } else { valid = false }
            default:
                guard let words = reader.stringList(value, "search.typos.disabledOn") else { valid = false; continue }
                for word in words where SearchTerms(word).words.count != 1 {
                    reader.problem(value, "search.typos.disabledOn: '\(word)' is not one word (letters and digits, no spaces or punctuation)")
                    valid = false
                }
                typos = TypoTolerance(oneTypoFrom: typos.oneTypoFrom, twoTyposFrom: typos.twoTyposFrom, disabledOn: Set(words))
            }
        }
        if typos.twoTyposFrom < typos.oneTypoFrom {
            reader.problem(node, "search.typos.twoTyposFrom (\(typos.twoTyposFrom)) must be at least oneTypoFrom (\(typos.oneTypoFrom)): a word allowed two typos is allowed one")
            valid = false
        }
        return valid ? typos : nil
    }
}
