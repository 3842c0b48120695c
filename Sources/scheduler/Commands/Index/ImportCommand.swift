import ArgumentParser
import Engine
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
            Exits with status 1 if any line was rejected. Then, on an SQLite index no `scheduler run` is serving, the search \
            postings are built (or caught up from their saved file) and saved beside the index, so that the service's next \
            start reads them in seconds instead of building them (about 90 s of one core per million items) while its searches go slowly.
            """
    )

    /// Rejected lines reported one by one; the rest are counted.
    static let maxReportedRejections = 100

    @Argument(help: ArgumentHelp("The NDJSON file, or '-' for standard input.", valueName: "file"))
    var file: String

    @Option(help: "Items per committed batch.")
    var batchSize = NDJSONImporter.defaultBatchSize

    @Flag(inversion: .prefixedNo, help: "Whether to build and save the search postings once the items are in (an SQLite index no service is serving; on unless told).")
    var searchPostings = true

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

        let postings = try store.searchSettings().postings
        let localFiles = try store.localFilesPath()
        let (imported, rejected, saved) = try await store.withStore(logger: CommandLogger.make(), searchPostings: postings) {
            [file, batchSize, searchPostings] store in
            var rejected = 0
            let imported = try await NDJSONImporter(index: store.index, batchSize: batchSize).importLines(of: fileDescriptor) { line, reason in
                rejected += 1
                if rejected <= Self.maxReportedRejections {
                    printError("\(file == "-" ? "stdin" : file):\(line): \(reason)")
                }
            }
            let saved = searchPostings && imported > 0 ? await Self.saveSearchPostings(of: store.index, localFilesPath: localFiles) : nil
            return (imported, rejected, saved)
        }
        if rejected > Self.maxReportedRejections {
            printError("… and \(rejected - Self.maxReportedRejections) more rejected lines")
        }
        print("imported \(imported) items, rejected \(rejected) lines")
        if let saved { print(saved) }
        if rejected > 0 { throw ExitCode.failure }
    }

    /// Brings the search postings of `index` up to date and saves them (``SearchStructureKeeping/saveSearchStructures()``),
    /// unless `scheduler run` serves it (it keeps them itself); what to tell the user, `nil` when nothing was saved.
    /// The items are in whatever happens here: a failure is a warning, and the service builds the postings at its start.
    private static func saveSearchPostings(of index: any SearchIndex, localFilesPath: String) async -> String? {
        guard let keeping = index as? any SearchStructureKeeping else { return nil }
        let start = ContinuousClock.now
        do {
            // The service's lock, taken and let go: a service that holds it keeps the postings itself.
            try await PassLock.withService(localFilesPath: localFilesPath) {}
            guard try await keeping.saveSearchStructures() else { return nil }
        } catch is PassLock.Busy {
            return "the search postings are left to the service serving this index"
        } catch {
            printError("warning: the search postings were not saved (the service builds them at its start): \(error)")
            return nil
        }
        return String(format: "saved the search postings beside the index in %.1f s: the service's next start reads them", (ContinuousClock.now - start).seconds)
    }
}
