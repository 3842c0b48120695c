import Foundation
import HostSupport

/// Limits sign-ins with a wrong token: each client (its address, salted and hashed: ``ClientHash``) may fail
/// `perClient` times within `window`, and every client together `overall` times, after which attempts are refused
/// until the oldest failure leaves the window. A success does not clear a client's failures: guessing is not made
/// cheaper by a token someone else knows. As only attempts let through are counted, at most `overall` failures are
/// held. The overall limit lets a flood of wrong tokens keep everyone out of the console for `window`: the admin
/// API's bearer token and the command line still work.
actor SignInThrottle {
    static let perClient = 5
    static let overall = 50
    static let window: TimeInterval = 300

    private let clock: any WallClock
    private let hash = ClientHash()
    private var failures: [Int: [Date]] = [:]
    private var all: [Date] = []

    init(clock: any WallClock = SystemWallClock()) {
        self.clock = clock
    }

    /// How long `client` must wait before it may try again; `nil` when it may try now.
    func wait(client: String?) -> TimeInterval? {
        let now = clock.now()
        forget(before: now.addingTimeInterval(-Self.window))
        let mine = failures[hash.hash(client ?? "")] ?? []
        let blocking = [mine.count >= Self.perClient ? mine.first : nil, all.count >= Self.overall ? all.first : nil].compactMap { $0 }
        guard let oldest = blocking.max() else { return nil }
        return max(1, oldest.addingTimeInterval(Self.window).timeIntervalSince(now).rounded(.up))
    }

    /// Counts a wrong token from `client`.
    func failed(client: String?) {
        let now = clock.now()
        failures[hash.hash(client ?? ""), default: []].append(now)
        all.append(now)
    }

    private func forget(before cutoff: Date) {
        all.removeAll { $0 < cutoff }
        for (key, dates) in failures {
            let kept = dates.filter { $0 >= cutoff }
            failures[key] = kept.isEmpty ? nil : kept
        }
    }
}
