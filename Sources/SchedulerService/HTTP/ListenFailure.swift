import Glibc
import Logging
import NIOCore
public import SchedulerConfig
import ServiceLifecycle
public import Store

/// The HTTP server could not bind its address: which address, which setting names it, and why.
public struct ListenFailure: StartupFailure {
    public var address: ListenAddress
    /// The setting the address comes from: `service.listen` or `service.adminListen`.
    public var setting: String
    public var reason: String

    public var description: String {
        "cannot listen on \(address) (\(setting)): \(reason); stop the program that holds it, or choose another address in \(setting)"
    }

    /// Another program holding the port, or an address this machine does not have, stays so until someone acts.
    public var mayPassOnRetry: Bool { false }
}

/// An HTTP server as a service, whose failure to bind says which address and setting (a bare `bind(descriptor:…)`
/// error names neither).
struct ListeningService<Server: Service>: Service {
    let application: Server
    let address: ListenAddress
    let setting: String

    func run() async throws {
        do {
            try await application.run()
        } catch let error as IOError where [EADDRINUSE, EACCES, EADDRNOTAVAIL].contains(error.errnoCode) {
            let reason = switch error.errnoCode {
            case EADDRINUSE: "the address is already in use"
            case EACCES: "permission denied (ports below 1024 need privileges)"
            default: "this machine has no such address"
            }
            throw ListenFailure(address: address, setting: setting, reason: reason)
        }
    }
}
