public import SchedulerConfig

/// What one pass did: the outcome of every unit it decided, with their plans, and how many units it left undecided
/// because the store had them settled (``ReconcilePass/Options/skipsSettledUnits``).
public struct PassResult: Sendable {
    /// The outcome of every unit decided, in config order.
    public var outcomes: [UnitOutcome]
    /// The plans of the units decided, in the same order.
    public var decidedPlans: [UnitPlan]
    /// How many units the pass did not decide: settled, with nothing due.
    public var settledUnits: Int
}
