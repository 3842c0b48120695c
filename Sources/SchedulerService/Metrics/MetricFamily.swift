/// Every metric family the service exports, with its type, labels and help text: the one list the exporter
/// describes families from, and the tests hold docs/operating.md, `/metrics` and the Grafana dashboard to.
public enum MetricFamily: String, CaseIterable, Sendable {
    case runs = "scheduler_runs_total"
    case itemsIndexed = "scheduler_items_indexed_total"
    case itemsUnchanged = "scheduler_items_unchanged_total"
    case itemsDeleted = "scheduler_items_deleted_total"
    case itemsRejected = "scheduler_items_rejected_total"
    case runDuration = "scheduler_run_duration_seconds"
    case passFailures = "scheduler_pass_failures_total"
    case lastPass = "scheduler_last_pass_timestamp_seconds"
    case configReloadFailures = "scheduler_config_reload_failures_total"
    case configLastReloadSuccessful = "scheduler_config_last_reload_successful"
    case databaseHealthy = "scheduler_database_healthy"
    case domainItems = "scheduler_domain_items"
    case lastSuccess = "scheduler_last_success_timestamp_seconds"
    case nextDue = "scheduler_next_due_timestamp_seconds"
    case consecutiveFailures = "scheduler_unit_consecutive_failures"
    case overdue = "scheduler_unit_overdue"
    case held = "scheduler_unit_held"
    case paused = "scheduler_unit_paused"
    case searches = "scheduler_searches_total"
    case opens = "scheduler_opens_total"
    case stateCommitted = "scheduler_unit_state_timestamp_seconds"
    case searchPostingsRows = "scheduler_search_postings_rows"
    case searchesWithoutPostings = "scheduler_searches_without_postings_total"
    case purgesRestorable = "scheduler_purges_restorable"

    /// The Prometheus metric type.
    public enum Kind: String, Sendable {
        case counter, gauge, histogram
    }

    public var name: String { rawValue }

    public var kind: Kind {
        switch self {
        case .runs, .itemsIndexed, .itemsUnchanged, .itemsDeleted, .itemsRejected, .passFailures, .configReloadFailures, .searches, .opens, .searchesWithoutPostings: .counter
        case .runDuration: .histogram
        case .lastPass, .configLastReloadSuccessful, .databaseHealthy, .domainItems, .lastSuccess, .nextDue, .consecutiveFailures, .overdue, .held,
             .paused, .stateCommitted, .searchPostingsRows, .purgesRestorable: .gauge
        }
    }

    /// The labels every series of the family carries.
    public var labels: [String] {
        switch self {
        case .runs: ["source", "result", "mode"]
        case .itemsIndexed, .itemsUnchanged, .itemsDeleted, .itemsRejected, .runDuration: ["source"]
        case .domainItems: ["domain"]
        case .lastSuccess, .nextDue, .consecutiveFailures, .overdue, .held, .paused, .stateCommitted: ["unit"]
        case .searches: ["result"]
        case .passFailures, .lastPass, .configReloadFailures, .configLastReloadSuccessful, .databaseHealthy, .opens, .searchPostingsRows, .searchesWithoutPostings, .purgesRestorable: []
        }
    }

    /// The `# HELP` text.
    public var help: String {
        switch self {
        case .runs: "Runs finished, by source, result (reindexed, failed, purged, restored, cancelled or missed) and mode (full, incremental or resume; a purge is full)."
        case .itemsIndexed: "Items written to the index by runs of the source."
        case .itemsUnchanged: "Items runs of the source sent that the index held with the same content: marked as sent, nothing rewritten."
        case .itemsDeleted: "Items deleted from the index by runs of the source: stale items and purges."
        case .itemsRejected: "Items the source returned that failed validation and were not indexed."
        case .runDuration: "How long runs of the source took, from start to the last commit."
        case .passFailures: "Reconcile passes that failed as a whole (database or lock unusable), not a unit's failed run."
        case .lastPass: "When the last reconcile pass finished without failing as a whole, in Unix seconds."
        case .configReloadFailures: "Config folder changes refused because the new configuration had problems."
        case .configLastReloadSuccessful: "1 when the config folder as it is now is the configuration in force, 0 while a change to it is refused."
        case .databaseHealthy: "1 when the store answered a health check at this scrape, else 0."
        case .domainItems: "Items in the index under the unit's domain."
        case .lastSuccess: "When the unit last reindexed successfully, in Unix seconds; 0 until it has."
        case .nextDue: "When the unit's schedule wants its next success (for a unit that never succeeded: when the service started), in Unix seconds; only while its gate is on."
        case .consecutiveFailures: "Failed runs of the unit since its last success."
        case .overdue: "1 when the unit's gate is on and its next due passed more than service.overdueGrace ago without a success, else 0."
        case .searches: "Searches answered by /search, by result: hits when some item matched, none when nothing did."
        case .opens: "Opens of results counted by /open: one per client, item and hour, within service.openRateLimit."
        case .stateCommitted: "When the state handed to the unit's next incremental run was committed, in Unix seconds; 0 while it has none."
        case .paused: "1 while the unit's source is paused (scheduler pause): no run starts, nothing is purged unless its gate turns off; else 0."
        case .searchPostingsRows: "Item rows the search postings in memory hold (SQLite store); 0 while they are built (searches scan every row meanwhile), and on PostgreSQL."
        case .searchesWithoutPostings: "Searches that went without the search postings (SQLite store, or a PostgreSQL replica's search copy) : scanned every row instead (while the postings are read or built, behind a single write of more than 50,000 items, dropped past their bounds; every search with search.postings off, nearly every one with best, whose all-fields scan always does), or answered by PostgreSQL itself on a replica whose search copy is being made, far behind or failing."
        case .purgesRestorable: "Purges that turning a gate off caused and that turning it on again still undoes (within purgeGrace), as of the last pass."
        case .held: "1 while a flagd flag that decides the unit's gate or variant does not resolve: the unit neither runs nor is purged; else 0."
        }
    }

    /// Histogram buckets: runs last from milliseconds (an unchanged feed) to an hour (a full crawl).
    static let runDurationBuckets: [Duration] = [
        .milliseconds(100), .milliseconds(500), .seconds(1), .seconds(5), .seconds(15), .seconds(30),
        .seconds(60), .seconds(300), .seconds(900), .seconds(1800), .seconds(3600),
    ]
}
