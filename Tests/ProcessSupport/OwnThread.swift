import Foundation

/// Runs `body`, which blocks (a process to wait for, a sleep) or runs seconds of CPU, on a thread of its own: an async
/// test then never holds one of the few threads Swift concurrency runs every test on (two on a 2-core machine), which
/// would stall the others, PostgreSQL transactions included. The test waits for it, so what `body` touches is not shared meanwhile.
public func onOwnThread<T: Sendable>(_ body: @escaping () throws -> T) async throws -> T {
    let work = UncheckedWork(run: body)
    return try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work.run() }) }
    }
}

/// A closure handed to one other thread while its caller waits for it.
private struct UncheckedWork<T>: @unchecked Sendable {
    let run: () throws -> T
}
