import Foundation
import PluginAPI
import YAML

/// The versions of a documentation site published side by side (etcd's `docs/v3.6`, `docs/v3.7`…): which folder
/// holds which version, and the current one, the version people land on. Each item of a page in a version's folder
/// carries that version, and whether it is the current one; a page elsewhere carries none.
///
/// Named by the `versions` option (`folder: "docs/{version}"`, relative to `directory`; `current: v3.7`), or read
/// from a Hugo Docsy site's file: `params.versions` (each `version` and the `url` its folder is served at, relative
/// ones only) and the current one from `params.version` (a text), else `params.latest_stable_version` (etcd's),
/// else the first listed. The option's parts win over the site's.
struct DocsVersions: Sendable, Hashable {
    /// Where versions lie: a pattern of folders with one `{version}`, or the folders a site's file lists.
    enum Folders: Sendable, Hashable {
        /// The pattern's folder names, `nil` where the version's name goes.
        case pattern([String?])
        /// Each listed folder (`docs/v3.7`) and its version.
        case listed([String: String])
    }

    var folders: Folders
    var current: String

    /// Why the option's folder is no pattern, or `nil`: relative, one `{version}` standing for a whole folder name.
    static func patternProblem(_ folder: String) -> String? {
        let parts = folder.split(separator: "/", omittingEmptySubsequences: false)
        guard !folder.hasPrefix("/"), !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
            return "'\(folder.prefix(80))' must be a relative folder, such as docs/{version}"
        }
        guard parts.count(where: { $0 == "{version}" }) == 1, !parts.contains(where: { $0 != "{version}" && $0.contains("{") }) else {
            return "'\(folder.prefix(80))' must hold {version} once, as a whole folder name, such as docs/{version}"
        }
        return nil
    }

    /// Why `version` cannot be an item's version, or `nil`.
    static func versionProblem(_ version: String) -> String? {
        do {
            try SearchableItem(uniqueIdentifier: "x", domainIdentifier: "x", version: version).validate()
            return nil
        } catch {
            return "'\(version.prefix(80))' \(error.reason)"
        }
    }

    /// The folder of the current version, relative to the posts folder.
    var currentFolder: String {
        switch folders {
        case .pattern(let pattern): pattern.map { $0 ?? current }.joined(separator: "/")
        case .listed(let listed): listed.first { $0.value == current }?.key ?? current
        }
    }

    /// Why these versions cannot be used with the posts folder at `root`, or `nil`: the current version's folder must
    /// be there, or every versioned page would be written hidden from the searches that name no version.
    func problem(inFolder root: String) -> String? {
        var isFolder: ObjCBool = false
        let path = (root as NSString).appendingPathComponent(currentFolder)
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            return "the current version '\(current.prefix(64))' has no folder \(currentFolder.prefix(200)) in \(root.prefix(200)); name the version people land on as its folder is named"
        }
        return nil
    }

    /// The version of the page at `relativePath` (in the posts folder), `nil` outside every version's folder.
    func version(of relativePath: String) -> String? {
        let folders = relativePath.split(separator: "/").dropLast()
        switch self.folders {
        case .pattern(let pattern):
            guard folders.count >= pattern.count else { return nil }
            var version: String?
            for (name, expected) in zip(folders, pattern) {
                if let expected {
                    guard name == expected else { return nil }
                } else {
                    version = String(name)
                }
            }
            return version
        case .listed(let listed):
            for end in stride(from: folders.count, through: 1, by: -1) {
                if let version = listed[folders.prefix(end).joined(separator: "/")] { return version }
            }
            return nil
        }
    }

    /// `item` with the version of the page at `relativePath`, and whether it is the current one.
    func apply(to item: inout SearchableItem, at relativePath: String) {
        guard let version = version(of: relativePath) else { return }
        item.version = version
        item.isCurrentVersion = version == current
    }
}

extension DocsVersions {
    /// What a Hugo Docsy site's `params` say of its versions: each listed folder (from `versions`' relative `url`s)
    /// and its version, and the current one (`version`, else `latest_stable_version`, else the first listed).
    struct Site: Sendable, Hashable {
        var folders: [String: String] = [:]
        var current: String?

        init?(params: YAMLNode?) {
            /// The value under `key`, any case (Hugo's keys are case-insensitive).
            func value(_ node: YAMLNode?, _ key: String) -> YAMLNode? {
                node?.entries?.first { $0.key.scalarText?.lowercased() == key.lowercased() }?.value
            }
            var first: String?
            for entry in value(params, "versions")?.elements ?? [] {
                guard let version = value(entry, "version")?.scalarText, DocsVersions.versionProblem(version) == nil,
                      let url = value(entry, "url")?.scalarText, url.hasPrefix("/"), !url.hasPrefix("//") else { continue }
                let folder = url.split(separator: "/").joined(separator: "/")
                guard !folder.isEmpty else { continue }
                folders[folder] = version
                first = first ?? version
            }
            let named = [value(params, "version")?.scalarText, value(params, "latest_stable_version")?.scalarText].compactMap { $0 }
            current = named.first { !$0.isEmpty && DocsVersions.versionProblem($0) == nil } ?? first
            guard !folders.isEmpty else { return nil }
        }
    }

    /// The versions the `option` names, its missing parts taken from the `site`'s file; `nil` when neither names
    /// any. Throws the problem of the option (`versions`) when a part is missing from both.
    static func combining(_ option: PostsSource.Versions?, site: Site?) throws(PluginOptionError) -> DocsVersions? {
        guard option != nil || site != nil else { return nil }
        guard let current = option?.current ?? site?.current else {
            throw PluginOptionError(option: "versions", reason: "name the current version, the one people land on (versions.current: v3.7); the site's file names none")
        }
        if let folder = option?.folder {
            return DocsVersions(folders: .pattern(folder.split(separator: "/").map { $0 == "{version}" ? nil : String($0) }), current: current)
        }
        guard let site else {
            throw PluginOptionError(option: "versions", reason: "name the folder of each version (versions.folder: docs/{version}); the site's file lists none")
        }
        // A current version no folder holds would hide every versioned page from the searches that name none.
        guard site.folders.values.contains(current) else {
            let listed = Set(site.folders.values).sorted().joined(separator: ", ")
            throw PluginOptionError(option: "versions", reason: "the current version '\(current.prefix(64))' is not one the site's params.versions lists (\(listed.prefix(400)))")
        }
        return DocsVersions(folders: .listed(site.folders), current: current)
    }
}

/// The `versions` option of the `posts` plugin (``DocsVersions``): `folder`, the pattern of each version's folder
/// relative to `directory` (`docs/{version}`), and `current`, the version people land on; either may come from the
/// site's file.
extension PostsSource {
    public struct Versions: Decodable, Sendable, Hashable {
        public var folder: String?
        public var current: String?

        public init(folder: String? = nil, current: String? = nil) {
            self.folder = folder
            self.current = current
        }

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case folder, current
        }

        /// Refuses a key it does not know (`folders:`), naming the closest: a typo must not turn versions off.
        public init(from decoder: any Decoder) throws {
            let all = try decoder.container(keyedBy: AnyKey.self)
            let known = Set(CodingKeys.allCases.map(\.rawValue))
            if let unknown = all.allKeys.map(\.stringValue).filter({ !known.contains($0) }).min() {
                throw DecodingError.dataCorrupted(.init(
                    codingPath: decoder.codingPath + [AnyKey(stringValue: unknown)],
                    debugDescription: "unknown option\(NearestName.suggestion(for: unknown, among: known)); versions takes folder and current"
                ))
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            folder = try container.decodeIfPresent(String.self, forKey: .folder)
            current = try container.decodeIfPresent(String.self, forKey: .current)
        }

        private struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
    }
}
