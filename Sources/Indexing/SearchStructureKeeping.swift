/// What keeps structures in memory that make searches faster (the SQLite index's postings, and a PostgreSQL replica's
/// search copy's), built and kept up to date by one long-running task: the service runs it beside its other services;
/// a one-shot command does without, and its searches are as right, only slower.
public protocol SearchStructureKeeping: Sendable {
    /// Builds the structures, then keeps them up to date with every commit, whichever process makes it, until the task
    /// is cancelled (then it throws `CancellationError`).
    func keepSearchStructures() async throws

    /// Brings the structures to the last commit once (building them when there are none usable and `mayBuild` says
    /// so: asked only then), and saves them beside the index when a save is due, as the keeper would. What a command
    /// that wrote many items does before it exits (`scheduler index import`), so that the service's next start reads
    /// them in seconds instead of building them while its searches go slowly.
    func saveSearchStructures(mayBuild: @Sendable () async throws -> Bool) async throws -> SearchStructuresSave

    /// Reads the structures a keeper saved beside the index, when a usable file is there (of this format, saved for
    /// this index's history), without building any or saving: what a one-shot command that searches does first
    /// (`scheduler search`), so that its search reads them, caught up to the last commit by the search itself, instead
    /// of reading every row. A file that cannot be used is said in the log and left.
    func readSavedSearchStructures() async throws

    /// Whether the structures are kept but none are held yet: being read from their saved file or built at start, while
    /// searches read every row, slowly. `/readyz` holds readiness back meanwhile.
    var areWarming: Bool { get async }

    /// How many item rows the structures hold (rows rewritten counting again until they are built anew); 0 while none
    /// are built, when searches do without them.
    var searchStructureRows: Int { get async }

    /// How many searches since the process started went without the structures, because they did not hold the
    /// search's commit (while they are read or built, behind a large write, dropped past their bounds, or not kept for
    /// a field): on SQLite, searches that scanned every row. A count that only grows.
    var searchesWithoutThem: Int { get async }
}

/// What ``SearchStructureKeeping/saveSearchStructures(mayBuild:)`` did.
public enum SearchStructuresSave: Sendable, Equatable {
    /// Saved: the next start reads them.
    case saved
    /// Brought up to date, and the file saved before is recent enough that the next start catches up the rest.
    case notDue
    /// None usable, and building them was not asked: the next start builds them.
    case notBuilt
    /// None kept (the setting is `off`, or they were dropped past their bound of words).
    case noneKept
    /// The save failed (the log says why); the file saved before, if any, stays.
    case failed
}
