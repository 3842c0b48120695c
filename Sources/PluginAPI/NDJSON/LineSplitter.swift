/// Splits bytes into lines as they arrive, holding at most one line (up to the limit) in memory: the part shared
/// by ``LineReader`` (a file descriptor, blocking) and ``AsyncLineReader`` (a pipe, without blocking a thread).
public struct LineSplitter: Sendable {
    /// One line of input, numbered from 1.
    public enum Line: Sendable, Equatable {
        /// A complete line without its `\n` (nor a trailing `\r`).
        case text(number: Int, bytes: [UInt8])
        /// A line longer than the limit: its bytes were skipped, not kept.
        case tooLong(number: Int, byteCount: Int)
    }

    private let maxLineBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var lineNumber = 0
    private var skipping = 0

    public init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
    }

    /// Adds bytes that arrived.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete line of what arrived; at the end of input, the last line even without its `\n`. `nil` when
    /// more input is needed, or at the end when nothing remains.
    public mutating func next(atEndOfInput: Bool) -> Line? {
        if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = finishLine(upTo: newline)
            start = newline + 1
            return line
        }
        if atEndOfInput {
            guard start < buffer.count || skipping > 0 else { return nil }
            let line = finishLine(upTo: buffer.count)
            start = buffer.count
            return line
        }
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        if buffer.count > maxLineBytes {
            skipping += buffer.count
            buffer.removeAll(keepingCapacity: true)
        }
        return nil
    }

    private mutating func finishLine(upTo end: Int) -> Line {
        lineNumber += 1
        defer { skipping = 0 }
        let length = skipping + (end - start)
        guard length <= maxLineBytes, skipping == 0 else {
            return .tooLong(number: lineNumber, byteCount: length)
        }
        var bytes = Array(buffer[start..<end])
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return .text(number: lineNumber, bytes: bytes)
    }
}
