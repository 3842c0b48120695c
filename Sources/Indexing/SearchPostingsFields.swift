/// Which fields' words the SQLite service keeps in memory as search postings (`search.postings`), so that a search's
/// scans read bitmaps instead of walking FTS5 doclists: about 0.25 KB an item for `all`, under 0.1 KB for `best`
/// (BENCHMARKS.md).
public enum SearchPostingsFields: String, Sendable, Hashable, CaseIterable {
    /// Every searchable field: every scan of a search reads them (the default).
    case all
    /// The title, display name, keywords and author names: the best-field and name scans read them, the all-fields
    /// scan walks FTS5.
    case best
    /// None: every scan walks FTS5.
    case off
}
