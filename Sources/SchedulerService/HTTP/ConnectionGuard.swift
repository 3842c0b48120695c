import HTTPTypes
import HummingbirdCore
import NIOCore
import NIOHTTPTypes
import Synchronization

/// How long and how much one HTTP connection may be kept, and how many one client may hold.
struct ConnectionPolicy: Sendable {
    /// The most connections one client address holds at once; more are closed as soon as they are accepted.
    var maxPerClient: Int
    /// The most requests one connection serves; the last one's response says `Connection: close`, then it closes.
    var maxRequests: Int
    /// How long one connection lives: closed when idle at that age, else after the response in progress.
    var maxAge: TimeAmount
    /// How long past `maxAge` a response in progress may take (a client that stops reading would otherwise hold
    /// its connection for ever: the idle timer does not run while a response is written).
    var responseGrace: TimeAmount
}

/// The connections each client address holds, shared by every connection of one listener.
final class ClientConnections: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    /// Counts one more connection of `client`; `false` (and nothing counted) when it already holds `limit`.
    func admit(_ client: String, limit: Int) -> Bool {
        counts.withLock { counts in
            let held = counts[client, default: 0]
            guard held < limit else { return false }
            counts[client] = held + 1
            return true
        }
    }

    func release(_ client: String) {
        counts.withLock { counts in
            guard let held = counts[client] else { return }
            counts[client] = held > 1 ? held - 1 : nil
        }
    }
}

/// The connections of one listener that wait for a request (before their first, or between two), oldest first to
/// go when every slot is taken (``EvictingConnectionLimit``): a client holding idle keep-alive connections never
/// keeps another from being served.
final class IdleConnections: Sendable {
    private let waiting = Mutex<[ObjectIdentifier: (since: NIODeadline, channel: any Channel)]>([:])

    /// `channel` waits for a request from now on.
    func enter(_ channel: any Channel) {
        waiting.withLock { $0[ObjectIdentifier(channel)] = (.now(), channel) }
    }

    /// `channel` is busy with a request, or gone.
    func leave(_ channel: any Channel) {
        _ = waiting.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// Closes the connection that has waited longest, if any; whether there was one.
    @discardableResult
    func closeOldest() -> Bool {
        let oldest = waiting.withLock { waiting -> (any Channel)? in
            guard let key = waiting.min(by: { $0.value.since < $1.value.since })?.key else { return nil }
            return waiting.removeValue(forKey: key)?.channel
        }
        oldest?.close(promise: nil)
        return oldest != nil
    }
}

/// At most `maximum` connections served at once, as Hummingbird's `MaximumAvailableConnections`; but when every slot
/// is taken, the idle connection that has waited longest is closed (``IdleConnections``), so the next client in the
/// kernel's accept queue is served within moments instead of after an idle timeout. Only a slot held by a request in
/// progress makes a new client wait.
struct EvictingConnectionLimit: AvailableConnectionsDelegate {
    let maximum: Int
    let idle: IdleConnections
    private var count = 0

    init(maximum: Int, idle: IdleConnections) {
        self.maximum = maximum
        self.idle = idle
    }

    mutating func connectionOpened() { count += 1 }

    mutating func connectionClosed() { count -= 1 }

    /// Asked before each accept: at the limit, an idle connection is closed, and accepting resumes once it is gone.
    func isAcceptingNewConnections() -> Bool {
        guard count >= maximum else { return true }
        idle.closeOldest()
        return false
    }
}

/// Keeps one connection within its ``ConnectionPolicy``: refused when its client holds too many, closed after its
/// last allowed request or at its maximum age. Keep-alive clients that send a request now and then never meet the
/// idle timeout; without this, a few hundred of them would hold every slot of the server for as long as they like.
///
/// Sits after the HTTP codec, so it sees whole request heads and response parts: a connection is only ever closed
/// between responses, never in the middle of one.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let policy: ConnectionPolicy
    private let clients: ClientConnections
    private let idle: IdleConnections
    /// The connection, while admitted: listed in ``idle`` whenever it waits for a request.
    private var channel: (any Channel)?
    /// The address counted against the per-client limit, once admitted.
    private var client: String?
    private var requestsReceived = 0
    private var responsesStarted = 0
    private var responsesEnded = 0
    /// The connection closes after the response in progress (or at once when none is): its age is reached.
    private var aged = false
    /// The response being written is the connection's last.
    private var lastResponse = false
    private var ageLimit: Scheduled<Void>?

    init(policy: ConnectionPolicy, clients: ClientConnections, idle: IdleConnections) {
        self.policy = policy
        self.clients = clients
        self.idle = idle
    }

    func channelActive(context: ChannelHandlerContext) {
        // A refused connection is closed here; the handlers after this one never see it.
        guard admit(context: context) else { return }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        leave()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        leave()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if case .head = part {
            requestsReceived += 1
            channel.map(idle.leave)
        }
        // Requests pipelined past the last one allowed are never answered: the connection closes before them.
        guard requestsReceived <= policy.maxRequests else { return }
        guard case .head(var head) = part, requestsReceived == policy.maxRequests else {
            context.fireChannelRead(data)
            return
        }
        // The server's loop ends the connection after a request that asks to close it.
        head.headerFields[.connection] = "close"
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.kind == .informational:
            // `100 Continue` and the like come before the response they belong to.
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .head(var head):
            responsesStarted += 1
            lastResponse = lastResponse || aged || responsesStarted >= policy.maxRequests
            if lastResponse { head.headerFields[.connection] = "close" }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end:
            responsesEnded += 1
            guard lastResponse || aged else {
                // Every request answered: the connection waits for the next, and may make room for another client.
                if responsesEnded >= requestsReceived { channel.map(idle.enter) }
                context.write(data, promise: promise)
                return
            }
            let written = context.eventLoop.makePromise(of: Void.self)
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            // Output only: a full close with request bytes still unread would make the kernel reset the connection
            // and drop the response still in its send queue. The client's end (or the idle timeout) closes the rest.
            written.futureResult.whenComplete { _ in bound.value.close(mode: .output, promise: nil) }
            written.futureResult.cascade(to: promise)
            context.writeAndFlush(data, promise: written)
        case .body:
            context.write(data, promise: promise)
        }
    }

    /// Counts the connection against its client's limit (once: the server adds its handlers before the connection
    /// becomes active); `false` when it was refused (and closed).
    private func admit(context: ChannelHandlerContext) -> Bool {
        let address = context.channel.remoteAddress?.ipAddress ?? "unknown"
        guard clients.admit(address, limit: policy.maxPerClient) else {
            context.close(promise: nil)
            return false
        }
        client = address
        channel = context.channel
        idle.enter(context.channel)
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        let grace = policy.responseGrace
        ageLimit = context.eventLoop.scheduleTask(in: policy.maxAge) {
            let handler = bound.value.handler
            handler.aged = true
            // Idle (every request answered): close now; else after the response in progress, or after the grace.
            if handler.responsesEnded >= handler.requestsReceived {
                bound.value.context.close(promise: nil)
            } else {
                handler.ageLimit = bound.value.context.eventLoop.scheduleTask(in: grace) { bound.value.context.close(promise: nil) }
            }
        }
        return true
    }

    private func leave() {
        ageLimit?.cancel()
        channel.map(idle.leave)
        channel = nil
        if let client { clients.release(client) }
        client = nil
    }
}
