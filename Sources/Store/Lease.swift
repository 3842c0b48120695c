public import Foundation

/// A grant of exclusive work shared by replicas: a unit's run or purge (`unit/<key>`), or the expiry sweep (`sweep`).
///
/// The token increases on every grant of the same name, so a write carrying an older token than the newest grant
/// comes from a holder that lost the lease (it stalled past its expiry and another replica took over) and is refused.
public struct Lease: Sendable, Hashable, Codable {
    public var name: String
    /// The replica holding it.
    public var holder: String
    /// The fencing token of this grant.
    public var token: Int64
    /// When it lapses unless renewed, by the database's clock.
    public var expiresAt: Date

    public init(name: String, holder: String, token: Int64, expiresAt: Date) {
        self.name = name
        self.holder = holder
        self.token = token
        self.expiresAt = expiresAt
    }

    /// The lease name of a unit: its runs and its purges hold it.
    public static func unitName(_ unit: String) -> String { "unit/\(unit)" }

    /// The lease name of the expiry sweep.
    public static let sweepName = "sweep"
}

/// A write refused because the lease it was made under has been granted to another holder since.
public struct LeaseLost: Error, Sendable, Hashable, CustomStringConvertible {
    public var lease: Lease
    /// The newer grant's holder and token, when there is one.
    public var currentHolder: String?
    public var currentToken: Int64?

    public init(lease: Lease, currentHolder: String?, currentToken: Int64?) {
        self.lease = lease
        self.currentHolder = currentHolder
        self.currentToken = currentToken
    }

    public var description: String {
        let now = currentHolder.map { " to \($0) (token \(currentToken ?? 0) > \(lease.token))" } ?? ""
        return "the lease \(lease.name) was lost\(now); nothing more is written under it"
    }
}
