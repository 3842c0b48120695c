public import Indexing
public import PluginAPI

/// What one batch of a run changes in its unit's domain, in the order the plugin sent it: items to write and
/// identifiers to delete. Kept in order, so that an item deleted and sent again (or sent and deleted) in one batch
/// ends as the plugin meant.
public struct RunChanges: Sendable, Hashable {
    /// A run of consecutive changes of one kind.
    public enum Change: Sendable, Hashable {
        case upsert([SearchableItem])
        case delete([String])
    }

    public private(set) var changes: [Change] = []

    public init() {}

    /// Changes writing `items`, in order.
    public init(upserting items: [SearchableItem]) {
        if !items.isEmpty { changes = [.upsert(items)] }
    }

    public mutating func upsert(_ item: SearchableItem) {
        if case .upsert(var items)? = changes.last {
            items.append(item)
            changes[changes.count - 1] = .upsert(items)
        } else {
            changes.append(.upsert([item]))
        }
    }

    public mutating func delete(_ identifier: String) {
        if case .delete(var identifiers)? = changes.last {
            identifiers.append(identifier)
            changes[changes.count - 1] = .delete(identifiers)
        } else {
            changes.append(.delete([identifier]))
        }
    }

    /// Every item written, in order.
    public var items: [SearchableItem] {
        changes.flatMap { change -> [SearchableItem] in
            guard case .upsert(let items) = change else { return [] }
            return items
        }
    }

    /// Every identifier deleted, in order.
    public var deletions: [String] {
        changes.flatMap { change -> [String] in
            guard case .delete(let identifiers) = change else { return [] }
            return identifiers
        }
    }
    public var isEmpty: Bool { changes.isEmpty }
    /// Items and deletions.
    public var count: Int { items.count + deletions.count }

    /// The changes as index operations, without the identifiers `held` by another domain (neither written nor deleted).
    public func operations(without held: [HeldIdentifier]) -> [IndexBatch.Operation] {
        let taken = Set(held.map { Array($0.identifier.utf8) })
        return changes.map { change in
            switch change {
            case .upsert(let items): .upsert(items.filter { !taken.contains(Array($0.uniqueIdentifier.utf8)) })
            case .delete(let identifiers): .deleteIdentifiers(identifiers.filter { !taken.contains(Array($0.utf8)) })
            }
        }
    }
}
