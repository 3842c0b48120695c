public import Foundation
public import PluginAPI

/// Operations the index applies together, in order, in one transaction, with an optional client state.
///
/// Building a batch touches nothing: a batch that is never committed, or whose commit fails, leaves the
/// index as it was.
public struct IndexBatch: Sendable {
    /// One change to the index.
    public enum Operation: Sendable {
        /// Inserts these items, or replaces whole the stored items with the same identifiers.
        case upsert([SearchableItem])
        /// Deletes the items with these identifiers.
        case deleteIdentifiers([String])
        /// Deletes these domains and every domain under them.
        case deleteDomains([String])
        /// Deletes every item and every client state.
        case deleteAll
        /// Deletes the items of this domain (and the domains under it) last written by commit `number` or an
        /// earlier one: after a full reindex that started after commit `number`, the items it did not produce.
        case deleteStale(domain: String, committedThrough: Int64)
    }

    /// Opaque bytes, such as a resume checkpoint, stored under a name with the batch.
    public struct ClientState: Sendable, Hashable {
        public var batchName: String
        public var data: Data
        public init(batchName: String, data: Data) {
            self.batchName = batchName
            self.data = data
        }
    }

    /// Upserts are committed once a batch holds this many bytes of items (``SearchableItem/byteCount``), however
    /// many items a batch may hold: a few thousand items with full-size thumbnails would otherwise be gigabytes.
    public static let maxUpsertBytes = 16 * 1024 * 1024

    public var operations: [Operation]
    public var clientState: ClientState?
    /// When upserted items without their own date expire; the store's time to live from the commit when `nil`.
    public var defaultExpiration: DefaultExpiration?

    public init(operations: [Operation] = [], clientState: ClientState? = nil, defaultExpiration: DefaultExpiration? = nil) {
        self.operations = operations
        self.clientState = clientState
        self.defaultExpiration = defaultExpiration
    }
}

/// What a committed batch changed.
public struct BatchOutcome: Sendable, Hashable {
    /// Items inserted or replaced.
    public var upserted = 0
    /// Of those, the items whose stored content was the same: nothing of them but their commit number (and perhaps
    /// their expiration date) was written.
    public var unchanged = 0
    /// Items deleted.
    public var deleted = 0
    /// The number of this commit; every commit gets the next number.
    public var commitNumber: Int64 = 0
    public init(upserted: Int = 0, unchanged: Int = 0, deleted: Int = 0, commitNumber: Int64 = 0) {
        self.upserted = upserted
        self.unchanged = unchanged
        self.deleted = deleted
        self.commitNumber = commitNumber
    }
}

extension IndexBatch {
    /// Refuses, before anything is written, a batch holding an invalid item or domain.
    package func validate() throws(IndexError) {
        for operation in operations {
            switch operation {
            case .upsert(let items):
                for item in items {
                    do {
                        try item.validate()
                    } catch {
                        throw .invalidBatch("item '\(item.uniqueIdentifier.prefix(80))': \(error)")
                    }
                }
            case .deleteDomains(let domains):
                if let bad = domains.first(where: { !DomainIdentifier.isValid($0) }) {
                    throw .invalidBatch(DomainIdentifier.syntaxProblem(bad))
                }
            case .deleteStale(let domain, _):
                if !DomainIdentifier.isValid(domain) { throw .invalidBatch(DomainIdentifier.syntaxProblem(domain)) }
            case .deleteIdentifiers, .deleteAll:
                break
            }
        }
    }
}
