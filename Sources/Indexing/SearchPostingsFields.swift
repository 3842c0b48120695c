/// Which fields' words the SQLite service keeps as search postings (`search.postings`), so that a search's scans read
/// bitmaps: a scope whose words are not kept is searched by reading every row the search may return and checking its
/// text, right and slow (a word few items hold reads them all: BENCHMARKS.md), which suits small indexes only.
public enum SearchPostingsFields: String, Sendable, Hashable, CaseIterable {
    /// Every searchable field: every scan of a search reads them (the default).
    case all
    /// The title, display name, keywords and author names: the best-field and name scans read them, the all-fields
    /// scan reads every row.
    case best
    /// None: every scan reads every row.
    case off
}
