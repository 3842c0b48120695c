import Foundation
import PluginAPI

/// The YAML front matter of a Markdown post, read without a YAML library: `key: value` lines, with values
/// that are plain or quoted scalars, flow lists (`[a, b]`) or block lists (`- a` lines below the key).
///
/// That subset covers what posts carry; anything else is an error naming its line, so a broken post is
/// reported and skipped rather than indexed wrongly.
struct FrontMatter {
    /// A value in the front matter.
    enum Value: Equatable {
        case scalar(String)
        case list([String])
    }

    /// A problem in a post, with its 1-based line.
    struct Problem: Error, CustomStringConvertible {
        var line: Int
        var message: String
        var description: String { "line \(line): \(message)" }
    }

    /// The keys and values, with the line each key is on.
    var fields: [String: (value: Value, line: Int)] = [:]
    /// The Markdown after the front matter.
    var body: Substring

    /// Splits `text` into front matter and body; a file without front matter has an empty one.
    init(parsing text: String) throws(Problem) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        guard lines.first?.trimmingCharacters(in: .whitespaces) == "---" else {
            body = Substring(text)
            return
        }
        guard let close = lines.indices.dropFirst().first(where: { lines[$0].trimmingCharacters(in: .whitespaces) == "---" }) else {
            throw Problem(line: 1, message: "the front matter opened here is never closed by a '---' line")
        }
        body = lines[(close + 1)...].joined(separator: "\n")[...]
        var index = 1
        while index < close {
            let line = lines[index], number = index + 1
            index += 1
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard !line.hasPrefix(" "), !line.hasPrefix("\t"), let colon = line.firstIndex(of: ":") else {
                throw Problem(line: number, message: "expected 'key: value', found '\(trimmed.prefix(60))'")
            }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
                throw Problem(line: number, message: "'\(key.prefix(60))' is not a key")
            }
            guard fields[key] == nil else { throw Problem(line: number, message: "'\(key)' is given twice") }
            let rest = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if rest.isEmpty {
                var items: [String] = []
                while index < close, lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("- ") || lines[index].trimmingCharacters(in: .whitespaces) == "-" {
                    let item = lines[index].trimmingCharacters(in: .whitespaces).dropFirst().trimmingCharacters(in: .whitespaces)
                    items.append(try Self.scalar(item, line: index + 1))
                    index += 1
                }
                fields[key] = (items.isEmpty ? .scalar("") : .list(items), number)
            } else if rest.hasPrefix("[") {
                guard rest.hasSuffix("]") else { throw Problem(line: number, message: "the list of '\(key)' is not closed by ']'") }
                let inner = rest.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                let items = inner.isEmpty ? [] : try inner.split(separator: ",").map { element throws(Problem) in
                    try Self.scalar(element.trimmingCharacters(in: .whitespaces), line: number)
                }
                fields[key] = (.list(items), number)
            } else {
                fields[key] = (.scalar(try Self.scalar(rest, line: number)), number)
            }
        }
    }

    /// A plain or quoted scalar, without a trailing comment.
    private static func scalar(_ text: String, line: Int) throws(Problem) -> String {
        for quote in ["\"", "'"] where text.hasPrefix(quote) {
            guard text.count >= 2, text.hasSuffix(quote) else {
                throw Problem(line: line, message: "the quoted value \(text.prefix(60)) is not closed")
            }
            return String(text.dropFirst().dropLast())
        }
        if let comment = text.range(of: " #") { return text[..<comment.lowerBound].trimmingCharacters(in: .whitespaces) }
        return text
    }

    /// The scalar under `key`, if any.
    func string(_ key: String) throws(Problem) -> String? {
        guard let field = fields[key] else { return nil }
        guard case .scalar(let text) = field.value else { throw Problem(line: field.line, message: "'\(key)' must be text, not a list") }
        return text.isEmpty ? nil : text
    }

    /// The list under `key` (a single scalar counts as a list of one, comma-separated words too).
    func list(_ key: String) -> [String] {
        switch fields[key]?.value {
        case .list(let items): items.filter { !$0.isEmpty }
        case .scalar(let text): text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        case nil: []
        }
    }

    /// `true`/`false` (also yes/no) under `key`; `false` when absent.
    func flag(_ key: String) throws(Problem) -> Bool {
        guard let text = try string(key)?.lowercased() else { return false }
        switch text {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: throw Problem(line: fields[key]!.line, message: "'\(key)' must be true or false, not '\(text.prefix(30))'")
        }
    }

    /// A date under `key`: `2026-11-30` (midnight UTC), or a date and time with its zone (`2026-11-30T09:00:00Z`,
    /// `2026-11-30 09:00:00 +0100`), read strictly.
    func date(_ key: String) throws(Problem) -> Date? {
        guard let text = try string(key) else { return nil }
        do {
            return try ISO8601.parse(text, allowing: [.dateOnly, .spaces])
        } catch {
            throw Problem(line: fields[key]!.line, message: "'\(key)' must be a date such as 2026-11-30 or 2026-11-30T09:00:00Z: \(error.reason)")
        }
    }
}
