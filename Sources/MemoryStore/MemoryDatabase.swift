import Synchronization

/// The tables of a ``MemoryStore``, shared by its views (the store, its index, its fenced views), read and changed
/// under one lock.
final class MemoryDatabase: Sendable {
    private let tables = Mutex(MemoryTables())

    /// Reads the tables.
    func read<Result: Sendable>(_ body: (MemoryTables) throws -> Result) rethrows -> Result {
        try tables.withLock { tables in try body(tables) }
    }

    /// Changes the tables as a transaction: `body` works on a copy that replaces them only when it returns, so a
    /// throw (a lost lease, a refused batch) changes nothing. Each change copies the tables it writes: a twin for
    /// tests, not a store for millions of items.
    func change<Result: Sendable>(_ body: (inout MemoryTables) throws -> Result) rethrows -> Result {
        try tables.withLock { tables in
            var copy = tables
            let result = try body(&copy)
            tables = copy
            return result
        }
    }
}
