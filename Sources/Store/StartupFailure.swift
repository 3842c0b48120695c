public import Indexing

/// An error that keeps the service (or a command) from starting, and whether starting again unchanged may succeed.
///
/// The executable turns it into its exit status: 1 when a restart may fix it (a database that is still starting),
/// 2 when an operator must change something first (a wrong password, a read-only folder, a port another program
/// holds), which the systemd unit does not restart.
public protocol StartupFailure: Error, CustomStringConvertible {
    /// Whether trying again later, with nothing changed, may succeed.
    var mayPassOnRetry: Bool { get }
}

extension IndexError: StartupFailure {
    /// A missing FTS5 (its migrations need it) or an unreadable file stays so; only a write refused mid-run is not about starting at all.
    public var mayPassOnRetry: Bool {
        switch self {
        case .fullTextSearchUnavailable, .cannotOpen: false
        case .invalidBatch, .fileReplaced: true
        case .damaged: false
        }
    }
}
