import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// Reads a pipe without holding a Swift concurrency thread while it waits: each awaited read runs one blocking
/// `read(2)` on this reader's own serial queue. It owns the descriptor and closes it when it is released.
///
/// To stop a read that waits, make the writer close its end (a plugin's process group is killed): the read then
/// returns what it has, or the end.
public final class PipeReader: Sendable {
    /// Reading the pipe failed.
    public struct ReadError: Error, CustomStringConvertible {
        public let errno: Int32
        public var description: String { "read failed: \(String(cString: strerror(errno)))" }
    }

    private let descriptor: Int32
    private let queue = DispatchQueue(label: "pipe-reader")

    public init(fileDescriptor: Int32) {
        descriptor = fileDescriptor
    }

    deinit { close(descriptor) }

    /// Up to `count` bytes, as soon as some are there; empty at the end of the pipe.
    public func read(upTo count: Int) async throws(ReadError) -> [UInt8] {
        let result: Result<[UInt8], ReadError> = await withCheckedContinuation { continuation in
            queue.async {
                var chunk = [UInt8](repeating: 0, count: count)
                var got = 0
                repeat {
                    got = chunk.withUnsafeMutableBytes { Glibc.read(self.descriptor, $0.baseAddress!, count) }
                } while got < 0 && errno == EINTR
                continuation.resume(returning: got < 0 ? .failure(ReadError(errno: errno)) : .success(Array(chunk[0..<got])))
            }
        }
        return try result.get()
    }
}

/// Splits a pipe into lines without blocking a thread, holding at most one line in memory.
public struct AsyncLineReader: ~Copyable {
    private let pipe: PipeReader
    private var splitter: LineSplitter
    private var endOfInput = false

    public init(_ pipe: PipeReader, maxLineBytes: Int) {
        self.pipe = pipe
        splitter = LineSplitter(maxLineBytes: maxLineBytes)
    }

    /// The next line, or `nil` at the end of the pipe.
    public mutating func next() async throws(PipeReader.ReadError) -> LineSplitter.Line? {
        while true {
            if let line = splitter.next(atEndOfInput: endOfInput) { return line }
            if endOfInput { return nil }
            let chunk = try await pipe.read(upTo: 64 * 1024)
            if chunk.isEmpty { endOfInput = true } else { splitter.append(chunk) }
        }
    }
}
