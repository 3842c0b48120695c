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
    /// The runs of consecutive changes of one kind, in order: whether they write (or delete), and how many.
    private var runs: [(writes: Bool, count: Int)] = []

    public init() {}

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
                operations.append(.upsert(items[item..<item + run.count].filter { !taken.contains(Array($0.uniqueIdentifier.utf8)) }))
                item += run.count
            } else {
                operations.append(.deleteIdentifiers(deletions[deletion..<deletion + run.count].filter { !taken.contains(Array($0.utf8)) }))
                deletion += run.count
            }
        }
        return operations
    }

    public static func == (left: RunChanges, right: RunChanges) -> Bool {
        left.items == right.items && left.deletions == right.deletions && left.runs.elementsEqual(right.runs) { $0 == $1 }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(items)
        hasher.combine(deletions)
        for run in runs {
            hasher.combine(run.writes)
            hasher.combine(run.count)
        }
    }
}
