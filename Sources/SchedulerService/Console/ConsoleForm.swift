import Foundation
import Hummingbird

/// The fields of a form the console posts (``FormFields``), read from a body of at most ``maxBytes``.
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
        FormFields.decode(text)
    }
}
