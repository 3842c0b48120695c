import ArgumentParser
import SchedulerService

/// `--replica-id`: this process's name among the replicas of a shared (PostgreSQL) store.
struct ReplicaOptions: ParsableArguments {
    @Option(
        name: .customLong("replica-id"),
        help: ArgumentHelp(
            "This replica's id on a PostgreSQL store (host name, pid and start time by default); it also names the replica's lock files.",
            valueName: "id"
        )
    )
    var id: String?

    /// The id given, or this process's own.
    var name: ReplicaName { ReplicaName(given: id) }

    func validate() throws {
        if let id, id.isEmpty || id.count > 200 || id.contains(where: { $0.isNewline }) {
            throw ValidationError("--replica-id must be 1 to 200 characters on one line")
        }
    }
}
