import Foundation
import HostSupport

/// Limits attempts with a wrong token, the console's sign-ins and the admin API's bearer tokens alike (one throttle
/// each): each client (its address, salted and hashed: ``ClientHash``) may make `perClient` attempts that are not
/// successes within `window`, and every client together `overall`, after which attempts are refused until the oldest
/// leaves the window. An attempt counts from the moment it is admitted, before its token is compared, so attempts
/// sent together cannot all slip past the limit; a success gives its own back. A success does not clear a client's
/// failures: guessing is not made cheaper by a token someone else knows. At most `overall` attempts are held.
///
/// Past the overall limit, a throttle that `sparesCleanClients` (the bearer token's) still admits a client with no
/// attempt of its own in the window, so a flood of wrong tokens from elsewhere never locks the operator out: at the
/// cost of one guess per fresh address and window. The console's throttle does not (the bearer token and the command
/// line still work while it holds everyone back).
actor AttemptThrottle {
    static let perClient = 5
    static let overall = 50
    static let window: TimeInterval = 300

    private let sparesCleanClients: Bool
    private let clock: any WallClock
    private let hash = ClientHash()
    private var attempts: [Int: [Date]] = [:]
    private var all: [Date] = []

    init(sparesCleanClients: Bool = false, clock: any WallClock = SystemWallClock()) {
        self.sparesCleanClients = sparesCleanClients
        self.clock = clock
    }

    /// Admits an attempt of `client`, counted as a failure until ``succeeded(client:admittedAt:)`` says otherwise, and
    /// returns when it was admitted; or returns how long the client must wait, counting nothing.
    func admit(client: String?) -> Result<Date, Refusal> {
        let now = clock.now()
        let cutoff = now.addingTimeInterval(-Self.window)
        all.removeAll { $0 < cutoff }
        for (key, dates) in attempts {
            let kept = dates.filter { $0 >= cutoff }
            attempts[key] = kept.isEmpty ? nil : kept
        }
        let key = hash.hash(client ?? "")
        let mine = attempts[key] ?? []
        let overallBlocks = all.count >= Self.overall && !(sparesCleanClients && mine.isEmpty)
        let blocking = [mine.count >= Self.perClient ? mine.first : nil, overallBlocks ? all.first : nil].compactMap { $0 }
        if let oldest = blocking.max() {
            return .failure(Refusal(wait: max(1, oldest.addingTimeInterval(Self.window).timeIntervalSince(now).rounded(.up))))
        }
        attempts[key, default: []].append(now)
        all.append(now)
        return .success(now)
    }

    /// The attempt of `client` admitted at `admittedAt` gave the right token: it no longer counts.
    func succeeded(client: String?, admittedAt: Date) {
        let key = hash.hash(client ?? "")
        if let index = attempts[key]?.lastIndex(of: admittedAt) { attempts[key]?.remove(at: index) }
        if let index = all.lastIndex(of: admittedAt) { all.remove(at: index) }
    }

    /// Too many attempts: wait this many seconds.
    struct Refusal: Error {
        var wait: TimeInterval
    }
}
