import Foundation
import PluginAPI
import YAML

/// Reads `experiments.yaml`: `experiments:` mapping each name to `sources`, `variants` whose `overrides` replace
/// source settings, and either the variants' `weight`s (with an optional `salt`) or `flagd: { file, flag }`.
struct ExperimentsFileParser {
    static let experimentKeys = ["sources", "salt", "variants", "flagd"]
    static let variantKeys = ["weight", "overrides"]

    let reader: NodeReader
    let flagFiles: FlagFiles
    let registry: PluginRegistry
    /// The config folder, which relative paths in options are resolved against.
    let directory: URL

    /// The experiments. `declaredSources` holds every source name scheduler.yaml declares, or `nil` when that
    /// file could not be read (references are then not checked); `sources` the valid ones, for option checks.
    func parse(_ root: YAMLNode?, declaredSources: Set<String>?, sources: [Source]) -> [Experiment] {
        guard let root else { return [] }
        guard let top = reader.mapping(root, "experiments.yaml", known: ["experiments"]) else { return [] }
        guard let node = top.first(where: { $0.key == "experiments" })?.value, let entries = reader.mapping(node, "experiments") else {
            return []
        }
        var experiments: [Experiment] = []
        for entry in entries {
            guard let name = reader.name(entry.keyNode, "experiment name"),
                let experiment = parseExperiment(name, entry.value, declaredSources: declaredSources, sources: sources, taken: experiments)
            else { continue }
            experiments.append(experiment)
        }
        return experiments
    }

    private func parseExperiment(
        _ name: String, _ node: YAMLNode, declaredSources: Set<String>?, sources: [Source], taken: [Experiment]
    ) -> Experiment? {
        let what = "experiment '\(name)'"
        guard let fields = reader.mapping(node, what, known: Self.experimentKeys) else { return nil }
        func value(_ key: String) -> YAMLNode? { fields.first { $0.key == key }?.value }
        guard let sourcesNode = value("sources"), let variantsNode = value("variants") else {
            reader.problem(node, "\(what) needs 'sources:' and 'variants:'")
            return nil
        }
        var valid = true
        let sourceNames = reader.stringList(sourcesNode, "\(what): sources") ?? []
        if sourceNames.isEmpty { valid = false }
        for sourceName in sourceNames {
            if let declaredSources, !declaredSources.contains(sourceName) {
                reader.problem(sourcesNode, "\(what): source '\(sourceName)' is not defined in scheduler.yaml"
                    + "\(NearestName.suggestion(for: sourceName, among: declaredSources))")
                valid = false
            }
            if let other = taken.first(where: { $0.sources.contains(sourceName) }) {
                reader.problem(sourcesNode, "\(what): source '\(sourceName)' is already in experiment '\(other.name)'; a source takes part in one experiment at a time")
                valid = false
            }
        }
        let salt = value("salt").flatMap { reader.string($0, "\(what): salt") }
        let flagdNode = value("flagd")
        if flagdNode != nil, value("salt") != nil {
            reader.problem(fields.first { $0.key == "salt" }?.keyNode, "\(what): 'salt' cannot be set beside 'flagd:'; the flag's targeting assigns the variants")
            valid = false
        }
        guard let variantEntries = reader.mapping(variantsNode, "\(what): variants"), !variantEntries.isEmpty else {
            reader.problem(variantsNode, "\(what) needs at least one variant")
            return nil
        }
        var variants: [Variant] = []
        for entry in variantEntries {
            guard let variantName = reader.name(entry.keyNode, "variant name"),
                var variant = parseVariant(variantName, entry.value, experiment: what, weighted: flagdNode == nil)
            else { valid = false; continue }
            for source in sources where sourceNames.contains(source.name) && !variant.overrides.options.isEmpty {
                variant.makers[source.name] = checkOptions(of: source, with: variant, at: entry.value, experiment: what)
            }
            variants.append(variant)
        }
        guard valid else { return nil }
        if let flagdNode {
            let names = variants.map(\.name)
            return flagFiles.binding(flagdNode, reader: reader, what: what, kind: .variantName(of: names)).map {
                Experiment(name: name, sources: sourceNames, assignment: .flag($0), variants: variants)
            }
        }
        guard variants.reduce(0, { $0 + $1.weight }) > 0 else {
            reader.problem(variantsNode, "\(what): the variants' weights must add up to more than 0")
            return nil
        }
        return Experiment(name: name, sources: sourceNames, assignment: .weights(salt: salt), variants: variants)
    }

    /// A variant; `weighted` when the experiment assigns by weight (each variant needs one), not by a flag (none may
    /// have one).
    private func parseVariant(_ name: String, _ node: YAMLNode, experiment: String, weighted: Bool) -> Variant? {
        let what = "\(experiment), variant '\(name)'"
        // `variant: {}` or an empty `variant:` is a variant without overrides (a flag-assigned control).
        guard let fields = node.isNull ? [] : reader.mapping(node, what, known: Self.variantKeys) else { return nil }
        let weightNode = fields.first(where: { $0.key == "weight" })?.value
        var weight = 0
        if weighted {
            guard let weightNode else {
                reader.problem(node, "\(what) needs 'weight:' (a whole number; shares are weight / total)")
                return nil
            }
            guard let value = reader.integer(weightNode, "\(what): weight", in: 0...1_000_000) else { return nil }
            weight = value
        } else if let weightNode {
            reader.problem(weightNode, "\(what): 'weight' cannot be set when 'flagd:' assigns the variants; the flag's targeting decides the shares")
            return nil
        }
        var overrides = Overrides()
        if let overridesNode = fields.first(where: { $0.key == "overrides" })?.value {
            guard let parsed = parseOverrides(overridesNode, what) else { return nil }
            overrides = parsed
        }
        return Variant(name: name, weight: weight, overrides: overrides)
    }

    private func parseOverrides(_ node: YAMLNode, _ what: String) -> Overrides? {
        guard let entries = reader.mapping(node, "\(what): overrides") else { return nil }
        let parsers = SettingParsers(reader: reader)
        var overrides = Overrides()
        var valid = true
        for (key, keyNode, value) in entries {
            switch key {
            case "schedule": overrides.schedule = parsers.schedule(value, what) ?? { valid = false; return nil }()
            case "expiration": overrides.expiration = parsers.expiration(value, what) ?? { valid = false; return nil }()
            case "deepLink": overrides.deepLink = parsers.deepLink(value, what) ?? { valid = false; return nil }()
            case "maxDeleteRatio": overrides.maxDeleteRatio = parsers.maxDeleteRatio(value, what) ?? { valid = false; return nil }()
            case "options":
                guard let options = reader.mapping(value, "\(what): overrides.options") else { valid = false; continue }
                overrides.options += options
            case _ where key.hasPrefix("options.") && key.count > 8:
                overrides.options.append((String(key.dropFirst(8)), keyNode, value))
            case _ where Overrides.forbidden.contains(key):
                reader.problem(keyNode, "\(what): '\(key)' cannot be overridden by a variant; it decides which units exist and whether they run")
                valid = false
            default:
                reader.problem(keyNode, "\(what): unknown override '\(key)'\(NearestName.suggestion(for: key, among: Overrides.keys)); "
                    + "a variant may override \(Overrides.keys.joined(separator: ", ")) or options.KEY")
                valid = false
            }
        }
        return valid ? overrides : nil
    }

    /// The source's options with the variant's option overrides must still be valid for its plugin: the plugin's
    /// maker from them, or `nil` after logging why not.
    private func checkOptions(of source: Source, with variant: Variant, at node: YAMLNode, experiment: String) -> PluginMaker? {
        guard let plugin = registry.plugin(kind: source.plugin) else { return nil }
        let merged = variant.overrides.applied(to: source.settings).options
        let site = PluginValidationContext(baseDirectory: directory.path, partitions: source.partitions)
        return PluginOptions.check(
            plugin, merged, owner: node, in: site, reader: reader, context: "\(experiment), variant '\(variant.name)' on source '\(source.name)'"
        )
    }
}
