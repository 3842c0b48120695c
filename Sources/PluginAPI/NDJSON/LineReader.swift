#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits what a file descriptor yields into lines, holding at most one line in memory,
/// so a file of a million items streams in constant space.
public struct LineReader: ~Copyable {
    /// One line of input, numbered from 1.
    public enum Line: Sendable, Equatable {
        /// A complete line without its `\n` (nor a trailing `\r`).
        case text(number: Int, bytes: [UInt8])
        /// A line longer than the limit: its bytes were skipped, not kept.
        case tooLong(number: Int, byteCount: Int)
    }

    /// Failure to read the underlying file.
    public struct ReadError: Error, CustomStringConvertible {
        public var errno: Int32
        public var description: String { "read failed: \(String(cString: strerror(errno)))" }
    }

    private let fileDescriptor: Int32
    private let maxLineBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var endOfFile = false
    private var lineNumber = 0
    private var skipping = 0

    /// Reads from `fileDescriptor`, which stays open and owned by the caller.
    public init(fileDescriptor: Int32, maxLineBytes: Int) {
        self.fileDescriptor = fileDescriptor
        self.maxLineBytes = maxLineBytes
    }

    /// The next line, or `nil` at end of input. A last line without a final `\n` is still returned.
    public mutating func next() throws(ReadError) -> Line? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = finishLine(upTo: newline)
                start = newline + 1
                return line
            }
            if endOfFile {
                guard start < buffer.count || skipping > 0 else { return nil }
                let line = finishLine(upTo: buffer.count)
                start = buffer.count
                return line
            }
            compact()
            if buffer.count > maxLineBytes {
                skipping += buffer.count
                buffer.removeAll(keepingCapacity: true)
            }
            try fill()
        }
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

    private mutating func compact() {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
    }

    private mutating func fill() throws(ReadError) {
        let chunk = 64 * 1024
        let oldCount = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        var got = 0
        repeat {
            got = buffer.withUnsafeMutableBytes { raw in
                read(fileDescriptor, raw.baseAddress! + oldCount, chunk)
            }
        } while got < 0 && errno == EINTR
        if got < 0 {
            let code = errno
            buffer.removeLast(chunk)
            throw ReadError(errno: code)
        }
        buffer.removeLast(chunk - got)
        if got == 0 { endOfFile = true }
    }
}
