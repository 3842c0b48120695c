public import PluginAPI

/// What writing one batch of a run did.
public struct RunBatchOutcome: Sendable, Hashable {
    /// Items written.
    public var upserted: Int
    /// Of those, the items already stored with the same content: only marked as written by the run.
    public var unchanged: Int
    /// Items deleted (a deletion of an identifier no item of the domain holds deletes nothing).
    public var deleted: Int
    /// Items left out, and deletions refused, because another domain holds their identifier, with that domain, in
    /// identifier order. A list, not a dictionary: identifiers are compared by bytes, and Swift's `String` equality
    /// would merge the composed and decomposed spellings of one word.
    public var taken: [HeldIdentifier]

    /// `taken` is kept in identifier order (by bytes), whatever order the store found them in.
    public init(upserted: Int, unchanged: Int = 0, deleted: Int = 0, taken: [HeldIdentifier]) {
        self.upserted = upserted
        self.unchanged = unchanged
        self.deleted = deleted
        self.taken = taken.sorted { $0.identifier.utf8.lexicographicallyPrecedes($1.identifier.utf8) }
    }
}

/// An identifier an item of another domain holds.
public struct HeldIdentifier: Sendable, Hashable {
    public var identifier: String
    /// The domain of the item holding it.
    public var domain: String

    public init(identifier: String, domain: String) {
        self.identifier = identifier
        self.domain = domain
    }

    /// Which of `items` these identifiers leave out, compared by bytes as the databases compare them.
    public static func keeping(_ items: [SearchableItem], without held: [HeldIdentifier]) -> [SearchableItem] {
        let taken = Set(held.map { Array($0.identifier.utf8) })
        return items.filter { !taken.contains(Array($0.uniqueIdentifier.utf8)) }
    }
}
