import PluginAPI
import Store

/// The identifiers a unit's batch sent that live items of other domains hold: refused, each reported once.
struct HeldIdentifiers {
    private(set) var held: [HeldIdentifier] = []
    /// The identifiers in ``held``, by their bytes.
    private var reported = Set<[UInt8]>()

    /// Whether `identifier`, held by an item of `domain`, is refused to a batch confined to `owner` (and so
    /// reported); never when `owner` is `nil` or holds `domain`.
    mutating func refuse(_ identifier: String, heldBy domain: String, outside owner: String?) -> Bool {
        guard let owner, !DomainIdentifier.isWithin(domain, owner) else { return false }
        if reported.insert(Array(identifier.utf8)).inserted {
            held.append(HeldIdentifier(identifier: identifier, domain: domain))
        }
        return true
    }
}
