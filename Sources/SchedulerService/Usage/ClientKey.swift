public import NIOCore

/// What the open counter takes a client to be: its IPv4 address, or the /64 network of its IPv6 one (a host is
/// given a whole /64, and could otherwise take a new address for every open). An IPv4 client seen through an
/// IPv6 listener (`::ffff:a.b.c.d`) keeps its own address. Behind a reverse proxy every client is the proxy.
public enum ClientKey {
    /// The key of the peer `address`; `nil` when there is none (a request made in process).
    public static func of(_ address: SocketAddress?) -> String? {
        guard let address else { return nil }
        guard case .v6(let v6) = address else { return address.ipAddress }
        let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
        let mapped = bytes.count == 16 && bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
        guard !mapped, bytes.count == 16 else { return address.ipAddress }
        return bytes[0..<8].map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
    }
}

/// A client's key as the counters keep it: hashed with a secret drawn when the counter starts, by its bytes (two
/// spellings of "café" are two identifiers), so no address is held in the clear.
struct ClientHash: Sendable {
    private let salt = UInt64.random(in: .min ... .max)

    /// The salted hash of `parts`.
    func hash(_ parts: String...) -> Int {
        var hasher = Hasher()
        hasher.combine(salt)
        for part in parts {
            hasher.combine(part.utf8.count)
            for byte in part.utf8 { hasher.combine(byte) }
        }
        return hasher.finalize()
    }
}
