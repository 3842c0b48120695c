/// A read that callers at the same moment share, each still given a value read after it asked: what a search needs
/// of the feed's head (``IndexChangeFeed/feedHead()``) to see every commit made before it arrived, at one round trip
/// for many searches instead of one each.
///
/// One read runs at a time. A caller that arrives while none runs reads at once; callers that arrive while one runs
/// cannot use it (it may have started before a commit they must see), so they wait for it to end and share the next
/// one, which the first of them runs. A failed read fails every caller sharing it, except a read that failed because
/// its reader was cancelled: another caller reads in its place.
public actor JoinedRead<Value: Sendable> {
    private let read: @Sendable () async throws -> Value
    private var isReading = false
    /// The callers sharing the read under way, besides its reader.
    private var sharing: [CheckedContinuation<Turn, Never>] = []
    /// The callers that arrived while it ran: they share the next read.
    private var waiting: [CheckedContinuation<Turn, Never>] = []

    /// What a waiting caller is told when its read can go on.
    private enum Turn {
        /// Run the read for itself and the callers now ``sharing`` it.
        case read
        /// The shared read ended with this.
        case ended(Result<Value, any Error>)
    }

    public init(_ read: @escaping @Sendable () async throws -> Value) {
        self.read = read
    }

    /// How many callers wait for the read under way to end (they share the next one).
    package var waitingCallers: Int { waiting.count }

    /// A value read after this call began.
    public func value() async throws -> Value {
        if isReading {
            let turn = await withCheckedContinuation { waiting.append($0) }
            if case .ended(let result) = turn { return try result.get() }
        } else {
            isReading = true
        }
        let result: Result<Value, any Error>
        do {
            result = .success(try await read())
        } catch {
            result = .failure(error)
        }
        end(with: result)
        return try result.get()
    }

    /// Hands the result of the read that ended to the callers sharing it, then starts the next one if callers wait.
    private func end(with result: Result<Value, any Error>) {
        if case .failure = result, Task.isCancelled, !sharing.isEmpty {
            // This reader's cancellation is not theirs: the first of them reads again for the others.
            sharing.removeFirst().resume(returning: .read)
            return
        }
        for caller in sharing { caller.resume(returning: .ended(result)) }
        sharing = []
        guard !waiting.isEmpty else {
            isReading = false
            return
        }
        let reader = waiting.removeFirst()
        sharing = waiting
        waiting = []
        reader.resume(returning: .read)
    }
}
