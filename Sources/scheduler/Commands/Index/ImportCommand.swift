import ArgumentParser
import Engine
import Foundation
import Indexing
import PluginAPI
import SchedulerConfig
import SQLiteStore

/// `scheduler index import FILE`: loads NDJSON items in atomic batches, reporting and skipping bad lines.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import items from an NDJSON file (one item JSON object per line).",
        discussion: """
            Items are committed in batches of --batch-size (or 16 MB of items, whichever comes first); each batch is atomic. A line that is not a valid \
            item is reported on standard error with its line number and reason, and skipped. \
            Exits with status 1 if any line was rejected. Then, on an SQLite index no `scheduler run` is serving, the search \
            postings are caught up from their saved file (or built, for an import of at least half the index) and saved beside \
            the index when a save is due, so that the service's next start reads them in seconds instead of building them (about 90 s of one core \
            per million items) while its searches go slowly.
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

        let localFiles = try store.localFilesPath()
        let postings = try postingsSetting()
        let rejected = try await store.withStore(logger: CommandLogger.make(), searchPostings: postings) {
            [file, batchSize] store in
            var rejected = 0
            let imported = try await NDJSONImporter(index: store.index, batchSize: batchSize).importLines(of: fileDescriptor) { line, reason in
                rejected += 1
                if rejected <= Self.maxReportedRejections {
                    printError("\(file == "-" ? "stdin" : file):\(line): \(reason)")
                }
            }
            if rejected > Self.maxReportedRejections {
                printError("… and \(rejected - Self.maxReportedRejections) more rejected lines")
            }
            print("imported \(imported) items, rejected \(rejected) lines")
            // Out before the postings' step, however long it takes or however it ends.
            fflush(nil)
            if postings != .off, imported > 0 {
                await Self.saveSearchPostings(of: store.index, imported: imported, localFilesPath: localFiles)
            }
            return rejected
        }
        if rejected > 0 { throw ExitCode.failure }
    }

    /// The `search.postings` of the service of this index: its config's; with `--database` alone, which reads no config
    /// (an import does not fail on a folder it was not pointed at), the saved file's, else the default. `off` when none
    /// are to be saved (told not to, or a PostgreSQL store, whose replicas keep their own): no config is read then.
    private func postingsSetting() throws -> SearchPostingsFields {
        guard searchPostings, case .sqlite = try store.location() else { return .off }
        return try store.servicePostings()
    }

    /// Brings the search postings of `index` up to date and saves them
    /// (``SearchStructureKeeping/saveSearchStructures(mayBuild:)``) unless `scheduler run` serves it (it keeps them
    /// itself), building them only for an import of at least half the index (else the service's next start does, as
    /// without this step); says what it did. The items are in whatever happens here: a failure is a warning.
    private static func saveSearchPostings(of index: any SearchIndex, imported: Int, localFilesPath: String) async {
        guard let keeping = index as? any SearchStructureKeeping else { return }
        switch PassLock.isServing(localFilesPath: localFilesPath) {
        case true?: return print("the search postings are left to the service serving this index")
        case nil: return printError("warning: the search postings were not saved: \(localFilesPath).service.lock cannot be read to tell whether a service serves this index")
        case false?: break
        }
        let start = ContinuousClock.now
        do {
            // Counted only when there are postings to build (no usable saved file, or too much changed to catch up).
            switch try await keeping.saveSearchStructures(mayBuild: { try await imported * 2 >= index.itemCountsByDomain().values.reduce(0, +) }) {
            case .saved:
                print(String(format: "saved the search postings beside the index in %.1f s: the service's next start reads them", (ContinuousClock.now - start).seconds))
            case .notDue: print("the saved search postings are recent enough: the service's next start catches up this import")
            case .notBuilt: print("the search postings are left to the service's next start: this import is less than half the index, and no saved file could be caught up")
            case .failed: printError("warning: the search postings could not be saved (said above); the service's next start builds or catches them up")
            case .noneKept: print("no search postings saved: they were dropped (why is said above); the service's next start tries again")
            }
        } catch {
            printError("warning: the search postings were not saved (the service's next start builds or catches them up): \(error)")
        }
    }
}
