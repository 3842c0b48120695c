/// What keeps structures in memory that make searches faster (the SQLite index's postings, and a PostgreSQL replica's
/// search copy's), built and kept up to date by one long-running task: the service runs it beside its other services;
/// a one-shot command does without, and its searches are as right, only slower.
public protocol SearchStructureKeeping: Sendable {
    /// Builds the structures, then keeps them up to date with every commit, whichever process makes it, until the task
    /// is cancelled (then it throws `CancellationError`).
    func keepSearchStructures() async throws

    /// Brings the structures to the last commit once, building them when there are none, and saves them beside the
    /// index when a save is due, as the keeper would; returns whether it saved them. What a command that wrote many
    /// items does before it exits (`scheduler index import`), so that the service's next start reads them in seconds
    /// instead of building them while its searches go slowly.
    func saveSearchStructures() async throws -> Bool

    /// How many item rows the structures hold (rows rewritten counting again until they are built anew); 0 while none
    /// are built, when searches do without them.
    var searchStructureRows: Int { get async }
}
