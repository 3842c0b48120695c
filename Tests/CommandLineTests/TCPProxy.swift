import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP forwarder from a loopback port to another, which a test can cut: PostgreSQL "stopped" under a service
/// (its connections reset, new ones refused) without stopping the server the other tests share.
final class TCPProxy: @unchecked Sendable {
    let port: Int
    private let target: Int
    private let listener: Int32
    private let lock = NSLock()
    private var descriptors: [Int32] = []
    private var stopped = false

    init(to target: Int) throws {
        self.target = target
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(listener, 64) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Resets every connection and refuses new ones, as a stopped server does.
    func stop() {
        lock.withLock {
            stopped = true
            shutdown(listener, Int32(SHUT_RDWR))
            for descriptor in descriptors { shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    deinit {
        stop()
        close(listener)
        for descriptor in descriptors { close(descriptor) }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: target)
            let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            let open = lock.withLock {
                descriptors += [client, upstream]
                return !stopped && connected == 0
            }
            guard open else {
                shutdown(client, Int32(SHUT_RDWR))
                continue
            }
            Thread.detachNewThread { Self.pump(from: client, to: upstream) }
            Thread.detachNewThread { Self.pump(from: upstream, to: client) }
        }
    }

    private static func pump(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = read(source, &buffer, buffer.count)
            guard count > 0, buffer.withUnsafeBytes({ send(destination, $0.baseAddress, count, Int32(MSG_NOSIGNAL)) }) == count else { break }
        }
        shutdown(source, Int32(SHUT_RDWR))
        shutdown(destination, Int32(SHUT_RDWR))
    }
}
