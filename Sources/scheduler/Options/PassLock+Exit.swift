import ArgumentParser
import Engine

extension PassLock {
    /// The exit status of a command that found another pass running on its database.
    static let busyExitCode = ExitCode(3)

    /// Takes the pass lock of `localFilesPath`, or reports "busy" and exits 3 without waiting.
    static func takeOrExit(localFilesPath: String) throws -> PassLock {
        do {
            return try PassLock.pass(localFilesPath: localFilesPath)
        } catch let busy as PassLock.Busy {
            printError("busy: \(busy); try again when it has finished")
            throw busyExitCode
        }
    }
}
