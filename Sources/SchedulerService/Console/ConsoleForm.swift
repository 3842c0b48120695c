import Foundation
import Hummingbird

/// The fields of a form the console posts (`application/x-www-form-urlencoded`), read from a body of at most
/// ``maxBytes``: a field whose name or value is not valid percent-encoding is left out, and the first of a repeated
/// name is kept.
enum ConsoleForm {
    static let maxBytes = 16 * 1024

    static func fields(_ request: Request) async throws(APIError) -> [String: String] {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: maxBytes)
        } catch {
            throw APIError(.contentTooLarge, "a console form holds at most \(maxBytes) bytes")
        }
        return fields(String(decoding: body.readableBytesView, as: UTF8.self))
    }

    static func fields(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ part: Substring) -> String? { part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let name = decoded(parts[0]), let value = parts.count == 2 ? decoded(parts[1]) : "", fields[name] == nil else { continue }
            fields[name] = value
        }
        return fields
    }
}
