import Foundation
import PluginAPI
import YAML

/// Reads typed values out of one file's YAML nodes, logging a located problem for each bad value
/// instead of stopping at the first, so `scheduler validate` can list them all.
struct NodeReader {
    let file: String
    let problems: ProblemLog

    /// A problem at `node`, or at the start of the file when there is none (an empty or comment-only file).
    func problem(_ node: YAMLNode?, _ message: String) {
        problems.add(file, at: node?.mark ?? YAMLMark(line: 1, column: 1), message)
    }

    /// A warning at `node`: the configuration stays valid, and `validate` shows it.
    func warning(_ node: YAMLNode, _ message: String) {
        problems.warn(ConfigProblem(file: file, line: node.mark.line, column: node.mark.column, message: message))
    }

    func problem(at mark: YAMLMark, _ message: String) {
        problems.add(file, at: mark, message)
    }

    /// The entries of a mapping, in file order; unknown keys are logged with the nearest known key.
    /// `known` empty means any key is allowed (names chosen by the user).
    func mapping(_ node: YAMLNode, _ what: String, known: [String] = []) -> [(key: String, keyNode: YAMLNode, value: YAMLNode)]? {
        guard let mapping = node.entries else {
            problem(node, "\(what) must be a mapping of keys to values")
            return nil
        }
        var entries: [(key: String, keyNode: YAMLNode, value: YAMLNode)] = []
        for entry in mapping {
            guard let key = entry.key.scalarText else {
                problem(entry.key, "keys of \(what) must be plain names")
                continue
            }
            if !known.isEmpty, !known.contains(key) {
                problem(entry.key, "unknown key '\(YAMLErrorText.oneLine(key))' in \(what)\(NearestName.suggestion(for: key, among: known))")
                continue
            }
            entries.append((key, entry.key, entry.value))
        }
        return entries
    }

    /// A text value, as written: `no`, `on` and `1.10` are the strings they look like.
    func string(_ node: YAMLNode, _ what: String) -> String? {
        guard let text = try? node.string() else {
            problem(node, "\(what) must be a string")
            return nil
        }
        guard !text.isEmpty else {
            problem(node, "\(what) must not be empty")
            return nil
        }
        return text
    }

    /// `true` or `false`, nothing else: `no` or `off` would guess, and a guess can purge a domain.
    func bool(_ node: YAMLNode, _ what: String) -> Bool? {
        do {
            return try node.bool()
        } catch {
            problem(node, "\(what) must be true or false\(error.message.hasSuffix("write true or false") ? " ('\(node.scalarText ?? "")' is not a boolean in YAML 1.2)" : "")")
            return nil
        }
    }

    /// A number within `range`, checked before any conversion.
    func number(_ node: YAMLNode, _ what: String, in range: ClosedRange<Double>) -> Double? {
        guard let value = try? node.number(in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude) else {
            problem(node, "\(what) must be a number")
            return nil
        }
        guard range.contains(value) else {
            problem(node, "\(what) must be between \(Self.format(range.lowerBound)) and \(Self.format(range.upperBound)) (got \(Self.format(value)))")
            return nil
        }
        return value
    }

    func integer(_ node: YAMLNode, _ what: String, in range: ClosedRange<Int>) -> Int? {
        guard let value = try? node.integer(in: Int.min...Int.max) else {
            problem(node, "\(what) must be a whole number")
            return nil
        }
        guard range.contains(value) else {
            problem(node, "\(what) must be between \(range.lowerBound) and \(range.upperBound) (got \(value))")
            return nil
        }
        return value
    }

    /// A non-empty list of distinct strings.
    func stringList(_ node: YAMLNode, _ what: String) -> [String]? {
        guard let sequence = node.elements else {
            problem(node, "\(what) must be a list, such as [a, b]")
            return nil
        }
        guard !sequence.isEmpty else {
            problem(node, "\(what) must not be empty")
            return nil
        }
        var values: [String] = []
        var seen = Set<String>()
        for element in sequence {
            guard let value = string(element, "each entry of \(what)") else { continue }
            if seen.insert(value).inserted {
                values.append(value)
            } else {
                problem(element, "'\(value)' appears twice in \(what)")
            }
        }
        return values
    }

    func duration(_ node: YAMLNode, _ what: String, minimum: Duration = .seconds(1)) -> Duration? {
        guard let text = string(node, what) else { return nil }
        guard let duration = DurationText.parse(text) else {
            problem(node, "\(what): '\(text)' is not a duration; write a number and a unit, such as 90s, 15m, 36h, 30d or 2w")
            return nil
        }
        guard duration >= minimum else {
            problem(node, "\(what) must be at least \(DurationText.format(minimum))")
            return nil
        }
        return duration
    }

    func date(_ node: YAMLNode, _ what: String) -> Date? {
        guard let text = node.scalarText else {
            problem(node, "\(what) must be an ISO 8601 date and time with a time zone, such as 2026-12-01T00:00:00Z")
            return nil
        }
        do {
            return try ISO8601.parse(text)
        } catch {
            problem(node, "\(what) must be an ISO 8601 date and time with a time zone, such as 2026-12-01T00:00:00Z: \(error.reason)")
            return nil
        }
    }

    /// A name usable in unit keys, URLs and file names: letters, digits, `-`, `_`.
    func name(_ node: YAMLNode, _ what: String) -> String? {
        guard let text = string(node, what) else { return nil }
        guard text.count <= 64, text.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }) else {
            problem(node, "\(what) '\(text.prefix(80))' must be at most 64 letters, digits, '-' or '_'")
            return nil
        }
        return text
    }

    /// `value` as an operator wrote it: whole numbers without a fraction. Never converts a value that does not
    /// fit an integer exactly (`1e19` stays `1e+19`): such a conversion traps.
    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
