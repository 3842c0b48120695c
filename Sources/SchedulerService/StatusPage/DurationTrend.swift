import Foundation
import Store

/// How long a unit's recent runs took, as bars of an inline SVG chart (oldest on the left): drawn with attributes and
/// the page's own stylesheet, so the Content-Security-Policy stays as it is, and with no external asset.
struct DurationTrend {
    /// One run's bar, its numbers already written for the SVG.
    struct Bar {
        var x: String
        var y: String
        var width: String
        var height: String
        /// `ok` or `failed`: the stylesheet's colour.
        var kind: String
        /// The tooltip: when, how long, what.
        var label: String
    }

    static let width = 600.0
    static let height = 80.0

    var bars: [Bar]
    /// The longest run shown, as the chart's scale: `12.5 s`.
    var longest: String
    var summary: String

    /// The trend of `runs` (newest first, as the history gives them); `nil` when none of them ran the plugin.
    init?(runs: [RunRecord]) {
        let shown = runs.filter { [.reindexed, .failed].contains($0.decision) }.reversed()
        guard !shown.isEmpty else { return nil }
        let seconds = shown.map { max(0, $0.finishedAt.timeIntervalSince($0.startedAt)) }
        let longest = max(seconds.max() ?? 0, 0.001)
        // At least 20 slots: a few runs make narrow bars from the left, not one bar across the chart.
        let slot = Self.width / Double(max(shown.count, 20))
        let barWidth = max(1, slot * 0.8)
        bars = zip(shown, seconds).enumerated().map { index, pair in
            let (run, took) = pair
            let height = max(1, took / longest * (Self.height - 2))
            return Bar(
                x: Self.number(Double(index) * slot + (slot - barWidth) / 2), y: Self.number(Self.height - height),
                width: Self.number(barWidth), height: Self.number(height), kind: run.decision == .failed ? "failed" : "ok",
                label: "\(Moment.utc(run.finishedAt)) · \(RunRow.describe(seconds: took)) · \(run.decision.rawValue) (\(run.mode.rawValue))"
            )
        }
        self.longest = RunRow.describe(seconds: longest)
        let sorted = seconds.sorted()
        summary = "\(shown.count) run\(shown.count == 1 ? "" : "s"), median \(RunRow.describe(seconds: sorted[sorted.count / 2])), longest \(self.longest)"
    }

    private static func number(_ value: Double) -> String { String(format: "%.1f", value) }
}
