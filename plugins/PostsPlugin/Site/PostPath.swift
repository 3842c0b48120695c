import PluginAPI

/// Where a post lies in the folder, and what generators read from that: its folders, its file name's date prefix
/// and slug, and whether it is a page bundle (`post/index.md`) or a section page (`_index.md`).
struct PostPath {
    /// The path in the posts folder, as given: `news/_posts/2015-10-26-released.md`.
    var relativePath: String
    /// The folders above the file.
    var folders: [Substring]
    /// The file name without its extension: `2015-10-26-released`, `index`.
    var stem: Substring

    init(_ relativePath: String) {
        self.relativePath = relativePath
        var components = relativePath.split(separator: "/")
        let file = components.removeLast()
        folders = components
        stem = file.lastIndex(of: ".").map { file[..<$0] } ?? file
    }

    /// The index of the Jekyll folder (`_posts` or `_drafts`) among the folders, if the file is under one.
    var jekyllFolder: Int? { folders.lastIndex { $0 == "_posts" || $0 == "_drafts" } }

    /// The Jekyll collection the file belongs to (`_docs/install.md`: `docs`), and the path in it without extension.
    var jekyllCollection: (name: Substring, path: String)? {
        guard jekyllFolder == nil, let index = folders.lastIndex(where: { $0.hasPrefix("_") }) else { return nil }
        let inside = folders[(index + 1)...].map(String.init) + [String(stem)]
        return (folders[index].dropFirst(), inside.joined(separator: "/"))
    }

    /// Whether the file is a Jekyll draft (`_drafts/`), which Jekyll does not publish.
    var isJekyllDraft: Bool { jekyllFolder.map { folders[$0] == "_drafts" } ?? false }

    /// A page bundle's content file (`my-post/index.md`): the page takes the folder's name.
    var isBundle: Bool { stem == "index" && !folders.isEmpty }

    /// A section's own page (`posts/_index.md`): the page is the folder.
    var isSection: Bool { stem == "_index" }

    /// The name that gives the page its slug: the folder for a bundle, the file otherwise.
    var name: Substring { isBundle ? folders[folders.count - 1] : stem }

    /// The folders the page sits in: those above a bundle's folder or a file (all of them for a section).
    var sections: [Substring] { isBundle ? Array(folders.dropLast()) : folders }

    /// The date a name starts with, and the rest, as `flavor` reads it: Zola's `2015-10-26-released` or
    /// `2015-10-26_released`; Jekyll's also with one-digit months and days (`2017-2-5-released`), never `_`.
    func datePrefix(for flavor: SiteFlavor) -> (date: CivilDateTime, rest: Substring)? {
        Self.datePrefix(of: name, jekyll: flavor == .jekyll)
    }

    /// Jekyll's date prefix: a file under `_posts` without one is not a post.
    var jekyllDatePrefix: (date: CivilDateTime, rest: Substring)? { datePrefix(for: .jekyll) }

    static func datePrefix(of name: Substring, jekyll: Bool) -> (date: CivilDateTime, rest: Substring)? {
        let bytes = Array(name.utf8)
        var position = 0
        /// A run of 1 to `width` digits (exactly `width` unless `jekyll`), as a number.
        func number(width: Int) -> Int? {
            var end = position
            while end < bytes.count, end - position < width, (48...57).contains(bytes[end]) { end += 1 }
            guard end - position == width || jekyll && end > position, end < bytes.count, !(48...57).contains(bytes[end]) else { return nil }
            defer { position = end }
            return bytes[position..<end].reduce(0) { $0 * 10 + Int($1 - 48) }
        }
        func take(_ separators: String) -> Bool {
            guard position < bytes.count, separators.utf8.contains(bytes[position]) else { return false }
            position += 1
            return true
        }
        position = 0
        guard bytes.count > 4, bytes.prefix(4).allSatisfy({ (48...57).contains($0) }), let year = number(width: 4), take("-"),
            let month = number(width: 2), take("-"), let day = number(width: 2), take(jekyll ? "-" : "-_"), position < bytes.count,
            year >= 1, (1...12).contains(month), (1...CivilDateTime.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        return (CivilDateTime(year: year, month: month, day: day), name.dropFirst(position))
    }
}

