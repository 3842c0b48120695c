import Foundation
import Logging
import PostgresNIO
public import Store

extension PostgresSchedulerStore: LeaseStore {
    public func take(_ name: String, holder: String, for duration: Duration) async throws -> Lease? {
        let seconds = duration.seconds
        let rows = try await client.checkedQuery(
            """
            INSERT INTO lease (name, holder, token, expires_at, taken_at)
            VALUES (\(name), \(holder), 1, \(unescaped: PostgresSchema.databaseNow) + \(seconds), \(unescaped: PostgresSchema.databaseNow))
            ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, token = lease.token + 1,
                expires_at = EXCLUDED.expires_at, taken_at = EXCLUDED.taken_at
            WHERE lease.expires_at <= \(unescaped: PostgresSchema.databaseNow)
            RETURNING token, expires_at
            """,
            logger: logger
        )
        for try await (token, expires) in rows.decode((Int64, Double).self) {
            return Lease(name: name, holder: holder, token: token, expiresAt: Date(timeIntervalSince1970: expires))
        }
        return nil
    }

    public func renew(_ lease: Lease, for duration: Duration) async throws -> Lease? {
        let rows = try await client.checkedQuery(
            """
            UPDATE lease SET expires_at = \(unescaped: PostgresSchema.databaseNow) + \(duration.seconds)
            WHERE name = \(lease.name) AND token = \(lease.token) RETURNING expires_at
            """,
            logger: logger
        )
        for try await expires in rows.decode(Double.self) {
            var renewed = lease
            renewed.expiresAt = Date(timeIntervalSince1970: expires)
            return renewed
        }
        return nil
    }

    public func release(_ lease: Lease) async throws {
        try await client.checkedQuery("UPDATE lease SET expires_at = 0 WHERE name = \(lease.name) AND token = \(lease.token)", logger: logger)
    }

    public func liveLeases() async throws -> [Lease] {
        let rows = try await client.checkedQuery(
            "SELECT name, holder, token, expires_at FROM lease WHERE expires_at > \(unescaped: PostgresSchema.databaseNow) ORDER BY name",
            logger: logger
        )
        var leases: [Lease] = []
        for try await (name, holder, token, expires) in rows.decode((String, String, Int64, Double).self) {
            leases.append(Lease(name: name, holder: holder, token: token, expiresAt: Date(timeIntervalSince1970: expires)))
        }
        return leases
    }

    public func heartbeat(replica: String, configFingerprint: String) async throws {
        try await client.checkedQuery(
            """
            INSERT INTO replica (id, config_fingerprint, started_at, heartbeat_at)
            VALUES (\(replica), \(configFingerprint), \(unescaped: PostgresSchema.databaseNow), \(unescaped: PostgresSchema.databaseNow))
            ON CONFLICT (id) DO UPDATE SET config_fingerprint = EXCLUDED.config_fingerprint, heartbeat_at = EXCLUDED.heartbeat_at
            """,
            logger: logger
        )
    }

    public func offerSearchCopy(replica: String, at url: String) async throws -> Bool {
        let rows = try await client.checkedQuery("UPDATE replica SET search_copy_url = \(url) WHERE id = \(replica) RETURNING id", logger: logger)
        for try await _ in rows { return true }
        return false
    }

    public func removeReplica(_ replica: String) async throws {
        try await client.checkedQuery("DELETE FROM replica WHERE id = \(replica)", logger: logger)
    }

    public func replicas() async throws -> [ReplicaRecord] {
        let rows = try await client.checkedQuery(
            "SELECT id, config_fingerprint, started_at, heartbeat_at, search_copy_url FROM replica ORDER BY id", logger: logger
        )
        var replicas: [ReplicaRecord] = []
        for try await (id, fingerprint, started, heartbeat, url) in rows.decode((String, String, Double, Double, String?).self) {
            replicas.append(ReplicaRecord(
                id: id, configFingerprint: fingerprint, startedAt: Date(timeIntervalSince1970: started), heartbeatAt: Date(timeIntervalSince1970: heartbeat),
                searchCopyURL: url
            ))
        }
        return replicas
    }

    public func fenced(by lease: Lease) -> any SchedulerStore {
        PostgresSchedulerStore(sharing: self, fence: lease)
    }

    /// Throws ``LeaseLost`` unless `fence` is still the newest grant of its name; the row stays share-locked until the
    /// transaction ends, so no new grant can slip in before this transaction commits.
    static func check(_ fence: Lease?, _ connection: PostgresConnection, logger: Logger) async throws {
        guard let fence else { return }
        let rows = try await connection.checkedQuery("SELECT holder, token FROM lease WHERE name = \(fence.name) FOR SHARE", logger: logger)
        var current: (holder: String, token: Int64)?
        for try await row in rows.decode((String, Int64).self) { current = row }
        guard let current, current.token == fence.token else {
            throw LeaseLost(lease: fence, currentHolder: current?.holder, currentToken: current?.token)
        }
    }
}
