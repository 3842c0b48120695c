import ArgumentParser
import UnixSignals

/// The signals on which a command that writes stops gracefully, as the service does: at its next safe point
/// (a pass at a batch boundary, a reclaim between two steps), its store closed cleanly.
enum CommandSignals {
    static let graceful: [UnixSignal] = [.sigterm, .sigint]
    /// The exit status of a command stopped by one of them before its work was done.
    static let stoppedExitCode = ExitCode(4)

    /// `body`'s result; when a signal stopped it first, says so (what was done is `done`) and exits 4.
    static func exitingWhenStopped<Result>(_ done: String, _ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch is CancellationError {
            printError("stopped by a signal before \(done)")
            throw stoppedExitCode
        }
    }
}
