/// One field of a cron expression: the set of values it allows, and whether it was written restricted.
///
/// The syntax is Vixie cron's (cronie's): `*`, a number or a name, a range `a-b`, a step `*/n`, `a-b/n` or
/// `a/n` (from `a` to the field's end), and comma-separated lists of these. Names (`JAN`–`DEC`,
/// `SUN`–`SAT`) are case-insensitive and work wherever a number does.
struct CronField: Sendable, Hashable {
    /// Bit `n` is set when value `n` is allowed.
    private(set) var bits: UInt64 = 0
    /// `false` when the field starts with `*` (`*`, `*/2`): as in Vixie cron, such a day field does not
    /// restrict days when the other day field does.
    let isRestricted: Bool

    func contains(_ value: Int) -> Bool { bits & (1 << UInt64(value)) != 0 }

    /// The allowed values in ascending order.
    var values: [Int] { (0..<64).filter(contains) }

    /// What one field may hold.
    struct Kind: Sendable {
        let name: String
        /// The values `*` covers, and where `a/n` ends.
        let range: ClosedRange<Int>
        /// The largest number that may be written (day of week accepts 7 for Sunday).
        let largest: Int
        /// Names for values, lowercased: `jan` is 1, `sun` is 0.
        let names: [String: Int]
        /// Maps a written value onto the value it means (7 → 0 for Sunday).
        let normalize: @Sendable (Int) -> Int

        static let minute = Kind(name: "minute", range: 0...59, largest: 59, names: [:], normalize: { $0 })
        static let hour = Kind(name: "hour", range: 0...23, largest: 23, names: [:], normalize: { $0 })
        static let dayOfMonth = Kind(name: "day-of-month", range: 1...31, largest: 31, names: [:], normalize: { $0 })
        static let month = Kind(
            name: "month", range: 1...12, largest: 12,
            names: Dictionary(uniqueKeysWithValues: ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
                .enumerated().map { ($1, $0 + 1) }),
            normalize: { $0 }
        )
        static let dayOfWeek = Kind(
            name: "day-of-week", range: 0...6, largest: 7,
            names: Dictionary(uniqueKeysWithValues: ["sun", "mon", "tue", "wed", "thu", "fri", "sat"].enumerated().map { ($1, $0) }),
            normalize: { $0 % 7 }
        )
    }

    init(_ text: Substring, _ kind: Kind) throws(ScheduleError) {
        isRestricted = !text.hasPrefix("*")
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            try add(part, of: text, kind)
        }
    }

    private mutating func add(_ part: Substring, of text: Substring, _ kind: Kind) throws(ScheduleError) {
        func problem(_ reason: String) -> ScheduleError { ScheduleError("\(kind.name) field '\(text)': \(reason)") }
        guard !part.isEmpty else { throw problem("an empty item in the list") }
        let pieces = part.split(separator: "/", omittingEmptySubsequences: false)
        guard pieces.count <= 2 else { throw problem("'\(part)' has more than one '/'") }
        var step = 1
        if pieces.count == 2 {
            guard let parsed = Int(pieces[1]), parsed > 0, parsed <= kind.largest + 1 else {
                throw problem("the step after '/' in '\(part)' must be a number from 1 to \(kind.largest + 1)")
            }
            step = parsed
        }
        let low: Int, high: Int
        if pieces[0] == "*" {
            (low, high) = (kind.range.lowerBound, kind.range.upperBound)
        } else if let dash = pieces[0].firstIndex(of: "-") {
            low = try value(pieces[0][..<dash], kind, problem)
            high = try value(pieces[0][pieces[0].index(after: dash)...], kind, problem)
            guard low <= high else { throw problem("the range '\(pieces[0])' runs backwards; write the smaller value first") }
        } else {
            low = try value(pieces[0], kind, problem)
            // `a/n` means from `a` to the end of the field's usual range (`1/2` in day-of-week is 1,3,5).
            high = pieces.count == 2 ? max(low, kind.range.upperBound) : low
        }
        for written in stride(from: low, through: high, by: step) {
            bits |= 1 << UInt64(kind.normalize(written))
        }
    }

    private func value(
        _ text: Substring, _ kind: Kind, _ problem: (String) -> ScheduleError
    ) throws(ScheduleError) -> Int {
        if !text.isEmpty, text.allSatisfy(\.isASCIIDigit) {
            guard let number = Int(text), (kind.range.lowerBound...kind.largest).contains(number) else {
                throw problem("\(text.prefix(40)) is out of range; values are \(kind.range.lowerBound)–\(kind.largest)")
            }
            return number
        }
        if let named = kind.names[text.lowercased()] { return named }
        if text == "?" { throw problem("'?' is a Quartz extension that is not supported; write *") }
        if text.contains("#") { throw problem("'\(text)': the nth weekday of the month (#) is not supported") }
        if text == "L" || text == "W" || text.hasSuffix("L") || text.hasSuffix("W") {
            throw problem("'\(text)': L and W (last day, nearest weekday) are Quartz extensions that are not supported")
        }
        if text.isEmpty { throw problem("a range needs a value on each side of '-'") }
        let names = kind.names.isEmpty ? "" : " or a name such as \(kind.names.sorted { $0.value < $1.value }.prefix(2).map { $0.key.uppercased() }.joined(separator: ", "))"
        throw problem("'\(text.prefix(40))' is not a number\(names)")
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
