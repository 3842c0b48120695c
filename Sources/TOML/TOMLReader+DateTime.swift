extension TOMLReader {
    /// Whether a date (`YYYY-`) starts where reading is.
    var atDate: Bool {
        Self.isDigit(byte(pos)) && Self.isDigit(byte(pos &+ 1)) && Self.isDigit(byte(pos &+ 2)) && Self.isDigit(byte(pos &+ 3))
            && byte(pos &+ 4) == UInt8(ascii: "-")
    }

    /// Whether a time (`HH:`) starts at `offset`.
    func atTime(_ offset: Int) -> Bool {
        Self.isDigit(byte(offset)) && Self.isDigit(byte(offset &+ 1)) && byte(offset &+ 2) == UInt8(ascii: ":")
    }

    /// Reads a local date, a local date-time or an offset date-time, from the year: checked to be a real date
    /// (days per month, leap years) and time of day, and returned as its canonical text.
    mutating func readDateOrDateTime() throws(TOMLError) -> TOMLValue {
        let year = try readDigits(4, what: "a date's year", example: "1979-05-27")
        try expect(UInt8(ascii: "-"), in: "a date", example: "1979-05-27")
        let monthOffset = pos
        let month = try readDigits(2, what: "a date's month", example: "1979-05-27")
        try expect(UInt8(ascii: "-"), in: "a date", example: "1979-05-27")
        let dayOffset = pos
        let day = try readDigits(2, what: "a date's day", example: "1979-05-27")
        guard (1...12).contains(month) else {
            throw failure("month \(month) does not exist; months run from 01 to 12", at: monthOffset)
        }
        guard day >= 1, day <= Self.days(inMonth: month, year: year) else {
            throw failure("day \(day) does not exist in \(Self.pad(year, 4))-\(Self.pad(month, 2)) (\(Self.days(inMonth: month, year: year)) days)", at: dayOffset)
        }
        let date = "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))"

        let delimiter = current
        let hasTime: Bool
        if delimiter == UInt8(ascii: "T") || delimiter == UInt8(ascii: "t") {
            hasTime = true
        } else if delimiter == UInt8(ascii: " "), atTime(pos &+ 1) {
            hasTime = true
        } else {
            hasTime = false
        }
        guard hasTime else {
            try checkDateTimeEnd()
            return .localDate(date)
        }
        pos &+= 1
        let time = try readPartialTime(example: "1979-05-27T07:32:00")
        let offset: String
        switch current {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            pos &+= 1
            offset = "Z"
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = current == UInt8(ascii: "+") ? "+" : "-"
            pos &+= 1
            let hourOffset = pos
            let hours = try readDigits(2, what: "an offset's hours", example: "+05:30")
            try expect(UInt8(ascii: ":"), in: "an offset", example: "+05:30")
            let minuteOffset = pos
            let minutes = try readDigits(2, what: "an offset's minutes", example: "+05:30")
            guard hours < 24 else { throw failure("an offset of \(hours) hours is out of range (00 to 23)", at: hourOffset) }
            guard minutes < 60 else { throw failure("an offset of \(minutes) minutes is out of range (00 to 59)", at: minuteOffset) }
            offset = "\(sign)\(Self.pad(hours, 2)):\(Self.pad(minutes, 2))"
        default:
            try checkDateTimeEnd()
            return .localDateTime("\(date)T\(time)")
        }
        try checkDateTimeEnd()
        return .offsetDateTime("\(date)T\(time)\(offset)")
    }

    /// Reads a local time, `HH:MM:SS[.fraction]`.
    mutating func readLocalTime() throws(TOMLError) -> TOMLValue {
        let time = try readPartialTime(example: "07:32:00")
        if current == UInt8(ascii: "Z") || current == UInt8(ascii: "z") || current == UInt8(ascii: "+") || current == UInt8(ascii: "-") {
            throw failure("a time of day alone takes no offset; write a full date-time such as 1979-05-27T07:32:00Z")
        }
        try checkDateTimeEnd()
        return .localTime(time)
    }

    /// Reads `HH:MM:SS[.fraction]` and returns it as written (seconds are required in TOML 1.0).
    private mutating func readPartialTime(example: String) throws(TOMLError) -> String {
        let hourOffset = pos
        let hour = try readDigits(2, what: "the hour", example: example)
        try expect(UInt8(ascii: ":"), in: "a time", example: example)
        let minuteOffset = pos
        let minute = try readDigits(2, what: "the minutes", example: example)
        guard current == UInt8(ascii: ":") else {
            throw failure("a time needs seconds in TOML 1.0: write \(Self.pad(hour, 2)):\(Self.pad(minute, 2)):00")
        }
        pos &+= 1
        let secondOffset = pos
        let second = try readDigits(2, what: "the seconds", example: example)
        guard hour < 24 else { throw failure("hour \(hour) is out of range (00 to 23)", at: hourOffset) }
        guard minute < 60 else { throw failure("minute \(minute) is out of range (00 to 59)", at: minuteOffset) }
        guard second <= 60 else { throw failure("second \(second) is out of range (00 to 59, 60 for a leap second)", at: secondOffset) }
        var time = "\(Self.pad(hour, 2)):\(Self.pad(minute, 2)):\(Self.pad(second, 2))"
        if current == UInt8(ascii: ".") {
            pos &+= 1
            let fractionStart = pos
            while Self.isDigit(current) { pos &+= 1 }
            guard pos > fractionStart else {
                throw failure("a fraction of a second needs digits after the '.', as in 07:32:00.5")
            }
            time += "." + String(decoding: bytes[fractionStart..<pos], as: UTF8.self)
        }
        return time
    }

    /// Reads exactly `count` digits as a number.
    private mutating func readDigits(_ count: Int, what: String, example: String) throws(TOMLError) -> Int {
        var value = 0
        for _ in 0..<count {
            guard Self.isDigit(current) else {
                throw failure("expected \(count) digits for \(what), found \(describe(at: pos)); write dates and times as \(example)")
            }
            value = value &* 10 &+ Int(current &- 0x30)
            pos &+= 1
        }
        return value
    }

    private mutating func expect(_ separator: UInt8, in what: String, example: String) throws(TOMLError) {
        guard current == separator else {
            throw failure("expected '\(Character(Unicode.Scalar(separator)))' in \(what), found \(describe(at: pos)); write it as \(example)")
        }
        pos &+= 1
    }

    /// Refuses a date or time that runs on into more letters or digits (`2020-01-01x`, `07:32:00.5.1`).
    private mutating func checkDateTimeEnd() throws(TOMLError) {
        guard Self.isNumberByte(current) || current == UInt8(ascii: ":") else { return }
        throw failure("unexpected \(describe(at: pos)) after the date or time; write dates as 1979-05-27, date-times as 1979-05-27T07:32:00Z or 1979-05-27 07:32:00, times as 07:32:00")
    }

    private static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `value` in decimal, zero-padded to `width`.
    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
