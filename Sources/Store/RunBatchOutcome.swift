/// What writing one batch of a run did.
public struct RunBatchOutcome: Sendable, Hashable {
    /// Items written.
    public var upserted: Int
    /// Items left out because another domain holds their identifier, with that domain.
    public var taken: [String: String]

    public init(upserted: Int, taken: [String: String]) {
        self.upserted = upserted
        self.taken = taken
    }
}
