/// Durations as operators write them: `90s`, `15m`, `36h`, `30d`, `2w`, or combined, `1h30m`.
public enum DurationText {
    private static let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]

    /// The duration `text` names, or `nil` when it is not a sequence of number-and-unit pairs.
    public static func parse(_ text: String) -> Duration? {
        var seconds: Int64 = 0
        var number: Int64?
        for character in text.trimmingCharacters(in: " ") {
            if let digit = character.wholeNumberValue, character.isASCII {
                let (shifted, overflow) = (number ?? 0).multipliedReportingOverflow(by: 10)
                guard !overflow, shifted <= 10_000_000_000 else { return nil }
                number = shifted + Int64(digit)
            } else if let unit = units[character], let value = number {
                let (added, overflow) = seconds.addingReportingOverflow(value * unit)
                guard !overflow, added <= 100 * 365 * 86_400 else { return nil }
                seconds = added
                number = nil
            } else {
                return nil
            }
        }
        guard number == nil, seconds > 0 else { return nil }
        return .seconds(seconds)
    }

    /// `duration` in the largest whole units: `36h`, `30d`, `1h30m`.
    public static func format(_ duration: Duration) -> String {
        var remaining = duration.components.seconds
        guard remaining > 0 else { return "0s" }
        var text = ""
        for (unit, size) in [("w", Int64(604_800)), ("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)] where remaining >= size {
            text += "\(remaining / size)\(unit)"
            remaining %= size
        }
        return text
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> Substring {
        let start = firstIndex { $0 != set } ?? endIndex
        let end = lastIndex { $0 != set }.map(index(after:)) ?? start
        return self[start..<end]
    }
}

/// A duration written as text in plugin options (`timeout: 10m`), decoded with ``DurationText``.
public struct DurationOption: Decodable, Sendable, Hashable {
    public var duration: Duration

    public init(_ duration: Duration) {
        self.duration = duration
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let duration = DurationText.parse(text) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath,
                debugDescription: "'\(text)' is not a duration; write a number and a unit, such as 90s, 15m or 2h"
            ))
        }
        self.duration = duration
    }
}
