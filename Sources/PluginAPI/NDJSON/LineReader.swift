#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits what a file descriptor yields into lines with blocking reads, holding at most one line in memory,
/// so a file of a million items streams in constant space (see ``LineSplitter``).
public struct LineReader: ~Copyable {
    public typealias Line = LineSplitter.Line

    /// Failure to read the underlying file.
    public struct ReadError: Error, CustomStringConvertible {
        public var errno: Int32
        public var description: String { "read failed: \(String(cString: strerror(errno)))" }
    }

    private let fileDescriptor: Int32
    private var splitter: LineSplitter
    private var endOfFile = false
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)

    /// Reads from `fileDescriptor`, which stays open and owned by the caller.
    public init(fileDescriptor: Int32, maxLineBytes: Int) {
        self.fileDescriptor = fileDescriptor
        splitter = LineSplitter(maxLineBytes: maxLineBytes)
    }

    /// The next line, or `nil` at end of input. A last line without a final `\n` is still returned.
    public mutating func next() throws(ReadError) -> Line? {
        while true {
            if let line = splitter.next(atEndOfInput: endOfFile) { return line }
            if endOfFile { return nil }
            var got = 0
            repeat {
                got = chunk.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress!, $0.count) }
            } while got < 0 && errno == EINTR
            guard got >= 0 else { throw ReadError(errno: errno) }
            if got == 0 { endOfFile = true } else { splitter.append(chunk[0..<got]) }
        }
    }
}
