import ArgumentParser
import Engine

extension PassLock {
    /// The exit status of a command that found another pass running on its database.
    static let busyExitCode = ExitCode(3)

    /// Runs `body` holding the pass lock of `localFilesPath`; when another holder has it, reports "busy" and exits
    /// 3 without waiting and without running `body`.
    static func withPassOrExit<Result>(localFilesPath: String, _ body: () async throws -> Result) async throws -> Result {
        let lock: PassLock
        do {
            lock = try PassLock.pass(localFilesPath: localFilesPath)
        } catch let busy as PassLock.Busy {
            printError("busy: \(busy); try again when it has finished")
            throw busyExitCode
        }
        return try await lock.holding(body)
    }
}
