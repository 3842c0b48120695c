import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix

/// Fetches bodies over `http` and `https` with a deadline and a size cap, following redirects itself so that
/// every hop is checked.
///
/// A URL that comes from content (an image, any redirect) must not reach internal addresses: its host is resolved
/// once, refused when any of its addresses is internal (see `NetworkAddress`) unless `allowPrivateNetworks`, and
/// the connection goes to the address that was checked (the client is pinned to it, while TLS still verifies the
/// host name), so a DNS answer that changes between the check and the connection cannot pass. The operator's feed
/// URL is trusted config and is not checked; its redirects are.
struct HTTPFetcher: Sendable {
    /// A fetch that did not give a usable body.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        /// Whether trying again later may succeed (a network error, a 5xx, a 429, a timeout).
        var isTransient: Bool
    }

    let timeout: Duration
    /// Redirects followed: 5 for the feed, none for images.
    let maxRedirects: Int
    /// The operator's opt-in (`allowPrivateNetworks: true`) to internal addresses.
    let allowPrivateNetworks: Bool

    /// The body at `url` and its content type, within `timeout` and at most `maxBytes` long; `trusted` for the
    /// operator's own URL. Throws ``Failure``, or `CancellationError` when the task is cancelled.
    func fetch(_ url: URL, maxBytes: Int, trusted: Bool = false) async throws -> (body: Data, contentType: String?) {
        do {
            return try await withTimeout(timeout) {
                var url = url, trusted = trusted, hop = 0
                while true {
                    switch try await request(url, maxBytes: maxBytes, trusted: trusted) {
                    case .body(let body, let contentType):
                        return (body, contentType)
                    case .redirect(let location):
                        guard hop < maxRedirects else {
                            throw Failure(description: "\(url.absoluteString.prefix(200)) redirects, and \(maxRedirects == 0 ? "no redirect is" : "at most \(maxRedirects) redirects are") followed", isTransient: false)
                        }
                        guard let next = URL(string: location, relativeTo: url)?.absoluteURL else {
                            throw Failure(description: "\(url.absoluteString.prefix(200)) redirects to '\(location.prefix(200))', which is not a URL", isTransient: false)
                        }
                        url = next
                        trusted = false
                        hop += 1
                    }
                }
            }
        } catch let failure as Failure {
            throw failure
        } catch is CancellationError {
            throw CancellationError()
        } catch let timedOut as TimedOut {
            throw Failure(description: "\(url.absoluteString.prefix(200)): \(timedOut)", isTransient: true)
        } catch {
            throw Failure(description: "\(url.absoluteString.prefix(200)): \(error)", isTransient: true)
        }
    }

    /// What one request gave.
    private enum Answer {
        case body(Data, contentType: String?)
        case redirect(String)
    }

    private func request(_ url: URL, maxBytes: Int, trusted: Bool) async throws -> Answer {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
            throw Failure(description: "only http and https URLs are fetched, not \(url.absoluteString.prefix(100))", isTransient: false)
        }
        guard url.user == nil, url.password == nil else {
            throw Failure(description: "\(host.prefix(100)): URLs with a user name or password are not fetched", isTransient: false)
        }
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        if !trusted, !allowPrivateNetworks {
            let address = try await checkedAddress(of: host)
            if NetworkAddress(host) == nil { configuration.dnsOverride = [host: address.description] }
        }
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let answer = try await send(url, with: client, maxBytes: maxBytes)
            try await client.shutdown()
            return answer
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    private func send(_ url: URL, with client: HTTPClient, maxBytes: Int) async throws -> Answer {
        let response = try await client.execute(HTTPClientRequest(url: url.absoluteString), timeout: .nanoseconds(timeout.nanoseconds))
        if [301, 302, 303, 307, 308].contains(response.status.code), let location = response.headers.first(name: "location") {
            return .redirect(location)
        }
        guard (200..<300).contains(response.status.code) else {
            throw Failure(
                description: "HTTP \(response.status.code) from \(url.absoluteString.prefix(200))",
                isTransient: response.status.code >= 500 || response.status.code == 429
            )
        }
        if let length = response.headers.first(name: "content-length").flatMap(Int.init), length > maxBytes {
            throw Failure(description: "\(length) bytes, over the limit of \(maxBytes)", isTransient: false)
        }
        do {
            let buffer = try await response.body.collect(upTo: maxBytes)
            return .body(Data(buffer.readableBytesView), contentType: response.headers.first(name: "content-type"))
        } catch is NIOTooManyBytesError {
            throw Failure(description: "over the limit of \(maxBytes) bytes", isTransient: false)
        }
    }

    /// The address to connect to for `host`: its first, once every address it resolves to is public.
    private func checkedAddress(of host: String) async throws -> NetworkAddress {
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let addresses: [NetworkAddress]
        do {
            addresses = try await NIOThreadPool.singleton.runIfActive { try NetworkAddress.resolve(name) }
        } catch let failure as NetworkAddress.ResolutionFailure {
            throw Failure(description: failure.description, isTransient: true)
        }
        if let refused = addresses.first(where: { $0.refusal != nil }) {
            throw Failure(
                description: "\(name.prefix(100)) resolves to \(refused), a \(refused.refusal!) address: content may not make the scheduler "
                    + "reach internal networks (set allowPrivateNetworks: true on the source to allow it)",
                isTransient: false
            )
        }
        return addresses[0]
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    var nanoseconds: Int64 { components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000 }
}
