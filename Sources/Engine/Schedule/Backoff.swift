/// How long to wait before retrying a unit that failed: one minute, doubling with each failure in a row up
/// to six hours, each delay spread by ±20 % so units that failed together do not retry together.
public struct Backoff: Sendable {
    public var base: Duration = .seconds(60)
    public var cap: Duration = .seconds(6 * 3600)

    public init() {}

    /// The delay after the `failures`-th failure in a row; `random` is in 0...1.
    public func delay(afterFailures failures: Int, random: Double) -> Duration {
        let exponent = min(max(failures - 1, 0), 30)
        let seconds = min(Double(cap.components.seconds), Double(base.components.seconds) * Double(1 << exponent))
        return .seconds(seconds * (0.8 + 0.4 * min(max(random, 0), 1)))
    }
}
