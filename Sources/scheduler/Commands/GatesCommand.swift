import ArgumentParser
import SchedulerConfig
import Foundation
import PluginAPI

/// `scheduler gates`: every unit's gate state and variant, and why.
struct GatesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gates",
        abstract: "Show every unit with its gate state and experiment variant, and the reason for each.",
        discussion: "Exits 2 when the configuration is invalid, listing its problems."
    )

    /// The JSON form of one unit's evaluation.
    struct UnitReport: Encodable {
        var unit: String
        var source: String
        var domain: String
        var gate: String
        var state: GateState
        var reason: String
        /// For a gate a flagd flag decides: the flag, its file, the variant served and flagd's reason.
        var flag: FlagVerdict?
        var experiment: String?
        var variant: String?
        var variantReason: String?
        var variantFlag: FlagVerdict?
        var fingerprint: String
    }

    @OptionGroup var instant: InstantOptions

    @Flag(help: "Print one JSON object {at, units} instead of text.")
    var json = false

    @OptionGroup var config: ConfigOptions

    func run() throws {
        // Loaded as now (a flag that fails now refuses it), decided at --at: a unit a flag would hold then says so.
        let loaded = try config.loadOrExit()
        let date = instant.instant(in: loaded.scheduler.defaultTimeZone) ?? Date()
        let reports = loaded.plans(at: date).map { plan in
            UnitReport(
                unit: plan.unit.key, source: plan.unit.source, domain: plan.unit.domain, gate: plan.gate,
                state: plan.gateDecision.state, reason: plan.gateDecision.reason, flag: plan.gateDecision.flag,
                experiment: plan.variant?.experiment, variant: plan.variant?.variant, variantReason: plan.variant?.reason,
                variantFlag: plan.variant?.flag,
                fingerprint: plan.fingerprint
            )
        }
        if json {
            struct Output: Encodable { var at: String; var units: [UnitReport] }
            return try JSONOutput.print(Output(at: ISO8601.string(from: date), units: reports))
        }
        print("as of \(ISO8601.string(from: date)), environment \(loaded.scheduler.environment)")
        for report in reports {
            var line = "\(report.unit)  \(report.domain)  gate \(report.gate) \(report.reason)"
            if let experiment = report.experiment, let reason = report.variantReason { line += "; \(experiment): \(reason)" }
            print(line)
        }
    }
}
