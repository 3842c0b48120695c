import Synchronization

/// Wakes the reconcile loop before its next tick: a config change, or an operator forcing a source.
///
/// Wake-ups that arrive while a pass runs are merged into the next pass: ten ticks and config changes queued behind
/// a long pass make one full pass, and the sources forced meanwhile are forced together in one.
public final class PassTrigger: Sendable {
    /// Why the loop woke up.
    public enum Reason: Sendable, Equatable {
        case tick
        case configurationChanged
        /// Run this source now, due or not: a full run, or an incremental one.
        case force(source: String, incremental: Bool = false)
    }

    /// The work the wake-ups since the last pass ask for.
    public struct Work: Sendable, Equatable {
        /// A pass over every source (a tick or a config change).
        public var full = false
        /// Sources to run now, due or not (a full run).
        public var forced: Set<String> = []
        /// Sources to run an incremental run of now (those forced full excepted).
        public var forcedIncremental: Set<String> = []

        public init(full: Bool = false, forced: Set<String> = [], forcedIncremental: Set<String> = []) {
            self.full = full
            self.forced = forced
            self.forcedIncremental = forcedIncremental.subtracting(forced)
        }

        var isEmpty: Bool { !full && forced.isEmpty && forcedIncremental.isEmpty }
    }

    private let pending = Mutex(Work())
    private let signal: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    public init() {
        // One buffered signal at most: wake-ups merge in `pending`, not in the stream.
        (signal, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Asks for a pass as soon as the current one (if any) has finished.
    public func wake(_ reason: Reason) {
        pending.withLock { work in
            switch reason {
            case .tick, .configurationChanged: work.full = true
            case .force(let source, incremental: false):
                work.forced.insert(source)
                work.forcedIncremental.remove(source)
            case .force(let source, incremental: true):
                if !work.forced.contains(source) { work.forcedIncremental.insert(source) }
            }
        }
        continuation.yield()
    }

    /// Drops the forced run of `source` queued and not started yet; returns whether there was one.
    public func dropForced(source: String) -> Bool {
        pending.withLock { work in
            let queued = work.forced.contains(source) || work.forcedIncremental.contains(source)
            work.forced.remove(source)
            work.forcedIncremental.remove(source)
            return queued
        }
    }

    /// Waits for a wake-up and takes all the work asked since the last call; `nil` once the trigger is finished.
    public func next() async -> Work? {
        for await _ in signal {
            let work = pending.withLock { work in
                defer { work = Work() }
                return work
            }
            if !work.isEmpty { return work }
        }
        return nil
    }
}
