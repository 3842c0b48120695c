/// Reads TOML 1.0 documents into ``TOMLTable``s, for text nobody vetted.
///
/// Strict: everything TOML 1.0 refuses is refused, with the line and column of the offending byte and what to
/// write instead; nothing is guessed or repaired. Safe: no input can crash it, nesting is kept on explicit stacks
/// (no recursion), time is linear in the text, and ``TOMLLimits`` bounds size, values and depth.
///
/// Beyond the letter of TOML: a leading UTF-8 byte-order mark is skipped; CRLF inside multi-line strings is read
/// as LF; dates and times are kept as canonical text (see ``TOMLValue``).
public enum TOMLParser {
    /// The document in `text`.
    public static func parse(_ text: String, limits: TOMLLimits = .standard) throws(TOMLError) -> TOMLTable {
        let count = text.utf8.count
        guard count <= limits.maxBytes else { throw tooLarge(count, limits) }
        return try read(Array(text.utf8), limits: limits)
    }

    /// The document in the bytes `utf8`, which must be UTF-8 (a byte-order mark may start them).
    public static func parse(utf8 bytes: [UInt8], limits: TOMLLimits = .standard) throws(TOMLError) -> TOMLTable {
        guard bytes.count <= limits.maxBytes else { throw tooLarge(bytes.count, limits) }
        if let invalid = TOMLUTF8.firstInvalidOffset(in: bytes) {
            var reader = TOMLReader(bytes: Array(bytes[..<invalid]), limits: limits)
            throw TOMLError("the text is not valid UTF-8 here (byte 0x\(TOMLErrorText.hex(UInt32(bytes[invalid]), digits: 2))); save the file as UTF-8",
                            at: reader.mark(at: invalid))
        }
        return try read(bytes, limits: limits)
    }

    private static func read(_ bytes: [UInt8], limits: TOMLLimits) throws(TOMLError) -> TOMLTable {
        var reader = TOMLReader(bytes: bytes, limits: limits)
        return try reader.readDocument()
    }

    private static func tooLarge(_ count: Int, _ limits: TOMLLimits) -> TOMLError {
        TOMLError("the text is \(count) bytes, over the limit of \(limits.maxBytes); shorten it", at: TOMLMark(line: 1, column: 1))
    }
}
