/// Wakes the reconcile loop before its next tick: a config change, or an operator forcing a source.
/// Wake-ups that arrive while a pass runs are merged into one next pass.
public final class PassTrigger: Sendable {
    /// Why the loop woke up.
    public enum Reason: Sendable, Equatable {
        case tick
        case configurationChanged
        /// Run this source now, due or not.
        case force(source: String)
    }

    let stream: AsyncStream<Reason>
    private let continuation: AsyncStream<Reason>.Continuation

    public init() {
        (stream, continuation) = AsyncStream.makeStream(of: Reason.self, bufferingPolicy: .bufferingNewest(64))
    }

    /// Asks for a pass as soon as the current one (if any) has finished.
    public func wake(_ reason: Reason) {
        continuation.yield(reason)
    }

    func finish() {
        continuation.finish()
    }
}
