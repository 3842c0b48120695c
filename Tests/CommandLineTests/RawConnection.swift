import Foundation
import ProcessSupport
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to a loopback port, for tests that misbehave as clients do: connect and say
/// nothing, or send a request by halves. Its waits for the server block a thread of their own (``onOwnThread(_:)``),
/// never one of the few the test runner shares between the tests running at once. Sendable to be opened on such a
/// thread too: one test uses it, one call at a time.
final class RawConnection: @unchecked Sendable {
    let descriptor: Int32

    /// Connects from `source`, an address of the loopback range (`127.0.0.2` is another client to the server).
    init(port: Int, from source: String = "127.0.0.1") throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.send(descriptor, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
    }

    /// Everything the server sends until it closes the connection or `seconds` pass.
    func response(within seconds: Int) async -> String {
        (try? await onOwnThread { [self] in receiveAll(within: seconds) }) ?? ""
    }

    /// Whether the server closed the connection within `seconds` (reading what it sent until then).
    func isClosedByServer(within seconds: Int) async -> Bool {
        (try? await onOwnThread { [self] in waitForClose(within: seconds) }) ?? false
    }

    private func receiveAll(within seconds: Int) -> String {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { return String(decoding: received, as: UTF8.self) }
            received += buffer[0..<count]
        }
    }

    private func waitForClose(within seconds: Int) -> Bool {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }
}
