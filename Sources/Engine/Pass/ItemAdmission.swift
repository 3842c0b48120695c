import Foundation
import Indexing
import PluginAPI
import SchedulerConfig

/// What a run does to each item a plugin sends before it may be written: refused (with the reason, in the run's
/// rejections) when outside the unit's domain or invalid; else completed with the source's deep link when it carries
/// none, and its text in Unicode's composed form (``UnicodeNormalization``). Items without their own expiration date
/// get ``expiration``'s when written. A run and `scheduler plugins check` admit items alike.
struct ItemAdmission {
    let plan: UnitPlan
    let context: PluginContext
    /// When items that carry no expiration date expire.
    let expiration: DefaultExpiration

    /// The item as it would be written, or `nil` when refused.
    func admit(_ produced: SearchableItem) -> SearchableItem? {
        var item = produced.composingText() ?? produced
        guard DomainIdentifier.isWithin(item.domainIdentifier, plan.unit.domain) else {
            context.rejections.reject(item.uniqueIdentifier, reason: "domain '\(item.domainIdentifier)' is outside the unit's domain '\(plan.unit.domain)'")
            return nil
        }
        if item.contentURL == nil { item.contentURL = context.contentURL(for: item.uniqueIdentifier) }
        do {
            try item.validate()
        } catch {
            context.rejections.reject(item.uniqueIdentifier, reason: error.description)
            return nil
        }
        return item
    }

    /// Whether `identifier` may be deleted (1 to the identifier limit of bytes, no NUL); refused with the reason else.
    func admitDeletion(_ identifier: String) -> Bool {
        let limit = ItemLimits.standard.maxIdentifierBytes
        guard !identifier.isEmpty, identifier.utf8.count <= limit, !identifier.utf8.contains(0) else {
            context.rejections.reject(String(identifier.prefix(80)), reason: "a deletion names an identifier of 1 to \(limit) bytes without NUL")
            return false
        }
        return true
    }
}
