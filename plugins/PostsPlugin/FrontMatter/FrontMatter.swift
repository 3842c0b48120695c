import Foundation
import PluginAPI
import YAML

/// The fields of a post's front matter, whatever format they were written in, read by the types the item needs.
///
/// YAML and JSON (a JSON object is YAML 1.2's flow syntax) are composed by the strict composer over the system
/// libyaml, with its limits and core-schema types; TOML is read by the strict TOML reader into the same nodes. A
/// problem names the line of the file it is on, so a broken post is reported and skipped rather than indexed wrongly.
struct FrontMatter {
    /// Limits for one post's front matter.
    static let limits: YAMLLimits = {
        var limits = YAMLLimits()
        limits.maxBytes = 256 * 1024
        limits.maxNodes = 10_000
        limits.maxKeys = 1_000
        limits.maxDepth = 32
        return limits
    }()

    /// The format the fields were written in; `nil` for a post without front matter.
    let format: FrontMatterBlock.Format?
    /// The front matter's mapping; `nil` for a post without front matter, or an empty one.
    private let fields: YAMLNode?
    /// Lines before the front matter's first line, to turn its positions into the file's lines.
    private let lineOffset: Int
    /// Wall-clock dates and times written without a zone are read in this one.
    let zone: TimeZone
    /// Whether the fields are read as Jekyll reads them (Ruby's YAML): a key written twice keeps its last value, and
    /// dates are ``JekyllDate``s.
    let asJekyll: Bool
    /// Values for the keys the front matter leaves out: Jekyll's front matter defaults that apply to the file
    /// (``JekyllDefaults``); `nil` for none.
    var defaults: YAMLNode?

    /// Reads the front matter of `block` (`nil`: none), as Jekyll does when `asJekyll`.
    init(_ block: FrontMatterBlock?, zone: TimeZone, asJekyll: Bool = false) throws(FrontMatterProblem) {
        self.zone = zone
        self.asJekyll = asJekyll
        format = block?.format
        guard let block else {
            fields = nil
            lineOffset = 0
            return
        }
        lineOffset = block.firstLine - 1
        switch block.format {
        case .yaml, .json:
            do {
                fields = try YAMLComposer.compose(String(block.text), limits: Self.limits, duplicateKeys: asJekyll ? .lastWins : .refused)
            } catch {
                let message = block.format == .json ? error.message.replacingPrefix("YAML syntax: ", with: "JSON syntax: ") : error.message
                throw FrontMatterProblem(line: error.mark.line + lineOffset, message)
            }
        case .toml:
            fields = try TOMLFrontMatter.compose(block.text, firstLine: block.firstLine, limits: Self.limits)
        }
        if let fields, fields.entries == nil {
            throw FrontMatterProblem(line: fields.mark.line + lineOffset, "the front matter must be a mapping of keys to values")
        }
    }

    /// The value under a path of keys (`["extra", "author"]`), `nil` when absent or null.
    func node(_ path: String...) -> YAMLNode? {
        node(path)
    }

    func node(_ path: [String]) -> YAMLNode? {
        func value(in root: YAMLNode?) -> YAMLNode? {
            var node = root
            for key in path { node = node?[key] }
            guard let node, !node.isNull else { return nil }
            return node
        }
        return value(in: fields) ?? value(in: defaults)
    }

    func problem(_ node: YAMLNode, _ message: String) -> FrontMatterProblem {
        FrontMatterProblem(line: node.mark.line + lineOffset, message)
    }

    /// The text under the first of `keys` present (`~` and `null` are none, and so is empty text).
    func string(_ keys: String...) throws(FrontMatterProblem) -> String? {
        for key in keys {
            guard let node = node(key.split(separator: ".").map(String.init)) else { continue }
            let text = try string(node, named: key)
            if !text.isEmpty { return text }
        }
        return nil
    }

    func string(_ node: YAMLNode, named key: String) throws(FrontMatterProblem) -> String {
        do {
            return try node.string()
        } catch {
            throw problem(node, "'\(key)' must be text: \(error.message)")
        }
    }

    /// The texts under `key`: a list of texts, or one text that `split` cuts into several.
    func list(_ key: String, splitting split: (String) -> [String]) throws(FrontMatterProblem) -> [String] {
        guard let node = node(key.split(separator: ".").map(String.init)) else { return [] }
        guard let elements = node.elements else { return split(try string(node, named: key)) }
        var items: [String] = []
        for element in elements where !element.isNull {
            do {
                items.append(try element.string())
            } catch {
                throw problem(element, "each entry of '\(key)' must be text: \(error.message)")
            }
        }
        return items
    }

    /// `true` or `false` under `key`; `nil` when absent. `yes` and `no` are refused rather than guessed.
    func flag(_ key: String) throws(FrontMatterProblem) -> Bool? {
        guard let node = node(key) else { return nil }
        do {
            return try node.bool()
        } catch {
            throw problem(node, "'\(key)' must be true or false: \(error.message)")
        }
    }

    /// The instant under the first of `keys` present: `2026-11-30` (midnight in the zone), a date and time with or
    /// without its zone (`2026-11-30T09:00:00Z`, `2026-11-30 09:00:00 +0100`, `2026-11-30 09:00:00`), read strictly;
    /// as Jekyll reads them (``JekyllDate``) when the fields are read as Jekyll's.
    func date(_ keys: String...) throws(FrontMatterProblem) -> Date? {
        for key in keys {
            guard let node = node(key) else { continue }
            guard let text = node.scalarText else { throw problem(node, "'\(key)' must be a date such as 2026-11-30, not a list or a mapping") }
            do {
                if asJekyll {
                    var isPlain = false
                    if case .scalar(_, style: .plain) = node.content { isPlain = node.tag == nil }
                    return try JekyllDate.parse(text, zone: zone, isYAMLTimestamp: isPlain)
                }
                return try ISO8601.parse(text, allowing: [.dateOnly, .spaces], localZone: zone)
            } catch {
                throw problem(node, "'\(key)' must be a date such as 2026-11-30 or 2026-11-30T09:00:00Z: \(error.reason)")
            }
        }
        return nil
    }

    /// The names under `key`: a text, a list of texts, or mappings with a `name` (`author: {name: Ana}`).
    func names(_ key: String) throws(FrontMatterProblem) -> [String] {
        guard let node = node(key.split(separator: ".").map(String.init)) else { return [] }
        var names: [String] = []
        for element in node.elements ?? [node] where !element.isNull {
            let named = element.entries != nil ? element["name"] : element
            guard let named, !named.isNull else { continue }
            names.append(try string(named, named: key))
        }
        return names
    }

    /// Whether Hugo's build options under `path` say the page is not rendered: `build.render` (or `_build.render`)
    /// is `never` or `false`.
    func isHeadless(under path: [String]) throws(FrontMatterProblem) -> Bool {
        for build in ["build", "_build"] {
            guard let render = node(path + [build, "render"]) else { continue }
            if render.scalarText == "never" || render.scalarText == "false" { return true }
        }
        return false
    }

    /// The keys at the top of the front matter.
    var keys: [String] { fields?.entries?.compactMap(\.key.scalarText) ?? [] }
}

extension String {
    func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
