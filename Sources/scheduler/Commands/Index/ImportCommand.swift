import ArgumentParser
import Foundation
import Indexing
import PluginAPI

/// `scheduler index import FILE`: loads NDJSON items in atomic batches, reporting and skipping bad lines.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import items from an NDJSON file (one item JSON object per line).",
        discussion: """
            Items are committed in batches of --batch-size; each batch is atomic. A line that is not a valid \
            item is reported on standard error with its line number and reason, and skipped. \
            Exits with status 1 if any line was rejected.
            """
    )

    /// Lines longer than this are rejected unread: an item with a full-size thumbnail fits well within it.
    static let maxLineBytes = 4 * 1024 * 1024
    /// Rejected lines reported one by one; the rest are counted.
    static let maxReportedRejections = 100

    @Argument(help: ArgumentHelp("The NDJSON file, or '-' for standard input.", valueName: "file"))
    var file: String

    @Option(help: "Items per committed batch.")
    var batchSize = 1000

    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard (1...100_000).contains(batchSize) else {
            throw ValidationError("--batch-size must be between 1 and 100000")
        }
    }

    func run() async throws {
        let fileDescriptor = file == "-" ? STDIN_FILENO : open(file, O_RDONLY)
        guard fileDescriptor >= 0 else {
            throw UserError("cannot open \(file): \(String(cString: strerror(errno)))")
        }
        defer { if fileDescriptor != STDIN_FILENO { close(fileDescriptor) } }

        var reader = LineReader(fileDescriptor: fileDescriptor, maxLineBytes: Self.maxLineBytes)
        let decoder = NDJSONItemDecoder()
        var rejected = 0
        func reject(_ line: Int, _ reason: String) {
            rejected += 1
            if rejected <= Self.maxReportedRejections {
                printError("\(file == "-" ? "stdin" : file):\(line): \(reason)")
            }
        }
        /// The valid items among the next lines, up to a batch; `nil` at the end of the input.
        func nextBatch() throws -> [SearchableItem]? {
            var batch: [SearchableItem] = []
            batch.reserveCapacity(batchSize)
            while batch.count < batchSize {
                guard let line = try reader.next() else { return batch.isEmpty ? nil : batch }
                switch line {
                case .tooLong(let number, let byteCount):
                    reject(number, "line of \(byteCount) bytes is over the limit of \(Self.maxLineBytes) bytes")
                case .text(let number, let bytes):
                    do {
                        if let item = try decoder.decode(bytes) { batch.append(item) }
                    } catch {
                        reject(number, error.description)
                    }
                }
            }
            return batch
        }
        // Decoding the next batch overlaps writing the previous one; batches still commit one at a time, in order.
        let imported = try await store.withStore(logger: CommandLogger.make()) { store in
            let index = store.index
            return try await withThrowingTaskGroup(of: Int.self) { group in
                var imported = 0
                var writing = false
                while let batch = try nextBatch() {
                    if writing { imported += try await group.next() ?? 0 }
                    group.addTask { try await index.upsert(batch).upserted }
                    writing = true
                }
                for try await count in group { imported += count }
                return imported
            }
        }
        if rejected > Self.maxReportedRejections {
            printError("… and \(rejected - Self.maxReportedRejections) more rejected lines")
        }
        print("imported \(imported) items, rejected \(rejected) lines")
        if rejected > 0 { throw ExitCode.failure }
    }
}
