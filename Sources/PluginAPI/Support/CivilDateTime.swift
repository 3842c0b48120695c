/// A date and time as a clock on the wall shows it, in no particular zone: what schedules and dates are written in.
///
/// Calendar arithmetic is integer arithmetic on the proleptic Gregorian calendar (days counted from
/// 1970-01-01), so it is exact, fast and independent of Foundation's calendar rules.
public struct CivilDateTime: Sendable, Hashable, Comparable {
    public var year: Int
    /// 1–12.
    public var month: Int
    /// 1–31.
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The civil time `seconds` after 1970-01-01T00:00:00 (negative before it).
    public init(secondsSinceEpoch seconds: Int) {
        let days = seconds.floorDivided(by: 86_400)
        let secondOfDay = seconds - days * 86_400
        let date = Self.date(fromDays: days)
        self.init(year: date.year, month: date.month, day: date.day,
                  hour: secondOfDay / 3600, minute: secondOfDay % 3600 / 60, second: secondOfDay % 60)
    }

    /// Seconds since 1970-01-01T00:00:00 of this civil time, read as if it were UTC.
    public var secondsSinceEpoch: Int { daysSinceEpoch * 86_400 + hour * 3600 + minute * 60 + second }

    /// Days since 1970-01-01 of this date.
    public var daysSinceEpoch: Int { Self.days(year: year, month: month, day: day) }

    /// 0 for Sunday through 6 for Saturday, as cron counts.
    public var weekday: Int { (daysSinceEpoch + 4).floorModulo(7) }

    /// The day of the year, 1 for January 1.
    public var dayOfYear: Int { daysSinceEpoch - Self.days(year: year, month: 1, day: 1) + 1 }

    /// This time on the same day `months` calendar months later, the day clamped to that month's last day
    /// (January 31 plus one month is February 28 or 29).
    public func addingMonths(_ months: Int) -> CivilDateTime {
        let index = year * 12 + (month - 1) + months
        var result = self
        result.year = index.floorDivided(by: 12)
        result.month = index - result.year * 12 + 1
        result.day = min(day, Self.daysIn(month: result.month, year: result.year))
        return result
    }

    /// This time of day, `days` days later.
    public func addingDays(_ days: Int) -> CivilDateTime {
        let date = Self.date(fromDays: daysSinceEpoch + days)
        var result = self
        (result.year, result.month, result.day) = (date.year, date.month, date.day)
        return result
    }

    public static func < (lhs: CivilDateTime, rhs: CivilDateTime) -> Bool { lhs.secondsSinceEpoch < rhs.secondsSinceEpoch }

    public static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a Gregorian date (Howard Hinnant's `days_from_civil`).
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = y.floorDivided(by: 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    public static func date(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = shifted.floorDivided(by: 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int {
    /// Division rounding towards negative infinity.
    public func floorDivided(by divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    /// The remainder of `floorDivided(by:)`: always in `0..<divisor` for a positive divisor.
    public func floorModulo(_ divisor: Int) -> Int { self - floorDivided(by: divisor) * divisor }
}
