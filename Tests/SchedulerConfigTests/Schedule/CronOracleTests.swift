import Foundation
import FuzzSupport
import PluginAPI
import SchedulerConfig
import Testing

/// `nextDue` against an independent oracle that walks minutes, for thousands of random expressions and
/// instants. Seeded and bounded: the same cases every run.
@Suite("Cron against a minute-walking oracle")
struct CronOracleTests {
    /// Last successes spread over 2024–2031 (leap days, month and year ends), with seconds and milliseconds.
    static func randomInstant(_ random: inout SeededGenerator) -> Date {
        let start = 1_704_067_200.0 // 2024-01-01T00:00:00Z
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            // Just before a month or year ends, where a skipped boundary shows.
            let month = Int.random(in: 0..<96, using: &random)
            let firstOfNext = Calendar.utc.date(byAdding: .month, value: month + 1, to: Date(timeIntervalSince1970: start))!
            return firstOfNext.addingTimeInterval(-Double.random(in: 0.001..<180, using: &random))
        case 1:
            // On a minute exactly.
            return Date(timeIntervalSince1970: start + Double(Int.random(in: 0..<4_200_000, using: &random) * 60))
        default:
            return Date(timeIntervalSince1970: start + Double.random(in: 0..<252_000_000, using: &random))
        }
    }

    @Test(arguments: [(UInt64(1), false), (2, false), (3, true)])
    func cronAgreesWithTheOracleInUTC(seed: UInt64, sparse: Bool) throws {
        var generator = CronExpressionGenerator(random: SeededGenerator(seed: seed))
        var random = SeededGenerator(seed: seed &* 31)
        let limit = 9 * 366 * 86_400
        var refused = 0
        for _ in 0..<1000 {
            let expression = generator.expression(sparse: sparse)
            let after = Self.randomInstant(&random)
            let expected = CronOracle.next(expression, after: after, in: .utc, limit: limit)
            let cron: CronExpression
            do {
                cron = try CronExpression(expression.text)
            } catch {
                // Refused as never firing: the oracle must find no instant in nine years either.
                #expect(error.reason.contains("never fires"), "\(expression): \(error.reason)")
                #expect(expected == nil, "\(expression) was refused but fires at \(expected.map(ISO8601.string(from:)) ?? "")")
                refused += 1
                continue
            }
            let next = cron.next(after: after, in: .utc)
            if let expected {
                #expect(next == expected, "\(expression) after \(ISO8601.string(from: after))")
            } else {
                #expect(next.map { $0.timeIntervalSince(after) > Double(limit) } ?? false, "\(expression) after \(ISO8601.string(from: after))")
            }
        }
        #expect(refused < 100)
    }

    /// Zones with daylight-saving time (Lord Howe moves by 30 minutes), and one without.
    @Test(arguments: ["Europe/Paris", "America/New_York", "Australia/Lord_Howe", "America/Santiago", "Asia/Kolkata"])
    func cronAgreesWithTheOracleAcrossDaylightSavingChanges(zoneName: String) throws {
        let zone = try #require(TimeZone(identifier: zoneName))
        var generator = CronExpressionGenerator(random: SeededGenerator(seed: UInt64(zoneName.utf8.count)))
        var random = SeededGenerator(seed: 77)
        // Instants near each change of offset in 2026–2028 (or spread over the years without any).
        var transitions: [Date] = []
        var cursor = ISO8601.date(from: "2026-01-01T00:00:00Z")!
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next < ISO8601.date(from: "2029-01-01T00:00:00Z")! {
            transitions.append(next)
            cursor = next
        }
        if transitions.isEmpty { transitions = (0..<6).map { ISO8601.date(from: "2026-01-01T00:00:00Z")!.addingTimeInterval(Double($0) * 15_000_000) } }
        let limit = 2 * 86_400
        for index in 0..<240 {
            // Days mostly unrestricted, so the expression fires within the two days the oracle walks.
            let expression = generator.expression(everyDay: index % 3 != 0)
            let transition = transitions[index % transitions.count]
            let after = transition.addingTimeInterval(Double.random(in: -7200...3600, using: &random).rounded(.down) + (index % 2 == 0 ? 0.25 : 0))
            guard let cron = try? CronExpression(expression.text) else { continue }
            let expected = CronOracle.next(expression, after: after, in: zone, limit: limit)
            let next = cron.next(after: after, in: zone)
            if let expected {
                #expect(next == expected, "\(expression) in \(zoneName) after \(ISO8601.string(from: after))")
            } else {
                #expect(next.map { $0.timeIntervalSince(after) > Double(limit) } ?? false, "\(expression) in \(zoneName) after \(ISO8601.string(from: after))")
            }
        }
    }
}

extension Calendar {
    static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .utc
        return calendar
    }
}
