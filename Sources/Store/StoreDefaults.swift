/// The store's defaults, in one place: what `scheduler.yaml` and every backend use when nothing is set.
public enum StoreDefaults {
    /// How long an item without an expiration date lives after it is indexed (`defaults.expiration`): Core
    /// Spotlight's default, about a month.
    public static let timeToLive: Duration = .seconds(30 * 86_400)
    /// How many runs the history keeps (`store.history`).
    public static let historyLength = 1000
    /// How long a unit's lease lasts unless renewed (`store.postgres.leaseTTL`): a replica killed mid-run holds its
    /// unit that long before another one redoes it. Also how long an operator's purge holds a unit's lease.
    public static let leaseDuration: Duration = .seconds(60)
    /// The most connections one process opens to PostgreSQL (`store.postgres.pool`).
    public static let postgresPoolSize = 8
}
