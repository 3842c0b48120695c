import Foundation
import PluginAPI

/// A Hugo permalink pattern of a site's `permalinks` (`posts: /:year/:month/:day/:filename/`): a path with
/// `:tokens` Hugo replaces for each page of the section.
struct HugoPermalink: Sendable, Hashable {
    static let tokens: Set<String> = [
        "year", "month", "monthname", "day", "weekday", "weekdayname", "yearday", "section", "sections", "title", "slug", "filename",
        "contentbasename", "slugorfilename", "slugorcontentbasename",
    ]

    let pattern: String

    /// The pattern, or the first token Hugo does not know (`:sections[1:]`, whose slices are not read, among them).
    static func validating(_ pattern: String) -> Result<HugoPermalink, Unknown> {
        var rest = Substring(pattern)
        while let colon = rest.firstIndex(of: ":") {
            let name = rest[rest.index(after: colon)...].prefix { $0.isLetter }
            let after = rest[rest.index(after: colon)...].dropFirst(name.count)
            guard tokens.contains(String(name)), after.first != "[" else { return .failure(Unknown(token: String(name))) }
            rest = after
        }
        return .success(HugoPermalink(pattern: pattern.hasPrefix("/") ? pattern : "/" + pattern))
    }

    /// A token Hugo's permalinks do not have, or one written with a slice.
    struct Unknown: Error {
        var token: String
    }

    /// The path with each token replaced by its value; empty parts collapse.
    func path(with values: [String: String]) -> String {
        var result = ""
        var rest = Substring(pattern)
        while let colon = rest.firstIndex(of: ":") {
            result += rest[..<colon]
            let name = rest[rest.index(after: colon)...].prefix { $0.isLetter }
            result += values[String(name)] ?? ""
            rest = rest[rest.index(after: colon)...].dropFirst(name.count)
        }
        result += rest
        return Permalink.collapsingSlashes(result)
    }

    /// The values of the tokens for a page: its date (in `zone`), sections, title, slug and file name.
    static func values(date: Date?, zone: TimeZone, sections: [String], title: String, slug: String?, filename: String) -> [String: String] {
        var values = [
            "section": sections.first ?? "", "sections": sections.joined(separator: "/"), "title": Slug.hugo(title[...]),
            "slug": slug ?? Slug.hugo(title[...]), "filename": filename, "contentbasename": filename,
            "slugorfilename": slug ?? filename, "slugorcontentbasename": slug ?? filename,
        ]
        if let date {
            let civil = zone.civilTime(at: date)
            values["year"] = String(format: "%04d", civil.year)
            values["month"] = String(format: "%02d", civil.month)
            values["monthname"] = monthNames[civil.month - 1]
            values["day"] = String(format: "%02d", civil.day)
            values["weekday"] = String(civil.weekday)
            values["weekdayname"] = weekdayNames[civil.weekday]
            values["yearday"] = String(civil.dayOfYear)
        }
        return values
    }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
    static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
}
