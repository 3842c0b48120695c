import PluginAPI
import Store

/// The identifiers a unit's batch sent that live items of other domains hold: refused, each reported once.
struct HeldIdentifiers {
    private(set) var held: [HeldIdentifier] = []

    /// Whether `identifier`, held by an item of `domain`, is refused to a batch confined to `owner` (and so
    /// reported); never when `owner` is `nil` or holds `domain`.
    mutating func refuse(_ identifier: String, heldBy domain: String, outside owner: String?) -> Bool {
        guard let owner, !DomainIdentifier.isWithin(domain, owner) else { return false }
        if !held.contains(where: { $0.identifier.utf8.elementsEqual(identifier.utf8) }) {
            held.append(HeldIdentifier(identifier: identifier, domain: domain))
        }
        return true
    }
}
