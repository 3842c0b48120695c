import Store

/// How much a unit needs an operator's eyes, most first: the status page lists units in this order (config order
/// within each), and its summary's chips show one kind alone (`/?show=failing`).
enum UnitTrouble: String, CaseIterable, Comparable {
    case failing
    case overdue
    case running
    case due
    /// Left alone until someone resumes its source: worth a look, so that no pause is forgotten.
    case paused
    /// Nothing to look at.
    case none

    /// A unit's trouble: the first kind that applies.
    init(failures: Int, overdue: Bool, lastResult: UnitResult?, due: Bool, paused: Bool) {
        self = failures > 0 ? .failing : overdue ? .overdue : lastResult == .running ? .running : due ? .due : paused ? .paused : .none
    }

    /// The kinds a page may show alone.
    static let shown = allCases.filter { $0 != .none }

    /// The kind `show` names; `nil` for none (every unit); throws a sentence naming the kinds for anything else.
    static func named(_ show: String?) throws(APIError) -> UnitTrouble? {
        guard let show, !show.isEmpty else { return nil }
        guard let trouble = UnitTrouble(rawValue: show), trouble != .none else {
            throw APIError(.badRequest, "show must be one of \(shown.map(\.rawValue).joined(separator: ", ")), or absent for every unit")
        }
        return trouble
    }

    static func < (left: UnitTrouble, right: UnitTrouble) -> Bool {
        allCases.firstIndex(of: left)! < allCases.firstIndex(of: right)!
    }
}
