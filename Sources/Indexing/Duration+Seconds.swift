package import Foundation

extension Duration {
    /// The duration in seconds, as a floating-point number.
    package var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
