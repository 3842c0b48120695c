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

/// The connections of one listener that wait for a request (before their first, or between two, once the last
/// response was sent), oldest first to go when every slot is taken (``EvictingConnectionLimit``): a client holding
/// idle keep-alive connections never keeps another from being served.
final class IdleConnections: Sendable {
    /// A waiting connection: since when, and how to close it on its own event loop if it still waits then.
    private struct Waiting {
        var since: NIODeadline
        var closeIfIdle: @Sendable () -> Void
    }

    private struct State {
        var waiting: [ObjectIdentifier: Waiting] = [:]
        /// Whether a client waits for a slot: a connection that becomes idle then makes room at once.
        var underPressure = false
    }

    private let state = Mutex(State())

    /// The connection `id` waits for a request from now on; `closeIfIdle` closes it, on its own loop, unless a
    /// request has come meanwhile. Under pressure, the longest waiting connection is closed at once.
    func enter(_ id: ObjectIdentifier, closeIfIdle: @escaping @Sendable () -> Void) {
        let pressed = state.withLock { state in
            state.waiting[id] = Waiting(since: .now(), closeIfIdle: closeIfIdle)
            return state.underPressure
        }
        if pressed { closeOldest() }
    }

    /// The connection `id` is busy with a request, or gone.
    func leave(_ id: ObjectIdentifier) {
        _ = state.withLock { $0.waiting.removeValue(forKey: id) }
    }

    /// Whether a client waits for a slot (``EvictingConnectionLimit`` says so as it refuses, or frees one).
    func setPressure(_ pressed: Bool) {
        state.withLock { $0.underPressure = pressed }
    }

    /// Closes the connection that has waited longest, if any (on its loop, if it still waits then).
    func closeOldest() {
        let oldest = state.withLock { state -> Waiting? in
            guard let key = state.waiting.min(by: { $0.value.since < $1.value.since })?.key else { return nil }
            return state.waiting.removeValue(forKey: key)
        }
        oldest?.closeIfIdle()
    }
}

/// At most `maximum` connections served at once, as Hummingbird's `MaximumAvailableConnections`; but when every slot
/// is taken, the idle connection that has waited longest is closed (``IdleConnections``), at once or as soon as one
/// becomes idle, so the next client in the kernel's accept queue is served within moments instead of after an idle
/// timeout. Only slots held by requests in progress make a new client wait.
struct EvictingConnectionLimit: AvailableConnectionsDelegate {
    let maximum: Int
    let idle: IdleConnections
    private var count = 0

    init(maximum: Int, idle: IdleConnections) {
        self.maximum = maximum
        self.idle = idle
    }

    mutating func connectionOpened() { count += 1 }

    mutating func connectionClosed() {
        count -= 1
        if count < maximum { idle.setPressure(false) }
    }

    /// Asked before each accept: at the limit, an idle connection is closed, and accepting resumes once it is gone.
    func isAcceptingNewConnections() -> Bool {
        guard count >= maximum else { return true }
        idle.setPressure(true)
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
    /// The path whose answers `maxConnectionAge` does not cut: a new replica's copy of the index (`GET /search-copy`).
    static let longTransferPath = "/search-copy"
    private static let longTransferQuery = longTransferPath + "?"
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let policy: ConnectionPolicy
    private let clients: ClientConnections
    private let idle: IdleConnections
    /// The connection, while admitted: listed in ``idle`` whenever it waits for a request.
    private var channel: (any Channel)?
    /// Whether a request's head came and its response has not been sent whole yet.
    private var isIdle: Bool { responsesEnded >= requestsReceived && !writingLastEnd }
    /// A response's end is written but not yet sent.
    private var writingLastEnd = false
    /// The address counted against the per-client limit, once admitted.
    private var client: String?
    private var requestsReceived = 0
    private var responsesStarted = 0
    private var responsesEnded = 0
    /// The connection closes after the response in progress (or at once when none is): its age is reached.
    private var aged = false
    /// The response being written is the connection's last.
    private var lastResponse = false
    /// A request for the search copy is being answered (``longTransferPath``): the age limit waits for its end.
    private var transferring = false
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
        if case .head(let head) = part {
            requestsReceived += 1
            transferring = head.path.map { $0 == Self.longTransferPath || $0.hasPrefix(Self.longTransferQuery) } ?? false
            channel.map { idle.leave(ObjectIdentifier($0)) }
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
            transferring = false
            guard lastResponse || aged else {
                // Once the response is sent and every request answered, the connection waits for the next, and may
                // make room for another client.
                let sent = context.eventLoop.makePromise(of: Void.self)
                let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
                writingLastEnd = true
                sent.futureResult.whenComplete { result in
                    let handler = bound.value.handler
                    handler.writingLastEnd = false
                    if case .success = result, handler.isIdle { handler.waitForRequest(context: bound.value.context) }
                }
                sent.futureResult.cascade(to: promise)
                context.writeAndFlush(data, promise: sent)
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
        waitForRequest(context: context)
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        let grace = policy.responseGrace
        ageLimit = context.eventLoop.scheduleTask(in: policy.maxAge) {
            let handler = bound.value.handler
            handler.aged = true
            // Idle (every request answered): close now; else after the response in progress, or after the grace (a search
            // copy's transfer, admin-only, may take longer than any age: it ends in its own time).
            if handler.responsesEnded >= handler.requestsReceived {
                bound.value.context.close(promise: nil)
            } else if !handler.transferring {
                handler.ageLimit = bound.value.context.eventLoop.scheduleTask(in: grace) { bound.value.context.close(promise: nil) }
            }
        }
        return true
    }

    /// Lists the connection as waiting for a request: it may be closed, on its loop and only if it still waits then,
    /// to make room for another client.
    private func waitForRequest(context: ChannelHandlerContext) {
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        idle.enter(ObjectIdentifier(context.channel)) {
            bound.eventLoop.execute {
                if bound.value.handler.isIdle { bound.value.context.close(promise: nil) }
            }
        }
    }

    private func leave() {
        ageLimit?.cancel()
        channel.map { idle.leave(ObjectIdentifier($0)) }
        channel = nil
        if let client { clients.release(client) }
        client = nil
    }
}
