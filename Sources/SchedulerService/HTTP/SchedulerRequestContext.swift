public import Hummingbird
public import HummingbirdAuth
public import NIOCore

/// The context of every request the API serves: Hummingbird's, the client's address (which rate limits hold in
/// memory, salted and hashed; only an operator's pause and the log of an admin or console action keep it, as who
/// acted) and the console's session, when the request carries one.
public struct SchedulerRequestContext: RequestContext, RemoteAddressRequestContext, SessionRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The peer of the connection; `nil` when there is none (a request made in process).
    public let remoteAddress: SocketAddress?
    /// Whether the request is a `HEAD` answered as a `GET` (``HeadRequests``): what it reads is not counted.
    public var isHead = false
    /// The operator's console session (``ConsoleSession``), loaded and saved by hummingbird-auth's `SessionMiddleware`.
    public let sessions = SessionContext<ConsoleSession>()

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
