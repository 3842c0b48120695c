import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An IP address a host name resolved to, and whether untrusted content may make the scheduler connect to it.
///
/// Feed content (image URLs, redirects) is untrusted: it must not reach the machine itself, the private network
/// around it, or a cloud metadata service. Refused: loopback, unspecified, private (10/8, 172.16/12, 192.168/16,
/// 100.64/10), link-local (169.254/16, where metadata services live, and fe80::/10), unique-local (fc00::/7),
/// multicast, reserved and benchmarking ranges, and IPv6 forms that embed any of these IPv4 addresses.
struct NetworkAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6.
    let bytes: [UInt8]

    init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Parses a numeric address (`203.0.113.7`, `2001:db8::1`); `nil` for anything else.
    init?(_ text: String) {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.init(bytes: withUnsafeBytes(of: v4) { Array($0) })
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            self.init(bytes: withUnsafeBytes(of: v6) { Array($0) })
        } else {
            return nil
        }
    }

    var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        bytes.withUnsafeBytes { raw in
            _ = inet_ntop(bytes.count == 4 ? AF_INET : AF_INET6, raw.baseAddress, &buffer, socklen_t(buffer.count))
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Why content may not make the scheduler connect here, or `nil` for a public address.
    var refusal: String? {
        bytes.count == 4 ? Self.refusal(v4: bytes) : refusalV6
    }

    private var refusalV6: String? {
        let b = bytes
        if b[0..<15].allSatisfy({ $0 == 0 }) { return b[15] == 1 ? "loopback" : "unspecified" }
        // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d): judge the IPv4 inside.
        if b[0..<10].allSatisfy({ $0 == 0 }), (b[10] == 0xFF && b[11] == 0xFF) || (b[10] == 0 && b[11] == 0) {
            return Self.refusal(v4: Array(b[12..<16]))
        }
        if b[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] { return Self.refusal(v4: Array(b[12..<16])) }
        // 6to4 (2002:a.b.c.d::/48).
        if b[0] == 0x20, b[1] == 0x02, let inner = Self.refusal(v4: Array(b[2..<6])) { return "6to4 of \(inner)" }
        if b[0] == 0xFE, b[1] & 0xC0 == 0x80 { return "link-local" }
        if b[0] & 0xFE == 0xFC { return "unique-local (private)" }
        if b[0] == 0xFF { return "multicast" }
        return nil
    }

    private static func refusal(v4 b: [UInt8]) -> String? {
        switch (b[0], b[1]) {
        case (0, _): return "unspecified (0.0.0.0/8)"
        case (10, _): return "private (10.0.0.0/8)"
        case (100, 64...127): return "shared address space (100.64.0.0/10)"
        case (127, _): return "loopback"
        case (169, 254): return "link-local (169.254.0.0/16, cloud metadata)"
        case (172, 16...31): return "private (172.16.0.0/12)"
        case (192, 168): return "private (192.168.0.0/16)"
        case (192, 0) where b[2] == 0: return "IETF protocol assignments (192.0.0.0/24)"
        case (198, 18...19): return "benchmarking (198.18.0.0/15)"
        case (224...239, _): return "multicast"
        case (240...255, _): return "reserved"
        default: return nil
        }
    }

    /// The addresses `host` resolves to (a numeric host is its own address), looked up by the system resolver.
    static func resolve(_ host: String) throws -> [NetworkAddress] {
        if let numeric = NetworkAddress(host) { return [numeric] }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let first = list else {
            throw ResolutionFailure(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(first) }
        var addresses: [NetworkAddress] = []
        for entry in sequence(first: first, next: { $0.pointee.ai_next }) {
            guard let address = entry.pointee.ai_addr else { continue }
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    addresses.append(NetworkAddress(bytes: withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) })!)
                }
            case AF_INET6:
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    addresses.append(NetworkAddress(bytes: withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) })!)
                }
            default: continue
            }
        }
        guard !addresses.isEmpty else { throw ResolutionFailure(host: host, reason: "no address") }
        return addresses
    }

    struct ResolutionFailure: Error, CustomStringConvertible {
        var host: String
        var reason: String
        var description: String { "cannot resolve \(host.prefix(200)): \(reason)" }
    }
}
