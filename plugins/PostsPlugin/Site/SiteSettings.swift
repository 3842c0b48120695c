import Foundation
import PluginAPI
import YAML

/// What a site's own configuration file says about where its pages are served (the `site` option names it):
/// Jekyll's `_config.yml` (`permalink`, or the posts collection's, `timezone`, `url` + `baseurl`), Hugo's `hugo.toml|yaml|yml|json` or
/// `config.*` (`baseURL`, `permalinks`, `uglyURLs`, `timeZone`, `markup.goldmark`'s heading ids; keys in any case, as
/// Hugo reads them), Zola's
/// `config.toml` (`base_url`). The options of the source override each.
struct SiteSettings: Sendable {
    var baseURL: String?
    var timeZone: String?
    /// The site file's digest: an incremental run made with another is no use (its URLs may differ).
    var digest: String?
    /// Jekyll's `permalink`.
    var permalink: String?
    /// Jekyll's collections' own `permalink`s (`collections.docs.permalink`), by collection, the posts' excepted.
    var jekyllCollectionPermalinks: [String: Permalink] = [:]
    /// The permalink of a collection's documents without one: the site's `permalink` style decides its end.
    var jekyllCollectionDefault = Permalink.collectionDefault(siteStyle: nil)
    /// Jekyll's front matter defaults (`defaults:`).
    var jekyllDefaults = JekyllDefaults()
    /// Hugo's `permalinks`, by section (also read from the newer `permalinks.page`).
    var hugoPermalinks: [String: HugoPermalink] = [:]
    /// Hugo's `uglyURLs`: pages at `/section/name.html` rather than `/section/name/`.
    var uglyURLs = false
    /// Hugo's `markup.goldmark` settings for heading ids.
    var hugoHeadings = HugoHeadings()
    /// The versions a Hugo Docsy site lists (`params.versions`), if any.
    var docsVersions: DocsVersions.Site?

    /// The largest configuration file read.
    static let maxBytes = 1 << 20

    /// Why the file is not read.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// Why `path` is not named as a site configuration, or `nil`.
    static func nameProblem(_ path: String) -> String? {
        let name = (path as NSString).lastPathComponent.lowercased()
        let isConfig = name.hasPrefix("_config.") || name.hasPrefix("hugo.") || name.hasPrefix("config.")
        guard !isConfig || !["toml", "yaml", "yml", "json"].contains((name as NSString).pathExtension) else { return nil }
        return "\(path) is not a site configuration: name Jekyll's _config.yml, Hugo's hugo.toml (or .yaml, .yml, .json, config.*) or Zola's config.toml"
    }

    /// Limits for a site's configuration: those of front matter, up to ``maxBytes``.
    static let limits: YAMLLimits = {
        var limits = FrontMatter.limits
        limits.maxBytes = maxBytes
        return limits
    }()

    /// Reads the file at `path`.
    static func read(path: String) throws(Problem) -> SiteSettings {
        if let problem = nameProblem(path) { throw Problem(description: problem) }
        let name = (path as NSString).lastPathComponent.lowercased()
        let format = (name as NSString).pathExtension
        let folder: ContentFolder
        let data: Data
        do {
            folder = try ContentFolder(path: (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent)
            data = try folder.read((path as NSString).lastPathComponent, maxBytes: maxBytes)
        } catch {
            throw Problem(description: "cannot read \(path): \(error)")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw Problem(description: "\(path) is not UTF-8 text") }
        var settings = try settings(of: text, format: format, name: name, path: path)
        settings.digest = ContentDigest.of(data)
        return settings
    }

    /// The settings `text`, the site file `path` named `name`, holds.
    private static func settings(of text: String, format: String, name: String, path: String) throws(Problem) -> SiteSettings {
        let root: YAMLNode?
        do {
            if format == "toml" {
                root = try TOMLFrontMatter.compose(text[...], firstLine: 1, limits: limits)
            } else {
                root = try YAMLComposer.compose(text, limits: limits, duplicateKeys: name.hasPrefix("_config.") ? .lastWins : .refused)
            }
        } catch {
            throw Problem(description: "\(path): \(error)")
        }
        guard let root, root.entries != nil else { return SiteSettings() }
        return try settings(of: root, jekyll: name.hasPrefix("_config."), path: path)
    }

    private static func settings(of root: YAMLNode, jekyll: Bool, path: String) throws(Problem) -> SiteSettings {
        /// The value under `key`, any case (Hugo's keys are case-insensitive).
        func value(_ node: YAMLNode?, _ key: String) -> YAMLNode? {
            node?.entries?.first { $0.key.scalarText?.lowercased() == key.lowercased() }?.value
        }
        func text(_ node: YAMLNode?) -> String? { node?.scalarText.flatMap { $0.isEmpty ? nil : $0 } }
        var settings = SiteSettings()
        if jekyll {
            // The posts collection's own permalink wins over the site's (jekyllrb.com's `/news/:year/…`).
            settings.permalink = text(root["collections"]?["posts"]?["permalink"]) ?? text(root["permalink"])
            for entry in root["collections"]?.entries ?? [] {
                guard let name = entry.key.scalarText, name != "posts", let pattern = text(entry.value["permalink"]) else { continue }
                guard let permalink = Permalink(validating: pattern) else {
                    throw Problem(description: "\(path): collections.\(name).permalink: '\(pattern.prefix(80))' is not a style or a path whose placeholders Jekyll knows")
                }
                settings.jekyllCollectionPermalinks[name] = permalink
            }
            settings.jekyllCollectionDefault = Permalink.collectionDefault(siteStyle: text(root["permalink"]))
            var problems: [String] = []
            settings.jekyllDefaults = JekyllDefaults(root["defaults"]) { problems.append($0) }
            if let problem = problems.first { throw Problem(description: "\(path): \(problem)") }
            settings.timeZone = text(root["timezone"])
            if let url = text(root["url"]) {
                settings.baseURL = String(url.trimmingTrailingSlashes) + (text(root["baseurl"]).map { "/" + $0.trimmingCharacters(in: CharacterSet(charactersIn: "/")) } ?? "")
            }
            return settings
        }
        if let zolaURL = text(root["base_url"]) {
            settings.baseURL = zolaURL
            return settings
        }
        settings.baseURL = text(value(root, "baseURL"))
        settings.timeZone = text(value(root, "timeZone"))
        settings.uglyURLs = text(value(root, "uglyURLs")) == "true"
        settings.hugoHeadings = try hugoHeadings(value(value(root, "markup"), "goldmark"), path: path)
        settings.docsVersions = DocsVersions.Site(params: value(root, "params"))
        let permalinks = value(root, "permalinks")
        for entries in [value(permalinks, "page")?.entries, permalinks?.entries].compactMap({ $0 }) {
            for entry in entries {
                guard let section = entry.key.scalarText?.lowercased(), let pattern = entry.value.scalarText, settings.hugoPermalinks[section] == nil else { continue }
                switch HugoPermalink.validating(pattern) {
                case .success(let permalink): settings.hugoPermalinks[section] = permalink
                case .failure(let unknown):
                    throw Problem(description: "\(path): permalinks.\(section): ':\(unknown.token)' is not a permalink token this plugin reads; use \(HugoPermalink.tokens.sorted().map { ":" + $0 }.joined(separator: ", "))")
                }
            }
        }
        return settings
    }

    /// Hugo's heading settings under `markup.goldmark` (``HugoHeadings``); a value Hugo would not take is refused.
    private static func hugoHeadings(_ goldmark: YAMLNode?, path: String) throws(Problem) -> HugoHeadings {
        func value(_ node: YAMLNode?, _ key: String) -> YAMLNode? {
            node?.entries?.first { $0.key.scalarText?.lowercased() == key.lowercased() }?.value
        }
        var headings = HugoHeadings()
        let parser = value(goldmark, "parser")
        if let type = value(parser, "autoHeadingIDType")?.scalarText {
            guard let known = HugoHeadings.IDType(rawValue: type) else {
                throw Problem(description: "\(path): markup.goldmark.parser.autoHeadingIDType: '\(type.prefix(40))' is not one of \(HugoHeadings.IDType.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            headings.idType = known
        }
        headings.autoHeadingID = value(parser, "autoHeadingID")?.scalarText != "false"
        let typographer = value(value(goldmark, "extensions"), "typographer")
        if typographer?.scalarText == "false" || value(typographer, "disable")?.scalarText == "true" {
            headings.typographer = nil
        } else if var replacements = headings.typographer {
            let keys: [(String, WritableKeyPath<HugoHeadings.Typographer, String>)] = [
                ("enDash", \.enDash), ("emDash", \.emDash), ("ellipsis", \.ellipsis), ("leftAngleQuote", \.leftAngleQuote), ("rightAngleQuote", \.rightAngleQuote),
            ]
            for (key, field) in keys {
                guard let written = value(typographer, key)?.scalarText else { continue }
                let replacement = HugoHeadings.Typographer.resolvingEntities(written)
                guard replacement.utf8.count <= HugoHeadings.Typographer.maxReplacementBytes else {
                    throw Problem(description: "\(path): markup.goldmark.extensions.typographer.\(key): longer than \(HugoHeadings.Typographer.maxReplacementBytes) bytes; a typographer puts a character or two in place of a dash")
                }
                replacements[keyPath: field] = replacement
            }
            headings.typographer = replacements
        }
        return headings
    }
}
