import ArgumentParser
import Engine

extension PassLock {
    /// The exit status of a command that found another pass running on its database.
    static let busyExitCode = ExitCode(3)

    /// Runs `body` holding the pass lock of `localFilesPath`; when another holder has it, reports "busy" and exits
    /// 3 without waiting and without running `body`.
    static func withPassOrExit<Result>(localFilesPath: String, _ body: () async throws -> Result) async throws -> Result {
        var started = false
        do {
            return try await withPass(localFilesPath: localFilesPath) {
                started = true
                return try await body()
            }
        } catch let busy as PassLock.Busy where !started {
            printError("busy: \(busy); try again when it has finished")
            throw busyExitCode
        }
    }
}
