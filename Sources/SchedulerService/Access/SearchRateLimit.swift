import Foundation
import Synchronization

/// Holds back searches past `search.rateLimit`, per search key and per tenant token subject (a token's `sub`, or
/// the token itself without one), counted in one-minute windows on each replica. Anonymous searches (`public`
/// access) and operators are not counted here: the connection limits bound them. At most ``maxCallers`` callers are
/// counted in a window; past it, new ones are refused until the next, so a flood of tokens cannot grow memory.
final class SearchRateLimit: Sendable {
    static let maxCallers = 100_000

    private struct Window {
        var minute = Int.min
        var counts: [String: Int] = [:]
    }

    private let window = Mutex(Window())
    /// Searches admitted per key since the process started: what `/analytics` shows per key (keys are few: only a
    /// live key's uid reaches here).
    private let totals = Mutex<[String: Int]>([:])

    /// Searches admitted per key uid on this replica since it started.
    func searchesByKey() -> [String: Int] { totals.withLock { $0 } }

    /// Counts a search of key `key` and, for a token, of `subject`; the seconds to wait when one of them is over
    /// its limit (nothing counted then).
    func admit(key: String, subject: String?, perKey: Int, perSubject: Int, now: Date) -> Int? {
        let seconds = Int(now.timeIntervalSince1970.rounded(.down))
        let minute = seconds / 60, wait = 60 - seconds % 60
        let refusal = window.withLock { window -> Int? in
            if window.minute != minute { window = Window(minute: minute) }
            let keyName = "key/" + key, subjectName = subject.map { "subject/\(key)/" + $0 }
            let newCallers = [keyName, subjectName].compactMap { $0 }.filter { window.counts[$0] == nil }.count
            guard window.counts.count + newCallers <= Self.maxCallers else { return wait }
            guard window.counts[keyName, default: 0] < perKey else { return wait }
            if let subjectName, window.counts[subjectName, default: 0] >= perSubject { return wait }
            window.counts[keyName, default: 0] += 1
            if let subjectName { window.counts[subjectName, default: 0] += 1 }
            return nil
        }
        if refusal == nil { totals.withLock { $0[key, default: 0] += 1 } }
        return refusal
    }
}
