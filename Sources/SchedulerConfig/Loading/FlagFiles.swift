import Flagd
import Foundation
import PluginAPI
import YAML

/// Reads the flagd definition files that `gates.yaml` and `experiments.yaml` name, each once per load, and checks
/// the flags they use: a file that does not parse, a flag that is missing or broken, or a flag of the wrong kind is
/// a problem of the configuration, so the last good one stays in force.
final class FlagFiles {
    /// The keys of a `flagd:` reference.
    static let referenceKeys = ["file", "flag"]

    /// What a flag must serve.
    enum Kind {
        /// A gate's: `true` or `false`.
        case boolean
        /// An experiment's: text naming one of these variants.
        case variantName(of: [String])
    }

    /// The config folder, which relative flag file paths are resolved against.
    let directory: URL
    let problems: ProblemLog
    /// Per file as written: its definitions, or `nil` when it could not be read (its problem is logged once).
    private var files: [String: FlagdDefinitions?] = [:]
    /// Per file as written, a digest of its bytes, for the configuration's fingerprint.
    private(set) var digests: [String: String] = [:]

    init(directory: URL, problems: ProblemLog) {
        self.directory = directory
        self.problems = problems
    }

    /// The flag `flagd: { file, flag }` at `node` names, checked to serve `kind`; `nil` after logging why not.
    func binding(_ node: YAMLNode, reader: NodeReader, what: String, kind: Kind) -> FlagBinding? {
        guard let fields = reader.mapping(node, "\(what): flagd", known: Self.referenceKeys) else { return nil }
        func value(_ key: String) -> YAMLNode? { fields.first { $0.key == key }?.value }
        guard let fileNode = value("file"), let flagNode = value("flag") else {
            reader.problem(node, "\(what): 'flagd:' needs 'file:' (a flagd definition file, relative to the config folder) and 'flag:' (the flag's key)")
            return nil
        }
        guard let file = reader.string(fileNode, "\(what): flagd.file"), let flagKey = reader.string(flagNode, "\(what): flagd.flag") else { return nil }
        guard let definitions = definitions(file, reader: reader, at: fileNode, what: what) else { return nil }
        guard let entry = definitions.flags[flagKey] else {
            reader.problem(flagNode, "\(what): \(file) has no flag '\(YAMLErrorText.oneLine(flagKey))'\(NearestName.suggestion(for: flagKey, among: definitions.flags.keys))")
            return nil
        }
        let flag: FlagdFlag
        switch entry {
        case .success(let checked): flag = checked
        case .failure(let error):
            problems.add(ConfigProblem(file: file, line: error.mark.line, column: error.mark.column, message: Self.message(error)))
            return nil
        }
        if let mismatch = Self.mismatch(flag, kind) {
            reader.problem(flagNode, "\(what): flag '\(flagKey)' in \(file) \(mismatch)")
            return nil
        }
        return FlagBinding(file: file, flag: flagKey, definitions: definitions, referencedFrom: (reader.file, node.mark))
    }

    /// Digests of every file read, in a stable order.
    var fingerprint: String {
        digests.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    }

    private func definitions(_ file: String, reader: NodeReader, at node: YAMLNode, what: String) -> FlagdDefinitions? {
        if let known = files[file] { return known }
        let url = Self.url(of: file, in: directory)
        let definitions = read(url, file: file, reader: reader, at: node, what: what)
        files[file] = .some(definitions)
        return definitions
    }

    private func read(_ url: URL, file: String, reader: NodeReader, at node: YAMLNode, what: String) -> FlagdDefinitions? {
        let read = ConfigFileBytes.read(url, limit: FlagdDefinitions.maxBytes)
        switch read {
        case .missing:
            reader.problem(node, "\(what): the flag file \(file) does not exist (looked for \(url.path)); the last good configuration stays in force until it does")
            return nil
        case .tooLarge, .unreadable:
            problems.add(ConfigProblem(file: file, message: read.refusal ?? ""))
            return nil
        case .bytes(let bytes):
            digests[file] = Bucketing.digest(bytes)
            do {
                return try FlagdDefinitions(parsing: bytes)
            } catch {
                problems.add(ConfigProblem(file: file, line: error.mark.line, column: error.mark.column, message: Self.message(error)))
                return nil
            }
        }
    }

    /// Why `flag` cannot serve `kind`, or `nil` when it can.
    private static func mismatch(_ flag: FlagdFlag, _ kind: Kind) -> String? {
        guard flag.defaultVariant != nil else {
            return "has no defaultVariant; a flag that decides a gate or a variant must serve one when no rule matches"
        }
        for (name, value) in flag.variants.sorted(by: { $0.key < $1.key }) {
            switch (kind, value) {
            case (.boolean, .bool): continue
            case (.boolean, _):
                return "must be a boolean flag, but its variant '\(name)' is of type \(value.typeName)"
            case (.variantName(let variants), .string(let text)) where variants.contains(where: { $0.utf8.elementsEqual(text.utf8) }): continue
            case (.variantName(let variants), .string(let text)):
                return "serves '\(YAMLErrorText.oneLine(text))' for its variant '\(name)', which is not a variant of the experiment (\(variants.joined(separator: ", ")))"
            case (.variantName, _):
                return "must be a string flag whose values name the experiment's variants, but its variant '\(name)' is of type \(value.typeName)"
            }
        }
        return nil
    }

    /// A flag file's problem with its JSON pointer, which says where it is in a JSON file as well as line:col does.
    private static func message(_ error: FlagdDefinitionError) -> String {
        error.pointer.isEmpty ? error.message : "at \(error.pointer): \(error.message)"
    }

    /// Where the flag file `file` (as written) is: relative to the config folder, or absolute.
    static func url(of file: String, in directory: URL) -> URL {
        file.hasPrefix("/") ? URL(fileURLWithPath: file) : directory.appendingPathComponent(file)
    }
}

extension FlagFiles {
    /// The flag files `gates.yaml` and `experiments.yaml` in `directory` name now (`<section>.<name>.flagd.file`),
    /// read without validating anything: what a watcher must look at besides the config files themselves.
    static func referenced(in directory: URL) -> [String] {
        let sections = [ConfigLoader.gatesFile: "gates", ConfigLoader.experimentsFile: "experiments"]
        var files: Set<String> = []
        for (name, section) in sections {
            let problems = ProblemLog()
            guard let file = YAMLFile.read(directory.appendingPathComponent(name), name: name, problems: problems),
                let entries = file.root?[section]?.entries
            else { continue }
            for entry in entries {
                if let path = entry.value["flagd"]?["file"]?.scalarText, !path.isEmpty { files.insert(path) }
            }
        }
        return files.sorted()
    }
}

extension ConfigLoader {
    /// Every file the configuration is read from as the folder holds them now, relative to it (or absolute): the
    /// three config files and the flag files they name. A watcher compares their contents to notice a change.
    public func watchedFiles() -> [String] {
        [Self.schedulerFile, Self.gatesFile, Self.experimentsFile] + FlagFiles.referenced(in: URL(fileURLWithPath: directory))
    }

    /// Where `file`, one of ``watchedFiles()``, is.
    func url(of file: String) -> URL {
        FlagFiles.url(of: file, in: URL(fileURLWithPath: directory))
    }

    /// The contents of `file`, one of ``watchedFiles()``, read as a load reads it (never past the larger limit).
    public func contents(of file: String) -> ConfigFileBytes {
        ConfigFileBytes.read(url(of: file), limit: max(YAMLFile.limits.maxBytes, FlagdDefinitions.maxBytes))
    }
}
