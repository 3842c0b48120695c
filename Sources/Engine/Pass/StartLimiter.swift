import Foundation
public import HostSupport

/// Holds scheduled runs back so that no more than a number start in any minute (`service.maxStartsPerMinute`):
/// after an outage, or a config change that makes thousands of units due at once, starts are spread over the
/// following passes instead of all hitting the sources and the store together. Kept by the service across passes;
/// forced runs are not counted (an operator asked for them).
public actor StartLimiter {
    private let clock: any WallClock
    /// The starts of the last minute, oldest first.
    private var starts: [Date] = []

    public init(clock: any WallClock) {
        self.clock = clock
    }

    /// Whether a run may start now under `limit` starts a minute, counting it when it may; always when `limit` is `nil`.
    public func admit(limit: Int?) -> Bool {
        guard let limit else { return true }
        let now = clock.now()
        starts.removeAll { now.timeIntervalSince($0) >= 60 }
        guard starts.count < limit else { return false }
        starts.append(now)
        return true
    }
}
