/// What a whole pass leaves for the next: it decided every unit of the configuration whose signature it names, and
/// every unit it did not run is settled until its next due instant (``UnitState/settledUntil``). While the next
/// pass's configuration has the same signature and the index has not been changed from outside the runs since
/// (``Indexing/SearchIndex/outsideChangeCount()``), that pass decides only the units the store says are due
/// (``SchedulerStore/unitsToDecide(at:settledUnder:)``): a tick costs what is due, not what is declared.
public struct PassSettlement: Sendable, Hashable {
    /// The signature of the configuration the pass decided every unit of (its units, gates, variants, settings and
    /// the paused sources).
    public var signature: String
    /// The index's count of changes from outside the runs, read before the pass began.
    public var outsideChanges: Int64

    public init(signature: String, outsideChanges: Int64) {
        self.signature = signature
        self.outsideChanges = outsideChanges
    }
}
