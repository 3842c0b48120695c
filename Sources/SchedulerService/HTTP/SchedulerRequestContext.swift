public import Hummingbird
public import NIOCore

/// The context of every request the API serves: Hummingbird's, and the client's address, which rate limits hold in
/// memory (salted and hashed) and nothing stores.
public struct SchedulerRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The peer of the connection; `nil` when there is none (a request made in process).
    public let remoteAddress: SocketAddress?
    /// Whether the request is a `HEAD` answered as a `GET` (``HeadRequests``): what it reads is not counted.
    public var isHead = false

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
