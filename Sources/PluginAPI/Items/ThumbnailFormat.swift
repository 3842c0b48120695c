public import Foundation

/// The image formats a thumbnail is accepted and served as, recognised by its first bytes only: never by a file
/// name, an extension or a content type a source sent.
public enum ThumbnailFormat: String, Sendable, CaseIterable {
    case png, jpeg, gif, webp

    /// The format `data` starts as, or `nil` when it is none of them (SVG, HTML, text…).
    public init?(sniffing data: Data) {
        let bytes = [UInt8](data.prefix(12))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
            self = .gif
        } else if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) {
            self = .webp
        } else {
            return nil
        }
    }

    /// Its media type, for a `Content-Type` header.
    public var mediaType: String { "image/\(rawValue)" }
}
