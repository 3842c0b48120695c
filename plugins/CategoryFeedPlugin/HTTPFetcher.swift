import AsyncHTTPClient
import Foundation
import NIOCore

/// Fetches bodies over HTTP with a deadline and a size cap, refusing anything but `http` and `https`.
struct HTTPFetcher: Sendable {
    /// A fetch that did not give a usable body.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        /// Whether trying again later may succeed (a network error, a 5xx, a 429, a timeout).
        var isTransient: Bool
    }

    /// Follows up to five redirects: for the feed, whose address the operator chose.
    static let following = HTTPClient(configuration: configuration(redirects: .follow(max: 5, allowCycles: false)))
    /// Follows none: for images, whose addresses come from the feed (a redirect could leave the allowed hosts).
    static let direct = HTTPClient(configuration: configuration(redirects: .disallow))

    private static func configuration(redirects: HTTPClient.Configuration.RedirectConfiguration) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = redirects
        return configuration
    }

    let client: HTTPClient
    let timeout: Duration

    /// The body at `url` and its content type, within `timeout` and at most `maxBytes` long; throws
    /// ``Failure``, or `CancellationError` when the task is cancelled.
    func fetch(_ url: URL, maxBytes: Int) async throws -> (body: Data, contentType: String?) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw Failure(description: "only http and https URLs are fetched, not \(url.absoluteString.prefix(100))", isTransient: false)
        }
        let client = client, timeout = timeout
        do {
            return try await withTimeout(timeout) {
                let response = try await client.execute(HTTPClientRequest(url: url.absoluteString), timeout: .nanoseconds(timeout.nanoseconds))
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
                    return (Data(buffer.readableBytesView), response.headers.first(name: "content-type"))
                } catch is NIOTooManyBytesError {
                    throw Failure(description: "over the limit of \(maxBytes) bytes", isTransient: false)
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
}

extension Duration {
    /// The duration in whole nanoseconds.
    var nanoseconds: Int64 { components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000 }
}
