import Foundation
import TOML

/// toml-test's "tagged JSON" for a parsed document, and its comparison with the suite's expected JSON by the rules
/// of toml-test's own runner (`json.go`): floats compared as numbers (any NaN equals any NaN), date-times as the
/// instants or wall-clock times they name, everything else as text.
enum TaggedJSON {
    /// The first difference between `node` and `expected` (from `JSONSerialization`), or `nil` when they agree.
    static func difference(_ node: TOMLNode, _ expected: Any, at path: String = "") -> String? {
        switch node.value {
        case .table(let table):
            guard let object = expected as? [String: Any], !isValue(object) else {
                return "\(path): a table, but \(describe(expected)) was expected"
            }
            let keys = Set(table.keys)
            if keys != Set(object.keys) {
                return "\(path): keys \(keys.sorted()), expected \(object.keys.sorted())"
            }
            for entry in table.entries {
                if let difference = difference(entry.node, object[entry.key] as Any, at: path + "." + entry.key) { return difference }
            }
            return nil
        case .array(let elements):
            guard let array = expected as? [Any] else { return "\(path): an array, but \(describe(expected)) was expected" }
            guard array.count == elements.count else { return "\(path): \(elements.count) elements, expected \(array.count)" }
            for (index, element) in elements.enumerated() {
                if let difference = difference(element, array[index], at: path + "[\(index)]") { return difference }
            }
            return nil
        default:
            guard let object = expected as? [String: Any], isValue(object),
                  let type = object["type"] as? String, let value = object["value"] as? String else {
                return "\(path): a \(node.value.typeName), but \(describe(expected)) was expected"
            }
            let (haveType, haveValue) = tagged(node.value)
            guard haveType == type else { return "\(path): type \(haveType) (\(haveValue)), expected \(type) (\(value))" }
            let same: Bool
            switch type {
            case "float": same = sameFloat(haveValue, value)
            case "datetime", "datetime-local", "date-local", "time-local":
                let want = DateTimeKey(value, offset: type == "datetime")
                same = want != nil && want == DateTimeKey(haveValue, offset: type == "datetime")
            default: same = haveValue == value
            }
            return same ? nil : "\(path): \(type) \(haveValue.debugDescription), expected \(value.debugDescription)"
        }
    }

    /// The tag and text toml-test writes for a scalar.
    static func tagged(_ value: TOMLValue) -> (type: String, value: String) {
        switch value {
        case .string(let text): ("string", text)
        case .integer(let number): ("integer", String(number))
        case .float(let number): ("float", number.isNaN ? "nan" : number.isInfinite ? (number < 0 ? "-inf" : "inf") : "\(number)")
        case .boolean(let truth): ("bool", truth ? "true" : "false")
        case .offsetDateTime(let text): ("datetime", text)
        case .localDateTime(let text): ("datetime-local", text)
        case .localDate(let text): ("date-local", text)
        case .localTime(let text): ("time-local", text)
        case .array: ("array", "")
        case .table: ("table", "")
        }
    }

    private static func isValue(_ object: [String: Any]) -> Bool {
        object.count == 2 && object["type"] is String && object["value"] is String
    }

    private static func describe(_ value: Any) -> String {
        if let object = value as? [String: Any] { return isValue(object) ? "a \(object["type"] ?? "?") value" : "a table" }
        if value is [Any] { return "an array" }
        return "nothing"
    }

    private static func sameFloat(_ have: String, _ want: String) -> Bool {
        let have = have.lowercased(), want = want.lowercased()
        if have.hasSuffix("nan") || want.hasSuffix("nan") {
            return have.trimmingCharacters(in: ["+", "-"]) == want.trimmingCharacters(in: ["+", "-"])
        }
        func number(_ text: String) -> Double? {
            switch text.trimmingCharacters(in: ["+"]) {
            case "inf": .infinity
            case "-inf": -.infinity
            default: Double(text)
            }
        }
        guard let haveNumber = number(have), let wantNumber = number(want) else { return false }
        return haveNumber == wantNumber
    }
}

/// A date-time reduced to what toml-test compares: an offset date-time to its instant (seconds since 1970 and
/// nanoseconds), a local one to its fields, the fraction to nanoseconds (truncated, as Go parses it).
struct DateTimeKey: Equatable {
    var seconds: Int64
    var nanoseconds: Int

    init?(_ text: String, offset: Bool) {
        let normal = text.replacingOccurrences(of: " ", with: "T").replacingOccurrences(of: "t", with: "T").replacingOccurrences(of: "z", with: "Z")
        var date = "1970-01-01", time = "00:00:00", zone = ""
        if let t = normal.firstIndex(of: "T") {
            date = String(normal[..<t])
            time = String(normal[normal.index(after: t)...])
        } else if normal.contains(":") {
            time = normal
        } else {
            date = normal
        }
        if offset {
            guard let z = time.firstIndex(where: { $0 == "Z" || $0 == "+" || $0 == "-" }) else { return nil }
            zone = String(time[z...])
            time = String(time[..<z])
        }
        let dateFields = date.split(separator: "-").compactMap { Int64($0) }
        let secondsAndFraction = time.split(separator: ".", maxSplits: 1)
        let timeFields = (secondsAndFraction.first ?? "").split(separator: ":").compactMap { Int64($0) }
        guard dateFields.count == 3, timeFields.count == 3 else { return nil }
        let fraction = secondsAndFraction.count == 2 ? String(secondsAndFraction[1]) : ""
        guard fraction.allSatisfy(\.isNumber) else { return nil }
        nanoseconds = Int((fraction + String(repeating: "0", count: 9)).prefix(9)) ?? 0
        var offsetSeconds: Int64 = 0
        if zone.count == 6 {
            let parts = zone.dropFirst().split(separator: ":").compactMap { Int64($0) }
            guard parts.count == 2 else { return nil }
            offsetSeconds = (parts[0] * 3600 + parts[1] * 60) * (zone.hasPrefix("-") ? -1 : 1)
        } else if !(zone.isEmpty || zone == "Z") {
            return nil
        }
        // Days from the civil date (Howard Hinnant's algorithm).
        let (y0, m, d) = (dateFields[0], dateFields[1], dateFields[2])
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        seconds = days * 86_400 + timeFields[0] * 3600 + timeFields[1] * 60 + timeFields[2] - offsetSeconds
    }
}
