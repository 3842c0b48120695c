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

    /// What a fetch gave: the body and its validators, or nothing new (`304 Not Modified` to a conditional request).
    struct Fetched {
        /// `nil` when the server answered that what the validators name did not change.
        var body: Data?
        var contentType: String?
        /// The `ETag` and `Last-Modified` the server sent, for the next conditional request.
        var validators: Validators
    }

    /// What a conditional request names: `If-None-Match` and `If-Modified-Since`.
    struct Validators: Codable, Equatable {
        var etag: String?
        var lastModified: String?
    }

    /// The body at `url` and its content type, within `timeout` and at most `maxBytes` long; `trusted` for the
    /// operator's own URL. Throws ``Failure``, or `CancellationError` when the task is cancelled.
    func fetch(_ url: URL, maxBytes: Int, trusted: Bool = false) async throws -> (body: Data, contentType: String?) {
        let fetched = try await fetch(url, maxBytes: maxBytes, trusted: trusted, unless: nil)
        guard let body = fetched.body else { throw Failure(description: "\(url.absoluteString.prefix(200)): 304 to an unconditional request", isTransient: false) }
        return (body, fetched.contentType)
    }

    /// The body at `url`, unless the server says that what `validators` name did not change (`304 Not Modified`).
    func fetch(_ url: URL, maxBytes: Int, trusted: Bool = false, unless validators: Validators?) async throws -> Fetched {
        do {
            return try await withTimeout(timeout) {
                var url = url, trusted = trusted, hop = 0
                while true {
                    switch try await request(url, maxBytes: maxBytes, trusted: trusted, unless: validators) {
                    case .fetched(let fetched):
                        return fetched
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
        case fetched(Fetched)
        case redirect(String)
    }

    private func request(_ url: URL, maxBytes: Int, trusted: Bool, unless validators: Validators?) async throws -> Answer {
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
            let answer = try await send(url, with: client, maxBytes: maxBytes, unless: validators)
            try await client.shutdown()
            return answer
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    private func send(_ url: URL, with client: HTTPClient, maxBytes: Int, unless validators: Validators?) async throws -> Answer {
        var request = HTTPClientRequest(url: url.absoluteString)
        if let etag = validators?.etag { request.headers.add(name: "If-None-Match", value: etag) }
        if let lastModified = validators?.lastModified { request.headers.add(name: "If-Modified-Since", value: lastModified) }
        let response = try await client.execute(request, timeout: .nanoseconds(timeout.nanoseconds))
        if [301, 302, 303, 307, 308].contains(response.status.code), let location = response.headers.first(name: "location") {
            return .redirect(location)
        }
        // Header values from the network: kept only when short and printable, as they are sent back.
        func validator(_ name: String) -> String? {
            response.headers.first(name: name).flatMap { $0.utf8.count <= 1024 && $0.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F } ? $0 : nil }
        }
        let sent = Validators(etag: validator("etag"), lastModified: validator("last-modified"))
        if response.status.code == 304, validators != nil {
            return .fetched(Fetched(body: nil, contentType: nil, validators: Validators(etag: sent.etag ?? validators?.etag, lastModified: sent.lastModified ?? validators?.lastModified)))
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
            return .fetched(Fetched(body: Data(buffer.readableBytesView), contentType: response.headers.first(name: "content-type"), validators: sent))
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
