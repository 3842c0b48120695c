import Foundation
import PluginAPI
import Testing

@Suite("Strict ISO 8601 dates")
struct ISO8601Tests {
    @Test(arguments: [
        ("2027-01-31T10:00:00Z", 1_801_389_600.0),
        ("2027-01-31t10:00:00z", 1_801_389_600.0),
        ("2027-01-31T12:00:00+02:00", 1_801_389_600.0),
        ("2027-01-31T05:00:00-0500", 1_801_389_600.0),
        ("2027-01-31T10:00:00.125Z", 1_801_389_600.125),
        ("2027-01-31T10:00:00.123456Z", 1_801_389_600.123456),
        ("2028-02-29T00:00:00Z", 1_835_395_200.0),
        ("2000-02-29T00:00:00Z", 951_782_400.0),
    ])
    func realInstantsAreRead(text: String, seconds: Double) throws {
        let date = try ISO8601.parse(text)
        #expect(abs(date.timeIntervalSince1970 - seconds) < 1e-6, "\(text) read as \(date.timeIntervalSince1970)")
    }

    @Test(arguments: [
        ("2027-02-30T00:00:00Z", "is not a day of the calendar"),
        ("2027-02-29T00:00:00Z", "is not a day of the calendar"),
        ("1900-02-29T00:00:00Z", "is not a day of the calendar"),
        ("2027-13-01T00:00:00Z", "is not a day of the calendar"),
        ("2027-01-31T25:00:00Z", "is not a time of day"),
        ("2027-01-31T23:60:00Z", "is not a time of day"),
        ("2027-01-31T23:59:60Z", "is not a time of day"),
        ("2013-05-06garbage", "something other than a time"),
        ("2013-05-06T00:00:00Zgarbage", "goes on after its time zone"),
        ("2027-01-31T10:00:00", "has no time zone"),
        ("2027-01-31T10:00Z", "the time must be HH:MM:SS"),
        ("2027-01-31 10:00:00 +0200", "something other than a time"),
        ("2027-01-31", "a date without a time"),
        ("2027-01-31T10:00:00+25:00", "the zone must be"),
        ("2027-01-31T10:00:00.Z", "fraction of a second"),
        ("2027-01-31T10:00:00.1234567890Z", "fraction of a second"),
        ("tomorrow", "not a date"),
        ("", "not a date"),
        ("٢٠٢٧-01-31T10:00:00Z", "not a date"),
    ])
    func anythingElseIsRefusedWithAReason(text: String, reason: String) {
        do {
            let date = try ISO8601.parse(text)
            Issue.record("'\(text)' was read as \(date)")
        } catch {
            #expect(error.reason.contains(reason), "\(text): \(error.reason)")
        }
    }

    @Test func frontMatterFormsHonourTheirZone() throws {
        let forms: ISO8601.Forms = [.dateOnly, .spaces]
        #expect(try ISO8601.parse("2027-01-31 10:00:00 +0200", allowing: forms) == ISO8601.date(from: "2027-01-31T08:00:00Z"))
        #expect(try ISO8601.parse("2027-01-31 10:00:00Z", allowing: forms) == ISO8601.date(from: "2027-01-31T10:00:00Z"))
        #expect(try ISO8601.parse("2027-01-31", allowing: forms) == ISO8601.date(from: "2027-01-31T00:00:00Z"))
        #expect(throws: ISO8601.ParseError.self) { try ISO8601.parse("2027-01-31 10:00:00", allowing: forms) }
        #expect(throws: ISO8601.ParseError.self) { try ISO8601.parse("2027-02-30", allowing: forms) }
    }

    @Test func formattingRoundTrips() throws {
        for text in ["2027-01-31T10:00:00Z", "2027-01-31T10:00:00.250Z"] {
            #expect(ISO8601.string(from: try ISO8601.parse(text)) == text)
        }
    }
}
