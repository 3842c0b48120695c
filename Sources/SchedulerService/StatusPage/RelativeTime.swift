import Foundation

/// An instant as operators read it at a glance: "in 3 days", "5 min ago", "just now".
enum RelativeTime {
    static func describe(_ date: Date, now: Date) -> String {
        let seconds = date.timeIntervalSince(now)
        let magnitude = abs(seconds)
        guard magnitude >= 45 else { return "just now" }
        let amount: String
        switch magnitude {
        case ..<(90 * 60): amount = "\(Int((magnitude / 60).rounded())) min"
        case ..<(36 * 3600): amount = plural(Int((magnitude / 3600).rounded()), "hour")
        case ..<(60 * 86_400): amount = plural(Int((magnitude / 86_400).rounded()), "day")
        default: amount = plural(Int((magnitude / (30 * 86_400)).rounded()), "month")
        }
        return seconds > 0 ? "in \(amount)" : "\(amount) ago"
    }

    private static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
