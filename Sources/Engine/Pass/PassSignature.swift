import Foundation
import PluginAPI
import SchedulerConfig
import Store

/// The signature of what a pass decides units from besides their states: every unit's plan (its key, gate, variant
/// and fingerprint), each source's and variant's scheduling settings, and the paused sources. Two passes with the same
/// signature decide a unit in the same state alike at the same instant, so a pass trusts what another settled only
/// under its own signature (``Store/PassSettlement``, ``Store/UnitState/settledUnder``).
enum PassSignature {
    /// The signature of a pass over `plans` with the sources of `pauses` paused.
    static func of(_ plans: [UnitPlan], pauses: [String: SourcePause]) -> String {
        var digest = ContentDigest.Accumulator()
        // The scheduling settings, written once for each source and variant: the same for every unit that has them
        // (a source's units come one after the other, so the set is asked only when the source or variant changes).
        var written: Set<String> = [], lastSource = "", lastVariant: String?
        for plan in plans {
            let variant = plan.variant?.variant ?? ""
            if plan.unit.source != lastSource || variant != lastVariant, written.insert(plan.unit.source + "\u{0}" + variant).inserted {
                let settings = plan.settings
                for field in [
                    "source", plan.unit.source, variant, "\(settings.schedule)", settings.incremental.map { "\($0)" } ?? "-",
                    settings.timeZone.identifier, settings.startingDeadline.map { "\($0.seconds)" } ?? "-",
                    settings.jitter.map { "\($0.seconds)" } ?? "-", "\(plan.sync.rawValue)",
                ] {
                    digest.add(field: field)
                }
            }
            (lastSource, lastVariant) = (plan.unit.source, variant)
            digest.add(field: plan.unit.key)
            digest.add(field: plan.fingerprint)
            digest.add(field: plan.gateDecision.state.rawValue)
            digest.add(field: variant)
        }
        for source in pauses.keys.sorted() {
            digest.add(field: "paused")
            digest.add(field: source)
        }
        return digest.text
    }
}
