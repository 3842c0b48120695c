import PluginAPI

/// Which documentation versions a search reads (`version=`), as DocSearch's default version filter: items of a
/// versioned source carry their ``SearchableItem/version`` and whether it is the current one.
public enum SearchVersion: Sendable, Hashable {
    /// The current version of each versioned source, and every item without a version: a search naming none.
    case current
    /// Only the items of this version (`version=v3.6`).
    case named(String)
    /// Every version, and the items without one (`version=*`).
    case any

    /// The filter `parameter` names: `nil` for ``current``, `*` for ``any``, else a version as items carry it.
    public init(parameter: String?) throws(SearchQueryError) {
        guard let parameter else {
            self = .current
            return
        }
        if parameter == "*" {
            self = .any
            return
        }
        let limit = ItemLimits.standard.maxVersionBytes
        guard (1...limit).contains(parameter.utf8.count), !parameter.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw SearchQueryError(parameter: "version", reason: "must be a version of 1 to \(limit) bytes without control characters, such as v3.6, or * for every version")
        }
        self = .named(parameter)
    }

    /// Whether an item of `version` (`nil` for none), current or not, is found.
    public func admits(version: String?, isCurrent: Bool) -> Bool {
        switch self {
        case .current: isCurrent
        // Byte for byte, as the databases compare text (`String`'s equality is canonical equivalence).
        case .named(let named): version.map { $0.utf8.elementsEqual(named.utf8) } ?? false
        case .any: true
        }
    }
}
