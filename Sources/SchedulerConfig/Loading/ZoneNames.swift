import Foundation

/// The time zone names a configuration may use: every zone and link of the system's zone database
/// (`$TZDIR` or `/usr/share/zoneinfo`, read from its `tzdata.zi`), and ICU's list, which Foundation knows without
/// the system's files (a container without tzdata).
///
/// ICU's list alone misses 155 of the 598 names Debian's tzdata holds (`Asia/Kolkata`, `Etc/UTC`, `US/Eastern`,
/// `CET`, `EST5EDT`…), although Foundation reads every one of them; Foundation alone would also accept made-up
/// offsets such as `GMT+5`, whose sign means the opposite in POSIX, so a name must be listed by one of the two.
enum ZoneNames {
    static let known: Set<String> = Set(TimeZone.knownTimeZoneIdentifiers).union(systemNames())

    /// Whether `name` is a listed zone Foundation can read.
    static func isKnown(_ name: String) -> Bool {
        known.contains(name) && TimeZone(identifier: name) != nil
    }

    /// The zones (`Z name …`) and links (`L target name`) of the system's `tzdata.zi`; none when it cannot be read.
    static func systemNames(folder: String = ProcessInfo.processInfo.environment["TZDIR"] ?? "/usr/share/zoneinfo") -> Set<String> {
        guard let text = try? String(contentsOfFile: folder + "/tzdata.zi", encoding: .utf8) else { return [] }
        var names: Set<String> = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            switch fields.first {
            case "Z" where fields.count > 1: names.insert(String(fields[1]))
            case "L" where fields.count > 2: names.insert(String(fields[2]))
            default: break
            }
        }
        return names
    }
}
