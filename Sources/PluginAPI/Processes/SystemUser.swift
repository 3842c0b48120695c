import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An account of this machine's user database, which a program can be started as (a command source's `runAs:`).
public struct SystemUser: Sendable, Hashable {
    public var name: String
    public var uid: UInt32
    public var gid: UInt32
    /// The account's home folder: the program's `HOME`.
    public var home: String

    /// The account named `name`, or `nil` when the user database has none.
    public static func named(_ name: String) -> SystemUser? {
        guard !name.isEmpty, name.utf8.count <= 256 else { return nil }
        var entry = passwd()
        var buffer = [CChar](repeating: 0, count: 16_384)
        var result: UnsafeMutablePointer<passwd>?
        guard getpwnam_r(name, &entry, &buffer, buffer.count, &result) == 0, let result else { return nil }
        return SystemUser(
            name: String(cString: result.pointee.pw_name), uid: result.pointee.pw_uid, gid: result.pointee.pw_gid,
            home: String(cString: result.pointee.pw_dir)
        )
    }

    /// Why this process cannot start a program as this user, or `nil` when it can: only root can switch users
    /// (the account this process runs as needs no switch).
    public var problemStartingAs: String? {
        let effective = geteuid()
        if effective == uid { return nil }
        guard effective == 0 else {
            return "the service runs as uid \(effective), and only root can start a program as '\(name)'; run the service as root "
                + "(deploy/scheduler.service explains how), or remove runAs"
        }
        guard access(Self.setpriv, X_OK) == 0 else {
            return "\(Self.setpriv) (util-linux) is needed to start a program as '\(name)' and is missing; install util-linux"
        }
        return nil
    }

    /// The program and arguments that run `executable` as this user: util-linux's `setpriv` sets the user and its
    /// groups, forbids new privileges, then executes the program in its own place (same pid, same process group).
    func wrapping(executable: String, arguments: [String]) -> (executable: String, arguments: [String]) {
        guard geteuid() != uid else { return (executable, arguments) }
        return (Self.setpriv, ["--reuid=\(uid)", "--regid=\(gid)", "--init-groups", "--no-new-privs", "--inh-caps=-all", "--", executable] + arguments)
    }

    static let setpriv = "/usr/bin/setpriv"
}
