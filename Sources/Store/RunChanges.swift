public import Indexing
public import PluginAPI

/// What one batch of a run changes in its unit's domain, in the order the plugin sent it: items to write and
/// identifiers to delete. Kept in order, so that an item deleted and sent again (or sent and deleted) in one batch
/// ends as the plugin meant.
public struct RunChanges: Sendable, Hashable {
    /// Every item written, in order.
    public private(set) var items: [SearchableItem] = []
    /// Every identifier deleted, in order.
    public private(set) var deletions: [String] = []
    /// When the items without their own expiration date expire (the source's `expiration` from the run's start);
    /// the store's time to live when `nil`.
    public var defaultExpiration: DefaultExpiration?
    /// The runs of consecutive changes of one kind, in order: whether they write (or delete), and how many.
    private var runs: [(writes: Bool, count: Int)] = []

    /// No changes yet; the items to come without an expiration date of their own get `defaultExpiration`'s.
    public init(defaultExpiration: DefaultExpiration? = nil) {
        self.defaultExpiration = defaultExpiration
    }

    /// Changes writing `items`, in order.
    public init(upserting items: [SearchableItem]) {
        for item in items { upsert(item) }
    }

    public mutating func upsert(_ item: SearchableItem) {
        items.append(item)
        append(writing: true)
    }

    public mutating func delete(_ identifier: String) {
        deletions.append(identifier)
        append(writing: false)
    }

    private mutating func append(writing: Bool) {
        if let last = runs.last, last.writes == writing {
            runs[runs.count - 1].count += 1
        } else {
            runs.append((writing, 1))
        }
    }

    /// These changes in order, each item replaced by what `item` makes of it (left out when `nil`) and each deletion
    /// kept when `deletion` says so, the items without an expiration date of their own to get `defaultExpiration`'s.
    public func admitted(
        defaultExpiration: DefaultExpiration?, item admit: (SearchableItem) -> SearchableItem?, deletion keep: (String) -> Bool
    ) -> RunChanges {
        var admitted = RunChanges(defaultExpiration: defaultExpiration)
        var (item, deletion) = (0, 0)
        for run in runs {
            if run.writes {
                for produced in items[item..<item + run.count] {
                    if let kept = admit(produced) { admitted.upsert(kept) }
                }
                item += run.count
            } else {
                for identifier in deletions[deletion..<deletion + run.count] where keep(identifier) { admitted.delete(identifier) }
                deletion += run.count
            }
        }
        return admitted
    }

    public var isEmpty: Bool { runs.isEmpty }
    /// Items and deletions.
    public var count: Int { items.count + deletions.count }

    /// The changes as index operations, in order, without the identifiers `held` by another domain (neither written
    /// nor deleted).
    public func operations(without held: [HeldIdentifier]) -> [IndexBatch.Operation] {
        let taken = Set(held.map { Array($0.identifier.utf8) })
        var operations: [IndexBatch.Operation] = []
        var (item, deletion) = (0, 0)
        for run in runs {
            if run.writes {
                let written = items[item..<item + run.count]
                operations.append(.upsert(taken.isEmpty ? Array(written) : written.filter { !taken.contains(Array($0.uniqueIdentifier.utf8)) }))
                item += run.count
            } else {
                let deleted = deletions[deletion..<deletion + run.count]
                operations.append(.deleteIdentifiers(taken.isEmpty ? Array(deleted) : deleted.filter { !taken.contains(Array($0.utf8)) }))
                deletion += run.count
            }
        }
        return operations
    }

    public static func == (left: RunChanges, right: RunChanges) -> Bool {
        left.items == right.items && left.deletions == right.deletions && left.defaultExpiration == right.defaultExpiration
            && left.runs.elementsEqual(right.runs) { $0 == $1 }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(items)
        hasher.combine(deletions)
        hasher.combine(defaultExpiration)
        for run in runs {
            hasher.combine(run.writes)
            hasher.combine(run.count)
        }
    }
}
