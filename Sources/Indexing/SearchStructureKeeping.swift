/// What keeps structures in memory that make searches faster (the SQLite index's postings, and a PostgreSQL replica's
/// search copy's), built and kept up to date by one long-running task: the service runs it beside its other services;
/// a one-shot command does without, and its searches are as right, only slower.
public protocol SearchStructureKeeping: Sendable {
    /// Builds the structures, then keeps them up to date with every commit, whichever process makes it, until the task
    /// is cancelled (then it throws `CancellationError`).
    func keepSearchStructures() async throws

    /// How many item rows the structures hold (rows rewritten counting again until they are built anew); 0 while none
    /// are built, when searches do without them.
    var searchStructureRows: Int { get async }
}
