import CSystemCalls
import Foundation
import SchedulerService

/// The admin endpoints' bearer token, read from where operators keep secrets, and the process's own secrets kept
/// from the programs it starts.
///
/// A file is read first: `SCHEDULER_ADMIN_TOKEN_FILE`, or systemd's credential `admin-token` (`LoadCredential=` or
/// `SetCredential=`, found in `$CREDENTIALS_DIRECTORY`); else the variable `SCHEDULER_ADMIN_TOKEN`. Plugins run as
/// the same user could read the variable from `/proc/<scheduler>/environ` (their own environment is clean, but
/// their parent's is not), so once read it is removed, the environment block the kernel shows is zeroed, and the
/// process is made non-dumpable, which closes `/proc/<pid>/environ` and `/proc/<pid>/mem` to other processes of
/// the user. A plugin of the same user can still read the token file itself, and root reads everything: accounts of
/// their own (`runAs:`) are what separates plugins from the service. The scrub runs first thing in the command,
/// before any thread of ours could hold a pointer into the block.
enum AdminToken {
    /// The token could not be read from the file named for it.
    struct Unreadable: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "cannot read the admin token from \(path): \(reason); fix the file or unset the setting that names it" }
    }

    static let variable = "SCHEDULER_ADMIN_TOKEN"
    static let fileVariable = "SCHEDULER_ADMIN_TOKEN_FILE"
    static let credential = "admin-token"

    /// Reads the token (`nil` when none is configured), then hides the process's secrets (``hideSecrets()``).
    static func load(environment: [String: String] = ProcessInfo.processInfo.environment) throws(Unreadable) -> String? {
        defer { hideSecrets() }
        let file = environment[fileVariable] ?? environment["CREDENTIALS_DIRECTORY"].map { $0 + "/" + credential }
        if let file, environment[fileVariable] != nil || FileManager.default.fileExists(atPath: file) {
            let token = try read(file).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !token.isEmpty else { throw Unreadable(path: file, reason: "the file is empty") }
            guard !token.contains(where: \.isWhitespace) else {
                throw Unreadable(path: file, reason: "the token must be one word (no spaces or line breaks inside), as a bearer token is")
            }
            return token
        }
        return environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The text of the regular file at `path`, at most `maxBytes` long.
    private static func read(_ path: String) throws(Unreadable) -> String {
        let maxBytes = 4096
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw Unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw Unreadable(path: path, reason: "it is not a regular file")
        }
        guard info.st_size <= maxBytes else { throw Unreadable(path: path, reason: "it is \(info.st_size) bytes; a token is at most \(maxBytes)") }
        var bytes = [UInt8](repeating: 0, count: maxBytes + 1)
        let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, maxBytes + 1) }
        guard count >= 0 else { throw Unreadable(path: path, reason: String(cString: strerror(errno))) }
        guard let text = String(validating: bytes[..<count], as: UTF8.self) else { throw Unreadable(path: path, reason: "it is not UTF-8 text") }
        return text
    }

    /// Removes the token's variable, zeroes the environment block `/proc/<pid>/environ` shows (the variables stay
    /// readable to this process), and makes the process non-dumpable.
    static func hideSecrets() {
        unsetenv(variable)
        unsetenv(SearchKeySecrets.environmentVariable)
        csystem_scrub_environment_block()
        _ = csystem_set_not_dumpable()
    }
}
