import Foundation
import PluginAPI
import Testing

@Suite("Reading lines from a file")
struct LineReaderTests {
    /// The lines `content` splits into, read through a real file descriptor.
    func lines(of content: [UInt8], maxLineBytes: Int = 1024) throws -> [LineReader.Line] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lines-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(content)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        var reader = LineReader(fileDescriptor: descriptor, maxLineBytes: maxLineBytes)
        var result: [LineReader.Line] = []
        while let line = try reader.next() { result.append(line) }
        return result
    }

    @Test func splitsOnNewlinesAndKeepsALastLineWithoutOne() throws {
        #expect(try lines(of: Array("a\r\nbb\n\nccc".utf8)) == [
            .text(number: 1, bytes: Array("a".utf8)), .text(number: 2, bytes: Array("bb".utf8)),
            .text(number: 3, bytes: []), .text(number: 4, bytes: Array("ccc".utf8)),
        ])
    }

    @Test func emptyInputHasNoLines() throws {
        #expect(try lines(of: []).isEmpty)
    }

    @Test func aLineOverTheLimitIsReportedWithoutBeingKept() throws {
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 300_000)
        let result = try lines(of: Array("ok\n".utf8) + long + Array("\nafter\n".utf8) + long, maxLineBytes: 1000)
        #expect(result == [
            .text(number: 1, bytes: Array("ok".utf8)), .tooLong(number: 2, byteCount: 300_000),
            .text(number: 3, bytes: Array("after".utf8)), .tooLong(number: 4, byteCount: 300_000),
        ])
    }

    @Test func linesSpanningReadChunksAreWhole() throws {
        let line = [UInt8](repeating: UInt8(ascii: "y"), count: 100_000)
        #expect(try lines(of: line + [10] + line, maxLineBytes: 200_000) == [
            .text(number: 1, bytes: line), .text(number: 2, bytes: line),
        ])
    }
}
