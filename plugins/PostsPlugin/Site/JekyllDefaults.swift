import YAML

/// Jekyll's front matter defaults (`defaults:` in `_config.yml`): values a document gets for the keys its own front
/// matter leaves out, by scope (`path`, a prefix of the document's path in the site, or a glob with `*`; `type`:
/// `posts`, `pages`, `drafts` or a collection's name). Several sets may apply: as Jekyll's `FrontmatterDefaults`, a
/// set with a longer path, then one with a type, takes precedence, and among equals the later one; mappings are
/// merged deeply.
struct JekyllDefaults: Sendable {
    struct Set: Sendable {
        var path: String
        var type: String?
        var values: YAMLNode
    }

    var sets: [Set] = []

    /// The sets of `defaults`, a list of `{scope: {path, type}, values}`; a malformed one is `problem`'s.
    init(_ defaults: YAMLNode?, problem: (String) -> Void) {
        for (position, entry) in (defaults?.elements ?? []).enumerated() {
            guard let values = entry["values"], values.entries != nil else {
                problem("defaults[\(position)] needs values, a mapping of front matter keys")
                continue
            }
            let scope = entry["scope"]
            sets.append(Set(path: Self.sanitized(scope?["path"]?.scalarText ?? ""), type: scope?["type"]?.scalarText, values: values))
        }
    }

    init() {}

    /// The values that apply to the document at `path` (in the site) of `type`, merged; `nil` when none does.
    func values(path: String, type: String) -> YAMLNode? {
        var merged: YAMLNode?
        var winner: Set?
        for set in sets where Self.applies(set, path: Self.sanitized(path), type: type) {
            guard let current = merged else {
                (merged, winner) = (set.values, set)
                continue
            }
            if Self.precedes(set, over: winner) {
                (merged, winner) = (Self.merge(current, over: set.values), set)
            } else {
                merged = Self.merge(set.values, over: current)
            }
        }
        return merged
    }

    private static func applies(_ set: Set, path: String, type: String) -> Bool {
        if let wanted = set.type, wanted != type { return false }
        if set.path.isEmpty { return true }
        if set.path.contains("*") { return glob(set.path, matches: path) }
        return path.hasPrefix(set.path)
    }

    /// Jekyll's `has_precedence?`: a longer path wins; between equal paths, one with a type, unless the older one has one too.
    private static func precedes(_ new: Set, over old: Set?) -> Bool {
        guard let old else { return true }
        if new.path.count != old.path.count { return new.path.count >= old.path.count }
        return new.type != nil || old.type == nil
    }

    /// `base` with `top`'s keys laid over it, mappings merged key by key (Jekyll's `deep_merge_hashes`).
    static func merge(_ base: YAMLNode, over top: YAMLNode) -> YAMLNode {
        guard var entries = base.entries, let overrides = top.entries else { return top }
        for entry in overrides {
            if let index = entries.firstIndex(where: { $0.key.scalarText == entry.key.scalarText }) {
                entries[index].value = merge(entries[index].value, over: entry.value)
            } else {
                entries.append(entry)
            }
        }
        var merged = base
        merged.content = .mapping(entries)
        return merged
    }

    /// A path as Jekyll compares them: without a leading `/` or `./`.
    private static func sanitized(_ path: String) -> String {
        var path = Substring(path)
        while path.hasPrefix("./") { path = path.dropFirst(2) }
        while path.hasPrefix("/") { path = path.dropFirst() }
        return String(path)
    }

    /// Whether `path` lies under a folder `pattern` names, `*` standing for one path segment's characters.
    private static func glob(_ pattern: String, matches path: String) -> Bool {
        let patternParts = pattern.split(separator: "/"), pathParts = path.split(separator: "/")
        guard pathParts.count >= patternParts.count else { return false }
        return zip(patternParts, pathParts).allSatisfy { part, segment in
            let pieces = part.split(separator: "*", omittingEmptySubsequences: false)
            var rest = Substring(segment)
            for (index, piece) in pieces.enumerated() {
                if index == 0 {
                    guard rest.hasPrefix(piece) else { return false }
                    rest = rest.dropFirst(piece.count)
                } else if index == pieces.count - 1 {
                    return piece.isEmpty || rest.hasSuffix(piece)
                } else if let range = rest.range(of: piece) {
                    rest = rest[range.upperBound...]
                } else {
                    return false
                }
            }
            return rest.isEmpty
        }
    }
}
