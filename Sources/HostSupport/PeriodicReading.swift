import Synchronization

/// A value read again once it is ``maxAge`` old, one caller at a time: callers that arrive while one reads go on with
/// the last reading (before the first reading, each reads its own). What a replica's search keys and PostgreSQL's
/// statistics of the words are read through.
public final class PeriodicReading<Value: Sendable>: Sendable {
    /// How long a reading serves.
    public let maxAge: Duration

    private struct State {
        var value: Value?
        var readAt: ContinuousClock.Instant?
        /// Counts ``forget()``s: a reading begun before one is not kept.
        var generation = 0
        var reading = false
    }

    private let state = Mutex(State())

    public init(maxAge: Duration) {
        self.maxAge = maxAge
    }

    /// The last reading while it is fresh, or while another caller reads; else what `read` returns, kept for the
    /// callers after this one. A `read` that throws keeps nothing, and its error is thrown.
    public func value(reading read: () async throws -> Value) async throws -> Value {
        let now = ContinuousClock.now
        let (current, generation) = state.withLock { state -> (Value?, Int) in
            let fresh = state.readAt.map { now - $0 < maxAge } ?? false
            if let value = state.value, fresh || state.reading { return (value, state.generation) }
            state.reading = true
            return (nil, state.generation)
        }
        if let current { return current }
        let value: Value
        do {
            value = try await read()
        } catch {
            state.withLock { $0.reading = false }
            throw error
        }
        state.withLock { state in
            state.reading = false
            guard state.generation == generation else { return }
            (state.value, state.readAt) = (value, now)
        }
        return value
    }

    /// Has the next caller read, and keeps no reading begun before.
    public func forget() {
        state.withLock { state in
            state.generation += 1
            (state.value, state.readAt) = (nil, nil)
        }
    }
}
