import Foundation
import PluginAPI
import YAML

/// The YAML front matter of a Markdown post: a mapping between a `---` line and a closing `---` (or `...`) line,
/// read as YAML by the strict composer over the system libyaml (nested maps, block scalars, multi-line lists and
/// anchors included), with its limits and core-schema types.
///
/// A problem names the line of the file it is on, so a broken post is reported and skipped rather than indexed
/// wrongly.
struct FrontMatter {
    /// A problem in a post, with its 1-based line in the file.
    struct Problem: Error, CustomStringConvertible {
        var line: Int
        var message: String
        var description: String { "line \(line): \(message)" }
    }

    /// Limits for one post's front matter.
    static let limits: YAMLLimits = {
        var limits = YAMLLimits()
        limits.maxBytes = 256 * 1024
        limits.maxNodes = 10_000
        limits.maxDepth = 32
        return limits
    }()

    /// The front matter's mapping; `nil` for a post without front matter, or an empty one.
    private let fields: YAMLNode?
    /// The Markdown after the front matter.
    var body: Substring
    /// Lines before the front matter's first line, to turn its positions into the file's lines.
    private let lineOffset: Int

    /// Splits `text` into front matter and body; a file without front matter has an empty one.
    init(parsing text: String) throws(Problem) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        lineOffset = 1
        guard lines.first?.trimmingCharacters(in: .whitespaces) == "---" else {
            fields = nil
            body = Substring(text)
            return
        }
        guard let close = lines.indices.dropFirst().first(where: { ["---", "..."].contains(lines[$0].trimmingCharacters(in: .whitespaces)) }) else {
            throw Problem(line: 1, message: "the front matter opened here is never closed by a '---' line")
        }
        body = lines[(close + 1)...].joined(separator: "\n")[...]
        let yaml = lines[1..<close].joined(separator: "\n")
        do {
            fields = try YAMLComposer.compose(yaml, limits: Self.limits)
        } catch {
            throw Problem(line: error.mark.line + lineOffset, message: error.message)
        }
        if let fields, fields.entries == nil {
            throw Problem(line: fields.mark.line + lineOffset, message: "the front matter must be a mapping of keys to values")
        }
    }

    private func node(_ key: String) -> YAMLNode? {
        guard let node = fields?[key], !node.isNull else { return nil }
        return node
    }

    private func problem(_ node: YAMLNode, _ message: String) -> Problem {
        Problem(line: node.mark.line + lineOffset, message: message)
    }

    /// The text under `key`, if any (`~` and `null` are none).
    func string(_ key: String) throws(Problem) -> String? {
        guard let node = node(key) else { return nil }
        do {
            let text = try node.string()
            return text.isEmpty ? nil : text
        } catch {
            throw problem(node, "'\(key)' must be text: \(error.message)")
        }
    }

    /// The list under `key`: a list of texts, or one text of comma-separated words.
    func list(_ key: String) throws(Problem) -> [String] {
        guard let node = node(key) else { return [] }
        if let elements = node.elements {
            var items: [String] = []
            for element in elements where !element.isNull {
                do {
                    items.append(try element.string())
                } catch {
                    throw problem(element, "each entry of '\(key)' must be text: \(error.message)")
                }
            }
            return items.filter { !$0.isEmpty }
        }
        guard let text = try string(key) else { return [] }
        return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// `true` or `false` under `key` (absent is false); `yes` or `no` are refused rather than guessed.
    func flag(_ key: String) throws(Problem) -> Bool {
        guard let node = node(key) else { return false }
        do {
            return try node.bool()
        } catch {
            throw problem(node, "'\(key)' must be true or false: \(error.message)")
        }
    }

    /// A date under `key`: `2026-11-30` (midnight UTC), or a date and time with its zone (`2026-11-30T09:00:00Z`,
    /// `2026-11-30 09:00:00 +0100`), read strictly.
    func date(_ key: String) throws(Problem) -> Date? {
        guard let node = node(key) else { return nil }
        guard let text = node.scalarText else { throw problem(node, "'\(key)' must be a date such as 2026-11-30, not a list or a mapping") }
        do {
            return try ISO8601.parse(text, allowing: [.dateOnly, .spaces])
        } catch {
            throw problem(node, "'\(key)' must be a date such as 2026-11-30 or 2026-11-30T09:00:00Z: \(error.reason)")
        }
    }
}
