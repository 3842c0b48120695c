import Foundation
import Indexing
import YAML

/// Reads the `search:` section of `scheduler.yaml`:
///
/// ```yaml
/// search:
///   typos: { oneTypoFrom: 5, twoTyposFrom: 9, disabledOn: [ticket, sku] }   # or `typos: false`
///   synonyms: [[tee, t-shirt], [nyc, new york]]
///   popularity: true            # what people open lifts results
///   popularityHalfLife: 14d
///   analyticsRetention: 90d     # open counts older than this are deleted
///   postings: all               # which fields' words the SQLite service keeps in memory: all, best or off
///   rowCacheMegabytes: 512      # candidate rows kept for the next searches (0: none)
///   cors: { origins: [https://shop.example] }   # pages that may search from the browser
///   access: keys                # who may search: public (anyone who reaches listen) or keys
///   rateLimit: { perKey: 6000, perUser: 300 }   # searches a minute per search key and per token user
/// ```
struct SearchSettingsParser {
    static let typoKeys = ["oneTypoFrom", "twoTyposFrom", "disabledOn"]
    /// A word longer than this is cut as a search term is: a larger allowance would never apply.
    static let lettersRange = 1...SearchTerms.maxTermCharacters
    /// None, up to 64 GB: a million items' rows take about 900 MB as the cache counts them.
    static let rowCacheMegabytesRange = 0...65_536

    let reader: NodeReader

    func parse(_ node: YAMLNode) -> SearchSettings? {
        guard let fields = reader.mapping(node, "search", known: ["typos", "synonyms", "popularity", "popularityHalfLife", "analyticsRetention", "postings", "rowCacheMegabytes", "cors", "access", "rateLimit"]) else { return nil }
        var settings = SearchSettings()
        var popularity = true
        for (key, _, value) in fields {
            switch key {
            case "typos":
                guard let typos = typoTolerance(value) else { return nil }
                settings.typos = typos
            case "synonyms":
                guard let synonyms = synonyms(value) else { return nil }
                settings.synonyms = synonyms
            case "popularity":
                guard let on = reader.bool(value, "search.popularity") else { return nil }
                popularity = on
            case "postings":
                guard let text = reader.string(value, "search.postings"), let fields = SearchPostingsFields(rawValue: text) else {
                    reader.problem(value, "search.postings must be one of \(SearchPostingsFields.allCases.map(\.rawValue).joined(separator: ", "))")
                    return nil
                }
                settings.postings = fields
            case "rowCacheMegabytes":
                guard let megabytes = reader.integer(value, "search.rowCacheMegabytes", in: Self.rowCacheMegabytesRange) else { return nil }
                settings.rowCacheMegabytes = megabytes
            case "rateLimit":
                guard let limits = rateLimits(value) else { return nil }
                settings.rateLimit = limits
            case "access":
                guard let text = reader.string(value, "search.access") else { return nil }
                guard let access = SearchAccess(rawValue: text) else {
                    reader.problem(value, "search.access must be public (anyone who reaches service.listen searches) or keys (a search key or tenant token is needed)")
                    return nil
                }
                settings.access = access
            case "cors":
                guard let origins = corsOrigins(value) else { return nil }
                settings.corsOrigins = origins
            case "analyticsRetention":
                guard let retention = reader.duration(value, "search.analyticsRetention", minimum: .seconds(86_400)) else { return nil }
                settings.analyticsRetention = retention
            default:
                guard let halfLife = reader.duration(value, "search.popularityHalfLife", minimum: .seconds(3600)) else { return nil }
                settings.popularityHalfLife = halfLife
            }
        }
        if !popularity { settings.popularityHalfLife = nil }
        return settings
    }

    /// `{ origins: [ORIGIN, …] }`: each an origin as browsers send it, `https://host` or `http://host:port`, without a
    /// path, a query or `*` (a listed origin is answered by name, never every origin).
    private func corsOrigins(_ node: YAMLNode) -> Set<String>? {
        guard let fields = reader.mapping(node, "search.cors", known: ["origins"]) else { return nil }
        guard let list = fields.first(where: { $0.key == "origins" })?.value else {
            reader.problem(node, "search.cors needs origins, such as { origins: [https://shop.example] }")
            return nil
        }
        guard let origins = reader.stringList(list, "search.cors.origins"), let nodes = list.elements else { return nil }
        var valid = true
        for (origin, originNode) in zip(origins, nodes) where Self.origin(origin) == nil {
            reader.problem(
                originNode,
                "search.cors.origins: '\(origin.prefix(100))' is not an origin; write the scheme and host (and port) a browser sends in Origin, such as https://shop.example or http://localhost:3000, without a path or *"
            )
            valid = false
        }
        return valid ? Set(origins.compactMap(Self.origin)) : nil
    }

    /// `{ perKey: N, perUser: N }`: searches a minute, each 1 to 10,000,000.
    private func rateLimits(_ node: YAMLNode) -> SearchRateLimits? {
        guard let fields = reader.mapping(node, "search.rateLimit", known: ["perKey", "perUser"]) else { return nil }
        var limits = SearchRateLimits()
        for (key, _, value) in fields {
            guard let count = reader.integer(value, "search.rateLimit.\(key)", in: 1...10_000_000) else { return nil }
            if key == "perKey" { limits.perKey = count } else { limits.perUser = count }
        }
        return limits
    }

    /// `text` as the `Origin` header names it (scheme, host and port, lowercased), when it is one.
    static func origin(_ text: String) -> String? {
        let lowered = text.lowercased()
        guard let components = URLComponents(string: lowered), let scheme = components.scheme, ["http", "https"].contains(scheme),
              let host = components.host, !host.isEmpty, components.path.isEmpty, components.query == nil, components.fragment == nil,
              components.user == nil, components.password == nil, !host.contains("*")
        else { return nil }
        return "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
    }

    /// Groups of 2 to ``Synonyms/maxPhrasesPerGroup`` phrases of 1 to ``Synonyms/maxPhraseWords`` words, each phrase
    /// (folded) in one group only.
    private func synonyms(_ node: YAMLNode) -> Synonyms? {
        let what = "search.synonyms"
        guard let groups = node.elements, !groups.isEmpty else {
            reader.problem(node, "\(what) must be a non-empty list of groups of words or phrases, such as [[tee, t-shirt], [nyc, new york]]")
            return nil
        }
        var valid = true
        var written: [[String]] = []
        /// Each folded phrase, with the line of the group holding it.
        var groupLine: [[String]: Int] = [:]
        for group in groups {
            guard let phrases = reader.stringList(group, "each group of \(what)"), let nodes = group.elements else {
                valid = false
                continue
            }
            guard (2...Synonyms.maxPhrasesPerGroup).contains(phrases.count) else {
                reader.problem(group, "a group of \(what) holds 2 to \(Synonyms.maxPhrasesPerGroup) words or phrases (this one \(phrases.count))")
                valid = false
                continue
            }
            for (phrase, phraseNode) in zip(phrases, nodes) {
                let words = Synonyms.words(of: phrase)
                if !(1...Synonyms.maxPhraseWords).contains(words.count) {
                    reader.problem(phraseNode, "\(what): '\(phrase)' must hold 1 to \(Synonyms.maxPhraseWords) words (letters or digits)")
                    valid = false
                } else if Set(words).count < words.count {
                    reader.problem(phraseNode, "\(what): '\(phrase)' repeats a word; a search reads each word once, so the phrase could never be typed")
                    valid = false
                } else if let long = words.first(where: { $0.unicodeScalars.count >= SearchTerms.maxTermCharacters }) {
                    reader.problem(phraseNode, "\(what): '\(long.prefix(20))…' is \(SearchTerms.maxTermCharacters) letters or more; a search cuts longer words, so it could never be typed")
                    valid = false
                } else if let line = groupLine[words] {
                    reader.problem(phraseNode, "\(what): '\(phrase)' is already in the group on line \(line): a word or phrase belongs to one group (merge the two)")
                    valid = false
                } else {
                    groupLine[words] = group.mark.line
                }
            }
            written.append(phrases)
        }
        return valid ? Synonyms(groups: written) : nil
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
