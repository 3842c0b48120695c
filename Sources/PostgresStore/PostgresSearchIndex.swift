public import Foundation
import HostSupport
public import Indexing
import Logging
public import PluginAPI
import PostgresNIO
import Store

/// The index in PostgreSQL, with the SQLite index's semantics: items upserted by unique identifier, hierarchical
/// domains, expiry, atomic batches with client state, prefix search ranked by the same scorer.
///
/// Every commit takes the next commit number from the one `index_commit` row, whose lock it holds until it
/// commits: commits are numbered in the order they become visible, which is what "the items of a domain not
/// written since commit N" needs whichever replica wrote them.
public final class PostgresSearchIndex: SearchIndex {
    let client: PostgresClient
    /// How long an item without an expiration date lives after it is indexed.
    public let timeToLive: Duration
    let clock: any WallClock
    /// The copy on this machine that answers searches while it can.
    let searchCopy: (any SearchCopy)?
    /// Reads of the feed's head, shared by the searches that ask at the same moment (each sees the commits made
    /// before it asked).
    let headReads: JoinedRead<IndexFeedHead>
    /// PostgreSQL's statistics of the words, by which a search looks its words up (``WordFrequencies``).
    let wordFrequencies: WordFrequencyReads
    let logger: Logger

    init(client: PostgresClient, timeToLive: Duration, clock: any WallClock, searchCopy: (any SearchCopy)?, logger: Logger) {
        self.client = client
        self.timeToLive = timeToLive
        self.clock = clock
        self.searchCopy = searchCopy
        self.headReads = JoinedRead { try await StoreDeadline.sharedRead.run { try await Self.readFeedHead(client, logger: logger) } }
        self.wordFrequencies = WordFrequencyReads(client: client, logger: logger)
        self.logger = logger
    }

    @discardableResult
    public func commit(_ batch: IndexBatch) async throws -> BatchOutcome {
        let logger = logger
        // A change from outside the runs (``outsideChangeCount()``); the commit already holds the counter's row.
        return try await commit(batch, alongside: { connection, _ in
            try await connection.checkedQuery("UPDATE index_commit SET outside_changes = outside_changes + 1", logger: logger)
        })
    }

    /// Commits `batch` and runs `alongside` after it in the same transaction, with its outcome (the commit's number
    /// among it).
    func commit(
        _ batch: IndexBatch, alongside: (PostgresConnection, BatchOutcome) async throws -> Void
    ) async throws -> BatchOutcome {
        try batch.validate()
        let now = clock.now()
        let logger = logger
        return try await client.transaction(logger: logger) { connection in
            let number = try await Self.nextCommitNumber(connection, logger: logger)
            var outcome = BatchOutcome(commitNumber: number)
            for operation in batch.operations {
                switch operation {
                case .upsert(let items):
                    let written = try await upsert(items, expiration: batch.defaultExpiration, commitNumber: number, connection: connection)
                    outcome.upserted += written.upserted
                    outcome.unchanged += written.unchanged
                case .deleteIdentifiers(let identifiers):
                    outcome.deleted += try await delete(identifiers: identifiers, commitNumber: number, connection: connection)
                case .deleteDomains(let domains):
                    for domain in domains {
                        outcome.deleted += try await PostgresPurgedDomains.purge(connection, domain: domain, commitNumber: number, now: now, logger: logger)
                    }
                case .deleteStale(let domain, let through):
                    // Rows a purge hid are not stale items of this run: the reclaimer deletes them.
                    var sql = SQLBuilder("WITH gone AS (DELETE FROM item WHERE ")
                    sql.appendDomainRange(domain)
                    sql.append(" AND commit_number <= \(sql.bind(through)) AND \(PostgresPurgedDomains.liveCondition)")
                    PostgresItemRemovals.appendLoggedDeletion(commitNumber: number, now: now, to: &sql)
                    outcome.deleted += try await Self.count(connection, logger: logger, sql.query)
                case .deleteAll:
                    outcome.deleted += try await Self.count(connection, logger: logger, "WITH gone AS (DELETE FROM item RETURNING 1) SELECT count(*) FROM gone")
                    try await PostgresItemRemovals.logRemoval(ofDomain: nil, commitNumber: number, now: now, connection, logger: logger)
                    try await connection.checkedQuery("DELETE FROM batch_client_state", logger: logger)
                    try await connection.checkedQuery("DELETE FROM purged_domain", logger: logger)
                    try await connection.checkedQuery("DELETE FROM search_term", logger: logger)
                }
            }
            if let state = batch.clientState {
                try await connection.checkedQuery(
                    """
                    INSERT INTO batch_client_state (batch_name, state, committed_at) VALUES (\(state.batchName), \(state.data), \(now.timeIntervalSince1970))
                    ON CONFLICT (batch_name) DO UPDATE SET state = EXCLUDED.state, committed_at = EXCLUDED.committed_at
                    """,
                    logger: logger
                )
            }
            try await alongside(connection, outcome)
            return outcome
        }
    }

    /// Upserts `items` inside a transaction of ``commit(_:alongside:)`` that took commit number `number`; returns how
    /// many, and how many of them were stored with the same content already.
    func upsert(
        _ items: [SearchableItem], expiration: DefaultExpiration?, commitNumber number: Int64, connection: PostgresConnection
    ) async throws -> (upserted: Int, unchanged: Int) {
        let now = clock.now()
        let expiration = expiration ?? DefaultExpiration(lifetime: timeToLive.seconds, from: now)
        let unchanged = try await Self.upsert(items, expiration: expiration, now: now, commitNumber: number, connection, logger: logger)
        return (items.count, unchanged)
    }

    /// Deletes the items with `identifiers` inside the transaction of commit `number` (``commit(_:alongside:)``);
    /// returns how many.
    func delete(identifiers: [String], commitNumber number: Int64, connection: PostgresConnection) async throws -> Int {
        guard !identifiers.isEmpty else { return 0 }
        var sql = SQLBuilder("WITH gone AS (DELETE FROM item WHERE unique_identifier = ANY(")
        sql.append("\(sql.bind(identifiers)))")
        PostgresItemRemovals.appendLoggedDeletion(commitNumber: number, now: clock.now(), to: &sql)
        return try await Self.count(connection, logger: logger, sql.query)
    }

    /// Takes the next commit number, holding the counter's row lock until the transaction ends.
    static func nextCommitNumber(_ connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        let rows = try await connection.checkedQuery("UPDATE index_commit SET last_number = last_number + 1 RETURNING last_number", logger: logger)
        for try await number in rows.decode(Int64.self) { return number }
        return 0
    }

    /// Writes `items` in a few statements whatever their number; returns how many were stored with the same content.
    ///
    /// The stored digests and expiration dates are read first (one query): an item of the same content only gets the
    /// commit number (one `UPDATE` for all), those due
    /// for a renewed expiration date a second one; the others are inserted or replaced in one statement, their rows
    /// travelling as one JSON parameter read back by `jsonb_to_recordset`. An identifier sent twice keeps its last
    /// item, as one upsert after another would.
    private static func upsert(
        _ items: [SearchableItem], expiration: DefaultExpiration, now: Date, commitNumber: Int64, _ connection: PostgresConnection, logger: Logger
    ) async throws -> Int {
        // Keyed by bytes, as the database compares identifiers: Swift's `==` would merge the composed and decomposed
        // spellings of "café", two items to the database, and drop one.
        var last: [[UInt8]: Int] = [:]
        for (position, item) in items.enumerated() { last[Array(item.uniqueIdentifier.utf8)] = position }
        let latest = items.enumerated().filter { last[Array($0.element.uniqueIdentifier.utf8)] == $0.offset }.map(\.element)
        guard !latest.isEmpty else { return 0 }
        var stored: [[UInt8]: StoredItem] = [:]
        let rows = try await connection.checkedQuery(
            // A row a purge hid has no digest: it is written again whole.
            """
            SELECT unique_identifier, CASE WHEN \(unescaped: PostgresPurgedDomains.liveCondition) THEN content_digest END, expiration_date
            FROM item WHERE unique_identifier = ANY(\(latest.map(\.uniqueIdentifier)))
            """,
            logger: logger
        )
        for try await (identifier, digest, date) in rows.decode((String, Int64?, Double).self) {
            stored[Array(identifier.utf8)] = StoredItem(digest: digest, expiration: Date(timeIntervalSince1970: date))
        }
        var kept: [(item: SearchableItem, digest: Int64)] = [], renewed: [(item: SearchableItem, digest: Int64)] = []
        var written: [ItemRow] = [], words = Set<String>()
        func write(_ item: SearchableItem, digest: Int64) {
            written.append(ItemRow(item, expiration: expiration.expiration(of: item), digest: digest))
            SearchVocabulary.insertWords(of: item, into: &words)
        }
        for item in latest {
            let digest = ItemDigest.of(item)
            switch stored[Array(item.uniqueIdentifier.utf8)].map({ expiration.change(writing: item, digest: digest, over: $0) }) ?? .content {
            case .none: kept.append((item, digest))
            case .expiration: renewed.append((item, digest))
            case .content: write(item, digest: digest)
            }
        }
        // A row read above may be gone by now (an expiry sweep or a purge's reclaim deleting it, from another loop or
        // replica, without this commit's lock): an item whose row no update found is written whole.
        for (items, query) in [
            (kept, "UPDATE item SET commit_number = \(commitNumber)"),
            (renewed, "UPDATE item SET commit_number = \(commitNumber), expiration_date = \(expiration.date.timeIntervalSince1970)"),
        ] as [([(item: SearchableItem, digest: Int64)], PostgresQuery)] where !items.isEmpty {
            var update = query
            update.sql += " WHERE unique_identifier = ANY($\(update.binds.count + 1)) RETURNING unique_identifier"
            update.binds.append(items.map(\.item.uniqueIdentifier))
            var found = Set<[UInt8]>()
            for try await identifier in try await connection.checkedQuery(update, logger: logger).decode(String.self) { found.insert(Array(identifier.utf8)) }
            for (item, digest) in items where !found.contains(Array(item.uniqueIdentifier.utf8)) { write(item, digest: digest) }
        }
        guard !written.isEmpty else { return latest.count }
        let json = String(decoding: try JSONEncoder().encode(written), as: UTF8.self)
        try await connection.checkedQuery(
            """
            INSERT INTO item (id, unique_identifier, domain_identifier, content_type, title, display_name, content_description,
                keywords, author_names, content_creation_date, content_modification_date, thumbnail_url, thumbnail_data, content_url,
                related_unique_identifier, ranking_hint, access, version, is_current_version, expiration_date, indexed_at, commit_number, content_digest, words_all, words_best, words_names)
            SELECT (r.band << 40) | nextval('item_sequence'), r.uid, r.domain, r.type, r.title, r.name, r.description,
                r.keywords, r.author_names, r.created, r.modified, r.thumbnail_url, decode(r.thumbnail, 'base64'), r.content_url,
                r.related, r.hint, r.access, r.version, r.current, r.expiration, \(now.timeIntervalSince1970), \(commitNumber), r.digest,
                array_to_tsvector(r.words_all), array_to_tsvector(r.words_best), array_to_tsvector(r.words_names)
            FROM jsonb_to_recordset(\(json)::jsonb) AS r(band bigint, uid text, domain text, type text, title text, name text,
                description text, keywords text, author_names text, created float8, modified float8, thumbnail_url text,
                thumbnail text, content_url text, related text, hint integer, access text[], version text, current boolean, expiration float8, digest bigint,
                words_all text[], words_best text[], words_names text[])
            ON CONFLICT (unique_identifier) DO UPDATE SET
                id = CASE WHEN item.ranking_hint IS NOT DISTINCT FROM EXCLUDED.ranking_hint THEN item.id ELSE EXCLUDED.id END,
                domain_identifier = EXCLUDED.domain_identifier, content_type = EXCLUDED.content_type, title = EXCLUDED.title,
                display_name = EXCLUDED.display_name, content_description = EXCLUDED.content_description,
                keywords = EXCLUDED.keywords, author_names = EXCLUDED.author_names,
                content_creation_date = EXCLUDED.content_creation_date, content_modification_date = EXCLUDED.content_modification_date,
                thumbnail_url = EXCLUDED.thumbnail_url, thumbnail_data = EXCLUDED.thumbnail_data,
                content_url = EXCLUDED.content_url, related_unique_identifier = EXCLUDED.related_unique_identifier, ranking_hint = EXCLUDED.ranking_hint,
                access = EXCLUDED.access, version = EXCLUDED.version, is_current_version = EXCLUDED.is_current_version, expiration_date = EXCLUDED.expiration_date, indexed_at = EXCLUDED.indexed_at, commit_number = EXCLUDED.commit_number,
                content_digest = EXCLUDED.content_digest,
                words_all = EXCLUDED.words_all, words_best = EXCLUDED.words_best, words_names = EXCLUDED.words_names
            """,
            logger: logger
        )
        try await PostgresItemOpens.followDomainMoves(of: written.map(\.uid), connection, logger: logger)
        try await PostgresSearchTerms.insert(words, connection, logger: logger)
        return latest.count - written.count
    }

    /// Runs a statement whose one row is a count.
    static func count(
        _ connection: PostgresConnection, logger: Logger, _ query: PostgresQuery, file: String = #fileID, line: Int = #line
    ) async throws -> Int {
        for try await count in try await connection.checkedQuery(query, logger: logger, file: file, line: line).decode(Int64.self) { return Int(count) }
        return 0
    }

    /// Runs a query whose one row is a count, on any connection of the pool.
    func count(_ query: PostgresQuery, file: String = #fileID, line: Int = #line) async throws -> Int {
        for try await count in try await client.checkedQuery(query, logger: logger, file: file, line: line).decode(Int64.self) { return Int(count) }
        return 0
    }

    public func lastClientState(batchName: String) async throws -> Data? {
        for try await state in try await client.checkedQuery("SELECT state FROM batch_client_state WHERE batch_name = \(batchName)", logger: logger).decode(Data.self) {
            return state
        }
        return nil
    }

    public func itemCountsByDomain() async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        let rows = try await client.checkedQuery(
            "SELECT domain_identifier, count(*) FROM item WHERE \(unescaped: PostgresPurgedDomains.liveCondition) GROUP BY domain_identifier", logger: logger
        )
        for try await (domain, count) in rows.decode((String, Int64).self) { counts[domain] = Int(count) }
        return counts
    }

    public func itemCount(inDomain domain: String) async throws -> Int {
        var sql = SQLBuilder("SELECT count(*) FROM item WHERE ")
        sql.appendDomainRange(domain)
        sql.append(" AND \(PostgresPurgedDomains.liveCondition)")
        return try await count(sql.query)
    }

    public func domainsHoldingItems(among domains: [String]) async throws -> Set<String> {
        // Two probes of the domain index for each domain asked, the domain then the domains under it, as SQLite does:
        // one `EXISTS` whose condition ORs the two could use no index, and scanned every item for every domain (a
        // tick over 100,000 units took minutes).
        var sql = SQLBuilder("SELECT d FROM unnest(")
        sql.append("\(sql.bind(Array(Set(domains))))::text[]) AS d WHERE EXISTS (SELECT 1 FROM item WHERE domain_identifier = d")
        sql.append(" AND \(PostgresPurgedDomains.liveCondition)) OR EXISTS (SELECT 1 FROM item WHERE domain_identifier >= d || '.'")
        sql.append(" AND domain_identifier < d || '/' AND \(PostgresPurgedDomains.liveCondition))")
        var found: Set<String> = []
        for try await domain in try await client.checkedQuery(sql.query, logger: logger).decode(String.self) { found.insert(domain) }
        return found
    }

    public func outsideChangeCount() async throws -> Int64 {
        for try await count in try await client.checkedQuery("SELECT outside_changes FROM index_commit", logger: logger).decode(Int64.self) { return count }
        return 0
    }

    public func lastCommitNumber() async throws -> Int64 {
        for try await number in try await client.checkedQuery("SELECT last_number FROM index_commit", logger: logger).decode(Int64.self) { return number }
        return 0
    }

    public func itemCount(inDomain domain: String, committedThrough number: Int64) async throws -> Int {
        var sql = SQLBuilder("SELECT count(*) FROM item WHERE ")
        sql.appendDomainRange(domain)
        sql.append(" AND commit_number <= \(sql.bind(number)) AND \(PostgresPurgedDomains.liveCondition)")
        return try await count(sql.query)
    }

    @discardableResult
    public func sweepExpired() async throws -> Int {
        let now = clock.now().timeIntervalSince1970
        let logger = logger
        // The counter's row is locked first, as every commit locks it before its items: taken after the items, a sweep
        // and a commit writing an expired item would each wait for the other.
        let swept = try await client.transaction(logger: logger) { connection in
            try await connection.checkedQuery("SELECT 1 FROM index_commit FOR UPDATE", logger: logger)
            return try await Self.count(
                connection, logger: logger,
                """
                WITH gone AS (DELETE FROM item WHERE expiration_date <= \(now) AND \(unescaped: PostgresPurgedDomains.liveCondition) RETURNING 1),
                    counted AS (UPDATE index_commit SET outside_changes = outside_changes + 1 WHERE EXISTS (SELECT 1 FROM gone))
                SELECT count(*) FROM gone
                """
            )
        }
        if swept > 0 { logger.info("swept expired items", metadata: ["items": "\(swept)"]) }
        _ = try await PostgresItemRemovals.forgetOld(client, now: clock.now(), logger: logger)
        return swept
    }

    public func reclaimPurgedItems(limit: Int) async throws -> Int? {
        try await PostgresPurgedDomains.reclaim(client, limit: limit, now: clock.now(), logger: logger)
    }

    public func pendingPurges() async throws -> [PendingPurge] {
        try await PostgresPurgedDomains.pending(client, logger: logger)
    }

    public func restorablePurges() async throws -> [String: Date] {
        try await PostgresPurgedDomains.restorable(client, logger: logger)
    }

    public func item(withIdentifier identifier: String) async throws -> SearchableItem? {
        let rows = try await client.checkedQuery(
            "SELECT \(unescaped: Self.itemColumns(withThumbnailData: true)) FROM item WHERE unique_identifier = \(identifier) AND \(unescaped: PostgresPurgedDomains.liveCondition)",
            logger: logger
        )
        for try await row in rows { return try Self.item(from: row).item }
        return nil
    }

    /// The columns ``item(from:)`` reads, for a `SELECT` from `item` (the thumbnail's bytes only when asked: a hit
    /// never carries them).
    static func itemColumns(withThumbnailData: Bool) -> String {
        """
        id, unique_identifier, domain_identifier, content_type, title, display_name, content_description, keywords, author_names,
            content_creation_date, content_modification_date, thumbnail_url, \(withThumbnailData ? "thumbnail_data" : "NULL::bytea"),
            content_url, related_unique_identifier, ranking_hint, expiration_date, access, version, is_current_version
        """
    }

    /// The item a row of ``itemColumns(withThumbnailData:)`` holds, and its id.
    static func item(from row: PostgresRow) throws -> (id: Int64, item: SearchableItem) {
        let (id, identifier, domain, type, title, name, description, keywords, authorNames, created, modified, thumbnailURL, thumbnailData, contentURL, related, hint, expiration, access, version, current) =
            try row.decode((Int64, String, String, String, String?, String?, String?, String, String, Double?, Double?, String?, Data?, String?, String?, Int?, Double, [String]?, String?, Bool).self)
        return (id, SearchableItem(
            uniqueIdentifier: identifier, domainIdentifier: domain, contentType: type, title: title, displayName: name,
            contentDescription: description, keywords: KeywordList.decode(keywords), authorNames: KeywordList.decode(authorNames),
            contentCreationDate: created.map(Date.init(timeIntervalSince1970:)), contentModificationDate: modified.map(Date.init(timeIntervalSince1970:)),
            thumbnailURL: thumbnailURL, thumbnailData: thumbnailData, contentURL: contentURL, relatedUniqueIdentifier: related, rankingHint: hint,
            access: access, version: version, isCurrentVersion: current, expirationDate: Date(timeIntervalSince1970: expiration)
        ))
    }
}

extension SQLBuilder {
    /// `domain_identifier` is `domain` or under it: one index range, since domains compare bytewise and every
    /// domain under `com.shop` sorts between `com.shop.` and `com.shop/`.
    mutating func appendDomainRange(_ domain: String, column: String = "domain_identifier") {
        append("(\(column) = \(bind(domain)) OR (\(column) >= \(bind(domain + ".")) AND \(column) < \(bind(domain + "/"))))")
    }

    /// "In any of `domains` or under one": ``appendDomainRange(_:column:)`` for each, or false for none.
    mutating func appendDomainRanges(_ domains: [String], column: String = "domain_identifier") {
        guard !domains.isEmpty else { return append("false") }
        append("(")
        for (index, domain) in domains.enumerated() {
            if index > 0 { append(" OR ") }
            appendDomainRange(domain, column: column)
        }
        append(")")
    }
}
