import Foundation
import HostSupport

/// Limits attempts with a wrong token, the console's sign-ins and the admin API's bearer tokens alike (one throttle
/// each): each client (its address, salted and hashed: ``ClientHash``) may make `perClient` attempts that are not
/// successes within `window`, and every client together `overall`, after which attempts are refused until the oldest
/// leaves the window. An attempt counts from the moment it is admitted, before its token is compared, so attempts
/// sent together cannot all slip past the limit; a success gives its own back. A success does not clear a client's
/// failures: guessing is not made cheaper by a token someone else knows. At most `overall` attempts are held.
///
/// The admin API's bearer tokens go through ``check(client:correct:)`` instead, one call that counts only wrong
/// tokens: a burst of requests with the right one is never held back by its own attempts in flight. Past the overall
/// limit a client with no wrong token of its own in the window still has its token compared, so a flood of wrong
/// tokens from elsewhere never locks the operator out; such spared guesses are bounded too (``sparedLimit`` in all,
/// then every client waits), so addresses by the million buy no more than that.
actor AttemptThrottle {
    static let perClient = 5
    static let overall = 50
    /// The most wrong tokens held in a window, spared ones included: the memory and the work of a check stay bounded.
    static let sparedLimit = 1_000
    static let window: TimeInterval = 300
    private let clock: any WallClock
    private let hash = ClientHash()
    private var attempts: [Int: [Date]] = [:]
    private var all: [Date] = []

    init(clock: any WallClock = SystemWallClock()) {
        self.clock = clock
    }

    /// Admits an attempt of `client`, counted as a failure until ``succeeded(client:admittedAt:)`` says otherwise, and
    /// returns when it was admitted; or returns how long the client must wait, counting nothing.
    func admit(client: String?) -> Result<Date, Refusal> {
        let now = clock.now()
        forget(before: now.addingTimeInterval(-Self.window))
        let key = hash.hash(client ?? "")
        if let refusal = refusal(mine: attempts[key] ?? [], overall: all.count >= Self.overall, now: now) { return .failure(refusal) }
        attempts[key, default: []].append(now)
        all.append(now)
        return .success(now)
    }

    /// What a bearer token of `client` gets, `correct` or not: refused (the token not even compared) while the
    /// client is held back; else let through when correct, and counted when wrong.
    func check(client: String?, correct: Bool) -> Result<Void, BearerRefusal> {
        let now = clock.now()
        forget(before: now.addingTimeInterval(-Self.window))
        let key = hash.hash(client ?? "")
        let mine = attempts[key] ?? []
        // Past the overall limit, a client with no wrong token of its own is spared, up to the spared limit.
        let overall = all.count >= (mine.isEmpty ? Self.sparedLimit : Self.overall)
        if let refusal = refusal(mine: mine, overall: overall, now: now) { return .failure(.heldBack(refusal)) }
        guard !correct else { return .success(()) }
        attempts[key, default: []].append(now)
        all.append(now)
        return .failure(.wrong)
    }

    /// Why a bearer token was refused.
    enum BearerRefusal: Error {
        case heldBack(Refusal)
        case wrong
    }

    /// The refusal when `mine` (a client's attempts in the window) or all of them together (`overall` limit reached)
    /// hold the client back: until the oldest that holds it leaves the window.
    private func refusal(mine: [Date], overall: Bool, now: Date) -> Refusal? {
        let blocking = [mine.count >= Self.perClient ? mine.first : nil, overall ? all.first : nil].compactMap { $0 }
        return blocking.max().map { Refusal(wait: max(1, $0.addingTimeInterval(Self.window).timeIntervalSince(now).rounded(.up))) }
    }

    /// Drops the attempts made before `cutoff`.
    private func forget(before cutoff: Date) {
        guard let first = all.first, first < cutoff else { return }
        all.removeAll { $0 < cutoff }
        for (key, dates) in attempts {
            let kept = dates.filter { $0 >= cutoff }
            attempts[key] = kept.isEmpty ? nil : kept
        }
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
