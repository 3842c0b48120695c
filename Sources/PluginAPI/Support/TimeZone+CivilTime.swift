public import Foundation

extension TimeZone {
    /// The wall-clock time in this zone at `date`, in whole seconds (a fraction of a second is dropped). Dates
    /// beyond ±30 million years (none a schedule meets) are clamped rather than trapping in the conversion.
    public func civilTime(at date: Date) -> CivilDateTime {
        let raw = date.timeIntervalSince1970
        let seconds = raw.isFinite ? Int(min(max(raw, -1e15), 1e15).rounded(.down)) : 0
        return CivilDateTime(secondsSinceEpoch: seconds + secondsFromGMT(for: date))
    }

    /// The instant a schedule (or a date written without a zone) means by the wall-clock time `civil` in this zone.
    ///
    /// A time that happens once is that instant. A time that happens twice (the hour repeated when clocks
    /// fall back) is its first occurrence. A time that never happens (the hour skipped when clocks spring
    /// forward) is the first instant after the gap, when the clocks show the gap's end.
    public func instant(of civil: CivilDateTime) -> Date {
        let local = civil.secondsSinceEpoch
        // Offsets are at most a day away from UTC, so the offsets in force a day before and a day after
        // are the only ones this wall-clock time can be read with (zones change offset at most once a day).
        let before = offset(at: local - 86_400), after = offset(at: local + 86_400)
        let readings = (before == after ? [before] : [before, after])
            .map { local - $0 }
            .filter { local - offset(at: $0) == $0 }
        if let first = readings.min() { return Date(timeIntervalSince1970: TimeInterval(first)) }
        // In a gap: the clocks jumped from `before` to `after` at an instant in (local - after, local - before].
        var low = local - after, high = local - before
        guard low < high else { return Date(timeIntervalSince1970: TimeInterval(local - before)) }
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if offset(at: middle) == before { low = middle } else { high = middle }
        }
        return Date(timeIntervalSince1970: TimeInterval(high))
    }

    /// The offset from UTC in force at `seconds` since 1970.
    private func offset(at seconds: Int) -> Int {
        secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}

extension TimeZone {
    /// Coordinated Universal Time: the zone of schedules and dates that name none.
    public static let utc = TimeZone(identifier: "UTC")!
}
