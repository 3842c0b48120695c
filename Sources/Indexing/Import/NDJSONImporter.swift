import PluginAPI

/// Loads NDJSON items (one item JSON object per line) into an index in atomic batches of `batchSize` items or
/// `maxBatchBytes` of items, whichever comes first: what `scheduler index import` runs. Decoding the next batch
/// overlaps writing the previous one; batches still commit one at a time, in order. A line that is not a valid item, or is longer than the limit, is handed to `reject`
/// with its number and reason, and skipped.
public struct NDJSONImporter: Sendable {
    /// Lines longer than this are rejected unread: an item with a full-size thumbnail fits well within the default.
    public static let defaultMaxLineBytes = 4 * 1024 * 1024

    public let index: any SearchIndex
    public let batchSize: Int
    public let maxLineBytes: Int

    /// Items per batch unless a caller chooses otherwise: larger transactions wrote the FTS5 index the SQLite index kept
    /// until `v22-no-full-text-table` in fewer, larger segments (BENCHMARKS.md); a batch is one commit the search
    /// postings catch up whole.
    public static let defaultBatchSize = 5000

    /// A batch is committed once its items hold this many bytes, however few they are.
    public let maxBatchBytes: Int

    public init(
        index: any SearchIndex, batchSize: Int = NDJSONImporter.defaultBatchSize,
        maxBatchBytes: Int = IndexBatch.maxUpsertBytes, maxLineBytes: Int = NDJSONImporter.defaultMaxLineBytes
    ) {
        self.index = index
        self.batchSize = batchSize
        self.maxBatchBytes = maxBatchBytes
        self.maxLineBytes = maxLineBytes
    }

    /// Imports every line of `fileDescriptor` (read to its end, not closed); returns how many items were written.
    public func importLines(of fileDescriptor: Int32, reject: (_ line: Int, _ reason: String) -> Void) async throws -> Int {
        var reader = LineReader(fileDescriptor: fileDescriptor, maxLineBytes: maxLineBytes)
        let decoder = NDJSONItemDecoder()
        let batchSize = batchSize, maxBatchBytes = maxBatchBytes, maxLineBytes = maxLineBytes, index = index
        /// The valid items among the next lines, up to a batch; `nil` at the end of the input.
        func nextBatch() throws -> [SearchableItem]? {
            var batch: [SearchableItem] = []
            var bytes = 0
            while batch.count < batchSize, bytes < maxBatchBytes {
                guard let line = try reader.next() else { return batch.isEmpty ? nil : batch }
                switch line {
                case .tooLong(let number, let byteCount):
                    reject(number, "line of \(byteCount) bytes is over the limit of \(maxLineBytes) bytes")
                case .text(let number, let text):
                    do {
                        if var item = try decoder.decode(text) {
                            if let composed = item.composingText() {
                                // Composed text may be a few bytes longer than sent (rare characters): checked again.
                                try composed.validate()
                                item = composed
                            }
                            batch.append(item)
                            bytes += item.byteCount
                        }
                    } catch {
                        reject(number, error.description)
                    }
                }
            }
            return batch
        }
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
}
