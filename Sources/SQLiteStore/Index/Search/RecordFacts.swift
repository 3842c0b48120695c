import Synchronization

/// What searches learned of recorded rows (``CandidateRecords``) at the latest commit one read: for each record,
/// whether its row is still there and of the record's version, and if so its expiration, domain, `access` and whether
/// its version is current, which a search checks against its audience and versions itself. A search takes a row known
/// here from its record with no read of SQLite at all.
///
/// **When a fact holds.** As for ``CandidateRowCache``: at the commit it was learned at only, since every change to the
/// rows and to the purged domains is a commit; a row expiring within ``CandidateRowCache/expiringSoon`` of the search's
/// clock is read from SQLite (the expiry sweep deletes without a commit).
///
/// **Its size** is fixed: 16 bytes a record, allocated when the first fact is learned, whatever the load; domains and
/// `access` values are kept once each, up to ``maxValues`` of each (past it, rows with new ones are read from SQLite).
final class RecordFacts: Sendable {
    /// One record's fact: the commit it was learned at (`-1`: none), the expiration in whole seconds since 1970 rounded
    /// down (`0`: the row is gone or may never be returned), the domain's number, and the `access` value's number
    /// (``noAccess`` for none) with ``currentVersionBit`` set when the row's version is current.
    struct Fact: Equatable {
        var learnedAt: Int64 = -1
        var expiration: UInt32 = 0
        var domain: UInt16 = 0
        var accessAndCurrent: UInt16 = 0
    }

    /// A fact as a search's read finds it.
    struct Learned {
        var record: Int
        /// `nil`: the row is gone (deleted, or its domain purged). A row of another version than its record's is not
        /// learned: it is read from SQLite.
        var row: Row?

        typealias Row = (expiration: Double, domain: String, access: String?, isCurrentVersion: Bool)
    }

    /// The facts of some records at one commit, with the values their numbers stand for.
    struct Known {
        /// By position in the records asked: `nil` for one not known at that commit, or expiring soon.
        var facts: [Fact?]
        var domains: [String]
        var accesses: [String]

        func domain(of fact: Fact) -> String { domains[Int(fact.domain)] }

        func access(of fact: Fact) -> String? {
            let number = fact.accessAndCurrent & ~RecordFacts.currentVersionBit
            return number == RecordFacts.noAccess ? nil : accesses[Int(number)]
        }
    }

    static let currentVersionBit: UInt16 = 0x8000
    static let noAccess: UInt16 = 0x7FFF
    /// Distinct domains, and distinct `access` values, kept at most.
    static let maxValues = 0x7FFF

    private struct State {
        /// The latest commit a search read: readers of an earlier one neither take nor learn facts.
        var latestCommit: Int64 = -1
        var facts: [Fact] = []
        var domains = Values(), accesses = Values()

        mutating func admits(_ commitNumber: Int64) -> Bool {
            latestCommit = max(latestCommit, commitNumber)
            return commitNumber == latestCommit
        }
    }

    /// Values kept once each, by number.
    private struct Values {
        var list: [String] = []
        var numbers: [String: UInt16] = [:]

        /// The number of `value`, given it when new; `nil` when new and ``RecordFacts/maxValues`` are kept.
        mutating func number(of value: String) -> UInt16? {
            if let number = numbers[value] { return number }
            guard list.count < RecordFacts.maxValues else { return nil }
            let number = UInt16(list.count)
            list.append(value)
            numbers[value] = number
            return number
        }
    }

    /// How many records there are facts for.
    let count: Int
    private let state = Mutex(State())

    init(count: Int) {
        self.count = count
    }

    /// The facts of `records` (record numbers) learned at `commitNumber`, for a search whose clock reads
    /// `expiringAfter` seconds since 1970 minus ``CandidateRowCache/expiringSoon``: a row expiring sooner is not known.
    func known(_ records: [Int], at commitNumber: Int64, expiringAfter: Double) -> Known {
        state.withLock { state in
            guard state.admits(commitNumber), !state.facts.isEmpty else {
                return Known(facts: [Fact?](repeating: nil, count: records.count), domains: [], accesses: [])
            }
            let facts = records.map { record -> Fact? in
                let fact = state.facts[record]
                guard fact.learnedAt == commitNumber else { return nil }
                return fact.expiration == 0 || Double(fact.expiration) > expiringAfter ? fact : nil
            }
            return Known(facts: facts, domains: state.domains.list, accesses: state.accesses.list)
        }
    }

    /// Keeps what a read at `commitNumber` found (nothing when a search read a later commit already).
    func learn(_ learned: [Learned], at commitNumber: Int64) {
        guard !learned.isEmpty else { return }
        state.withLock { state in
            guard state.admits(commitNumber) else { return }
            if state.facts.isEmpty { state.facts = [Fact](repeating: Fact(), count: count) }
            for item in learned where (0..<count).contains(item.record) {
                guard let row = item.row else {
                    state.facts[item.record] = Fact(learnedAt: commitNumber)
                    continue
                }
                // Rounded down, so that a fact never lets a row live longer; a row of the first second of 1970 (0 is
                // a gone row's) is not learned.
                guard row.expiration >= 1 else { continue }
                guard let domain = state.domains.number(of: row.domain) else { continue }
                var access = Self.noAccess
                if let value = row.access {
                    guard let number = state.accesses.number(of: value) else { continue }
                    access = number
                }
                let expiration = UInt32(min(row.expiration.rounded(.down), Double(UInt32.max)))
                state.facts[item.record] = Fact(
                    learnedAt: commitNumber, expiration: expiration, domain: domain,
                    accessAndCurrent: access | (row.isCurrentVersion ? Self.currentVersionBit : 0)
                )
            }
        }
    }
}
