import Engine
import PluginAPI
import Foundation
import Store

/// An instant in UTC, and relative to the page's.
struct Moment {
    var utc: String
    var relative: String

    init(_ date: Date, now: Date) {
        utc = Moment.utc(date)
        relative = RelativeTime.describe(date, now: now)
    }

    /// `2026-11-23 15:40 UTC`: minutes are what operators compare.
    static func utc(_ date: Date) -> String {
        let iso = ISO8601.string(from: date)
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(5)) + " UTC"
    }
}

/// One unit as the pages show it: the status page's table row and the head of its own page.
struct UnitRow {
    var source: String
    var unit: String
    /// The unit's page: `/units/` and the unit, percent-encoded (a partition's unit holds a `/`).
    var link: String
    var domain: String
    var gate: String
    var gateReason: String
    var variant: String?
    var result: String
    var isFailing: Bool
    var lastSuccess: Moment?
    var nextDue: Moment?
    var dueReason: String?
    var isOverdue: Bool
    var failures: Int
    var lastError: String?
    var items: Int
    var isPaused: Bool
    var isRunning: Bool
    var trouble: UnitTrouble

    init(_ unit: StatusReport.UnitStatus, now: Date) {
        source = unit.source
        self.unit = unit.unit
        link = UnitRow.link(unit.unit)
        domain = unit.domain
        gate = unit.gate.rawValue
        gateReason = unit.gateReason ?? ""
        variant = unit.variant
        result = UnitRow.result(unit, now: now)
        isFailing = unit.failures > 0
        lastSuccess = unit.lastSuccess.map { Moment($0, now: now) }
        nextDue = unit.nextDue.map { Moment($0, now: now) }
        dueReason = unit.dueReason
        isOverdue = unit.overdue == true
        failures = unit.failures
        lastError = unit.lastError
        items = unit.items
        isPaused = unit.paused
        isRunning = unit.lastResult == .running
        trouble = UnitTrouble(failures: unit.failures, overdue: isOverdue, lastResult: unit.lastResult, due: unit.due == true, paused: unit.paused)
    }

    /// The last result; for a run going now, how long it has run and what it committed so far.
    static func result(_ unit: StatusReport.UnitStatus, now: Date) -> String {
        guard unit.lastResult == .running, let started = unit.lastAttempt else { return unit.lastResult?.rawValue ?? "never run" }
        let elapsed = RelativeTime.describe(started, now: now).replacingOccurrences(of: " ago", with: "")
        let items = unit.itemsSoFar.map { ", \($0) item\($0 == 1 ? "" : "s") committed so far" } ?? ""
        return "running (started \(elapsed == "just now" ? "just now" : elapsed + " ago")\(items))"
    }

    /// The path of `unit`'s page.
    static func link(_ unit: String) -> String {
        "/units/" + (unit.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#%"))) ?? unit)
    }
}

/// One run as the pages list it.
struct RunRow {
    var finished: Moment
    var unit: String
    var link: String
    var decision: String
    var mode: String
    var isFailure: Bool
    var counts: String
    var duration: String
    var detail: String
    /// The first content the run rejected, and why (`path: reason`).
    var rejections: [String]

    init(_ run: RunRecord, now: Date) {
        finished = Moment(run.finishedAt, now: now)
        unit = run.unit
        link = UnitRow.link(run.unit)
        decision = run.decision.rawValue + (run.forced ? " (forced)" : "")
        mode = run.mode.rawValue
        isFailure = run.decision == .failed
        counts = "+\(run.indexed) −\(run.deleted)" + (run.rejected > 0 ? " ✕\(run.rejected)" : "")
        duration = RunRow.describe(seconds: run.finishedAt.timeIntervalSince(run.startedAt))
        detail = run.error ?? run.reason
        rejections = run.rejections.map { "\($0.what): \($0.reason)" }
    }

    /// `850 ms`, `12.5 s`.
    static func describe(seconds: Double) -> String {
        seconds < 1 ? "\(Int(seconds * 1000)) ms" : "\(seconds.formatted(.number.precision(.fractionLength(1)))) s"
    }
}
