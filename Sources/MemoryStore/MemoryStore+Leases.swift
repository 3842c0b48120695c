import Foundation
public import Store

extension MemoryStore: LeaseStore {
    public func take(_ name: String, holder: String, for duration: Duration) async throws -> Lease? {
        let now = leaseClock.now()
        return database.change { tables in
            if let current = tables.leases[name], current.expiresAt > now { return nil }
            let lease = Lease(name: name, holder: holder, token: (tables.leases[name]?.token ?? 0) + 1, expiresAt: now.addingTimeInterval(duration.seconds))
            tables.leases[name] = lease
            return lease
        }
    }

    public func renew(_ lease: Lease, for duration: Duration) async throws -> Lease? {
        let now = leaseClock.now()
        return database.change { tables in
            guard var current = tables.leases[lease.name], current.token == lease.token else { return nil }
            current.expiresAt = now.addingTimeInterval(duration.seconds)
            tables.leases[lease.name] = current
            return current
        }
    }

    public func release(_ lease: Lease) async throws {
        database.change { tables in
            if tables.leases[lease.name]?.token == lease.token { tables.leases[lease.name]?.expiresAt = .distantPast }
        }
    }

    public func liveLeases() async throws -> [Lease] {
        let now = leaseClock.now()
        return database.read { tables in tables.leases.values.filter { $0.expiresAt > now }.sorted { $0.name < $1.name } }
    }

    public func heartbeat(replica: String, configFingerprint: String) async throws {
        let now = leaseClock.now()
        database.change { tables in
            let known = tables.replicas[replica]
            tables.replicas[replica] = ReplicaRecord(
                id: replica, configFingerprint: configFingerprint, startedAt: known?.startedAt ?? now, heartbeatAt: now, searchCopyURL: known?.searchCopyURL
            )
        }
    }

    public func offerSearchCopy(replica: String, at url: String) async throws -> Bool {
        database.change { tables in
            guard tables.replicas[replica] != nil else { return false }
            tables.replicas[replica]?.searchCopyURL = url
            return true
        }
    }

    public func removeReplica(_ replica: String) async throws {
        database.change { tables in tables.replicas[replica] = nil }
    }

    public func replicas() async throws -> [ReplicaRecord] {
        database.read { tables in tables.replicas.values.sorted { $0.id < $1.id } }
    }

    public func fenced(by lease: Lease) -> any SchedulerStore {
        MemoryStore(sharing: self, fence: lease)
    }
}

extension MemoryTables {
    /// Throws ``LeaseLost`` unless `fence` is still the newest grant of its name.
    func check(_ fence: Lease?) throws {
        guard let fence else { return }
        let current = leases[fence.name]
        guard let current, current.token == fence.token else {
            throw LeaseLost(lease: fence, currentHolder: current?.holder, currentToken: current?.token)
        }
    }

    /// Changes the state of `unit`, its row made first if missing, its source and domain kept current.
    mutating func updateUnit(_ unit: UnitState, _ change: (inout UnitState) -> Void) {
        var state = units[unit.unit] ?? UnitState(unit: unit.unit, source: unit.source, domain: unit.domain)
        state.source = unit.source
        state.domain = unit.domain
        change(&state)
        state.settledUntil = nil
        units[unit.unit] = state
    }
}
