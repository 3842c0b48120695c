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
            Items are committed in batches of --batch-size (or 16 MB of items, whichever comes first); each batch is atomic. A line that is not a valid \
            item is reported on standard error with its line number and reason, and skipped. \
            Exits with status 1 if any line was rejected.
            """
    )

    /// Rejected lines reported one by one; the rest are counted.
    static let maxReportedRejections = 100

    @Argument(help: ArgumentHelp("The NDJSON file, or '-' for standard input.", valueName: "file"))
    var file: String

    @Option(help: "Items per committed batch.")
    var batchSize = NDJSONImporter.defaultBatchSize

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

        let (imported, rejected) = try await store.withStore(logger: CommandLogger.make()) { [file, batchSize] store in
            var rejected = 0
            let imported = try await NDJSONImporter(index: store.index, batchSize: batchSize).importLines(of: fileDescriptor) { line, reason in
                rejected += 1
                if rejected <= Self.maxReportedRejections {
                    printError("\(file == "-" ? "stdin" : file):\(line): \(reason)")
                }
            }
            return (imported, rejected)
        }
        if rejected > Self.maxReportedRejections {
            printError("… and \(rejected - Self.maxReportedRejections) more rejected lines")
        }
        print("imported \(imported) items, rejected \(rejected) lines")
        if rejected > 0 { throw ExitCode.failure }
    }
}
