import Store

/// A replica's id on a shared store: the one an operator gave (`--replica-id`), or this process's own.
public struct ReplicaName: Sendable, Hashable {
    /// The id given, which also names the replica's local files; `nil` when none was.
    public var given: String?

    public init(given: String?) {
        self.given = given
    }

    /// The id in the leases and the roll of replicas.
    public var id: String { given ?? RunnerIdentity.current }
}
