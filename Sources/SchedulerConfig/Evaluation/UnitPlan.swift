public import Foundation
import PluginAPI
import YAML

/// What the configuration says about one unit at one instant: its gate, its variant, its effective settings
/// and their fingerprint.
public struct UnitPlan: Sendable {
    public var unit: Unit
    public var plugin: String
    public var gate: String
    public var gateDecision: GateDecision
    /// `nil` when the source takes part in no experiment.
    public var variant: VariantAssignment?
    /// The source's settings with the variant's overrides applied.
    public var settings: SourceSettings
    /// Changes when anything that shapes the unit's items changes (plugin, domain, expiration, deep link,
    /// plugin options), so the engine reindexes; schedule and delete ratio are not part of it.
    public var fingerprint: String
    /// How far the source's `jitter` moves this unit's due instants: the same for the unit on every pass and every
    /// replica, spread evenly over the jitter's length across units. Zero without a jitter.
    public var jitter: Duration = .zero
}

extension UnitPlan {
    /// When the unit is due again after a success at `lastSuccess`: the schedule's instant, moved by its jitter.
    public func nextDue(after lastSuccess: Date) -> Date {
        settings.nextDue(after: lastSuccess).addingTimeInterval(jitter.seconds)
    }

    /// When an incremental run is next due after the last run of either kind, moved by the jitter; `nil` without an
    /// incremental schedule.
    public func nextIncremental(after lastRun: Date) -> Date? {
        settings.nextIncremental(after: lastRun)?.addingTimeInterval(jitter.seconds)
    }

    /// The unit's first due instant after `date` by `schedule` (its full runs' by default) and its jitter: where a
    /// skipped or cancelled run waits.
    public func nextInstant(after date: Date, of schedule: Schedule? = nil) -> Date {
        (schedule ?? settings.schedule).nextDue(after: date.addingTimeInterval(-jitter.seconds), in: settings.timeZone).addingTimeInterval(jitter.seconds)
    }
}

extension SchedulerConfiguration {
    /// The plan of every unit at `date`, in config order.
    public func plans(at date: Date) -> [UnitPlan] {
        var plans: [UnitPlan] = []
        plans.reserveCapacity(scheduler.sources.reduce(0) { $0 + $1.units.count })
        for source in scheduler.sources {
            // What the fingerprint hashes around each unit's domain, by variant: the same for every unit of the source that has it.
            var shapes: [String?: FingerprintShape] = [:]
            for unit in source.units { plans.append(plan(for: unit, of: source, at: date, shapes: &shapes)) }
        }
        return plans
    }

    func plan(for unit: Unit, of source: Source, at date: Date, shapes: inout [String?: FingerprintShape]) -> UnitPlan {
        var decision = gates[source.gate]!.evaluate(unit: unit, environment: scheduler.environment, at: date)
        let experiment = experiment(forSource: source.name)
        var assignment: VariantAssignment?
        do throws(HeldUnit) {
            assignment = try experiment?.assign(unit: unit, environment: scheduler.environment, at: date)
        } catch {
            // A unit whose variant cannot be told is held while its gate is on: running it on the wrong settings
            // is not safe either. A gate validly off still purges: no variant matters then.
            if decision.isOn { decision = GateDecision(state: .unknown, reason: error.reason, flag: decision.flag) }
        }
        var settings = source.settings
        if let assignment, let variant = experiment?.variants.first(where: { $0.name == assignment.variant }) {
            settings = variant.overrides.applied(to: settings)
            if let maker = variant.makers[source.name] { settings.maker = maker }
        }
        let variant = assignment?.variant
        let shape = shapes[variant] ?? {
            let expiration = settings.expiration ?? scheduler.defaultExpiration
            let made = FingerprintShape(
                before: "plugin=\(source.plugin)\ndomain=",
                after: "\nexpiration=\(expiration.components.seconds)\ndeepLink=\(settings.deepLink ?? "")\noptions=\(CanonicalYAML.render(settings.options))"
            )
            shapes[variant] = made
            return made
        }()
        var plan = UnitPlan(
            unit: unit, plugin: source.plugin, gate: source.gate, gateDecision: decision, variant: assignment,
            settings: settings, fingerprint: shape.fingerprint(domain: unit.domain)
        )
        if let jitter = settings.jitter {
            plan.jitter = .milliseconds(Int64(jitter.seconds * 1000) * Int64(Bucketing.jitterBucket(unit: unit.key)) / Int64(Bucketing.bucketCount))
        }
        return plan
    }
}

/// What a unit's fingerprint digests, around its domain: the lines `plugin`, `domain`, `expiration`, `deepLink` and
/// `options` (in canonical text) joined by newlines. Made once for each variant of a source, and digested piece by
/// piece for each unit, with the same digest as the joined text.
struct FingerprintShape {
    var before: String
    var after: String

    func fingerprint(domain: String) -> String {
        var digest = ContentDigest.Accumulator()
        digest.add(before)
        digest.add(domain)
        digest.add(after)
        return digest.text
    }
}

/// A YAML node rendered with mapping keys sorted, so equal options give equal text whatever their order.
enum CanonicalYAML {
    static func render(_ node: YAMLNode) -> String {
        switch node.content {
        case .scalar(let text, _): "\"\(text.replacingOccurrences(of: "\"", with: "\\\""))\""
        case .sequence(let elements): "[" + elements.map(render).joined(separator: ",") + "]"
        case .mapping(let entries):
            "{" + entries.map { (render($0.key), render($0.value)) }.sorted { $0.0 < $1.0 }.map { "\($0.0):\($0.1)" }.joined(separator: ",") + "}"
        }
    }
}

extension SchedulerConfiguration {
    /// A problem for every unit whose gate or experiment flag does not resolve at `date`, where the config names the
    /// flag: such a configuration is refused when it loads, so the last good one stays in force.
    func unresolvedFlags(at date: Date) -> [ConfigProblem] {
        func problem(_ binding: FlagBinding, _ unit: Unit, _ reason: String) -> ConfigProblem {
            let place = binding.referencedFrom
            return ConfigProblem(file: place.file, line: place.mark.line, column: place.mark.column, message: "unit \(unit.key) would be \(reason)")
        }
        var problems: [ConfigProblem] = []
        for source in scheduler.sources {
            let gate = gates[source.gate]!, experiment = experiment(forSource: source.name)
            for unit in source.units {
                let decision = gate.evaluate(unit: unit, environment: scheduler.environment, at: date)
                if decision.state == .unknown, case .flag(let binding) = gate.decider {
                    problems.append(problem(binding, unit, decision.reason))
                }
                // Whatever the gate says: the gate may turn on while the file stays as it is.
                if let experiment, case .flag(let binding) = experiment.assignment {
                    do throws(HeldUnit) {
                        _ = try experiment.assign(unit: unit, environment: scheduler.environment, at: date)
                    } catch {
                        problems.append(problem(binding, unit, error.reason))
                    }
                }
            }
        }
        return problems
    }}
