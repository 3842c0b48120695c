public import Foundation
public import PluginAPI
public import Store
import YAML

/// Loads the config folder: `scheduler.yaml`, `gates.yaml` (both required), `experiments.yaml` (optional) and the
/// flagd definition files gates and experiments name.
///
/// Loading is all or nothing: any problem in any file, or between them, throws ``InvalidConfiguration``
/// listing every problem found, and nothing of the files is used. A flag that does not resolve for a unit when the
/// files load is such a problem too.
public struct ConfigLoader: Sendable {
    public static let schedulerFile = "scheduler.yaml"
    public static let gatesFile = "gates.yaml"
    public static let experimentsFile = "experiments.yaml"

    public let directory: String
    public let registry: PluginRegistry

    public init(directory: String, registry: PluginRegistry) {
        self.directory = directory
        self.registry = registry
    }

    /// The validated configuration, or every problem with it; its flags are checked by resolving them for every
    /// unit at `date`.
    public func load(at date: Date = Date()) throws(InvalidConfiguration) -> SchedulerConfiguration {
        let problems = ProblemLog()
        let folder = URL(fileURLWithPath: directory)
        let flagFiles = FlagFiles(directory: folder, problems: problems)
        func required(_ name: String) -> YAMLFile? {
            guard let file = YAMLFile.read(folder.appendingPathComponent(name), name: name, problems: problems) else {
                problems.add(ConfigProblem(file: name, message: "missing: the config folder \(directory) must hold \(name)"))
                return nil
            }
            return file
        }
        let schedulerYAML = required(Self.schedulerFile)
        let gatesYAML = required(Self.gatesFile)
        let experimentsYAML = YAMLFile.read(folder.appendingPathComponent(Self.experimentsFile), name: Self.experimentsFile, problems: problems)

        // A file that failed to parse is reported once; the others are still checked, without references into it.
        var environmentReferences: [GatesFileParser.EnvironmentReference] = []
        let gatesParser = gatesYAML.map { GatesFileParser(reader: NodeReader(file: $0.name, problems: problems), flagFiles: flagFiles) }
        let gates = gatesYAML.flatMap { $0.failed ? nil : gatesParser?.parse($0.root, environments: &environmentReferences) }
        var declaredSources: Set<String> = []
        let scheduler = schedulerYAML.flatMap { file -> SchedulerSettings? in
            guard !file.failed else { return nil }
            return SchedulerFileParser(reader: NodeReader(file: file.name, problems: problems), directory: folder, registry: registry)
                .parse(file.root, gates: gates?.declared, declaredSources: &declaredSources)
        }
        if let scheduler { gatesParser?.check(environmentReferences, known: scheduler.environments) }
        let experiments = experimentsYAML.map { file -> [Experiment] in
            guard !file.failed else { return [] }
            return ExperimentsFileParser(
                reader: NodeReader(file: file.name, problems: problems), flagFiles: flagFiles, registry: registry, directory: folder
            )
                .parse(file.root, declaredSources: schedulerYAML?.failed == false ? declaredSources : nil, sources: scheduler?.sources ?? [])
        } ?? []

        guard problems.isEmpty, let scheduler else {
            throw InvalidConfiguration(problems: problems.problems)
        }
        let fingerprint = Bucketing.digest(
            ([schedulerYAML, gatesYAML, experimentsYAML].map { $0?.digest ?? "-" } + [flagFiles.fingerprint]).joined(separator: "/")
        )
        var configuration = SchedulerConfiguration(
            directory: directory, scheduler: scheduler, gates: gates?.gates ?? [:], experiments: experiments, fingerprint: fingerprint
        )
        configuration.warnings = problems.warnings
        let unresolved = configuration.unresolvedFlags(at: date)
        guard unresolved.isEmpty else { throw InvalidConfiguration(problems: unresolved) }
        return configuration
    }

    /// Only the store from `scheduler.yaml`, read as safely as the whole file: the index commands work while a
    /// gate or experiment file is being fixed.
    public static func storeLocation(directory: String) throws(InvalidConfiguration) -> StoreLocation {
        let problems = ProblemLog()
        let folder = URL(fileURLWithPath: directory)
        guard let file = YAMLFile.read(folder.appendingPathComponent(schedulerFile), name: schedulerFile, problems: problems) else {
            throw InvalidConfiguration(problems: [ConfigProblem(
                file: schedulerFile,
                message: "missing: \(directory) holds no \(schedulerFile); pass --config DIR (the folder holding it) or --database PATH"
            )])
        }
        let reader = NodeReader(file: schedulerFile, problems: problems)
        let location = file.root.flatMap { SchedulerFileParser.storeLocation($0, reader: reader, directory: folder) }
        guard let location, problems.isEmpty else {
            if problems.isEmpty {
                reader.problem(file.root, "'store: { sqlite: { path: … } }' or 'store: { postgres: { url: … } }' is required: where the index lives")
            }
            throw InvalidConfiguration(problems: problems.problems)
        }
        return location
    }

    /// Only the `search:` section of `scheduler.yaml`, for `scheduler search`; `nil` when `directory` holds no
    /// `scheduler.yaml` (a command given `--database` alone).
    public static func searchSettings(directory: String) throws(InvalidConfiguration) -> SearchSettings? {
        let problems = ProblemLog()
        guard let file = YAMLFile.read(URL(fileURLWithPath: directory).appendingPathComponent(schedulerFile), name: schedulerFile, problems: problems)
        else { return nil }
        let reader = NodeReader(file: schedulerFile, problems: problems)
        let settings = file.root?["search"].flatMap { SearchSettingsParser(reader: reader).parse($0) } ?? SearchSettings()
        guard problems.isEmpty else { throw InvalidConfiguration(problems: problems.problems) }
        return settings
    }
}
