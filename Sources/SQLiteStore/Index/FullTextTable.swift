import Indexing
/// One of the index's FTS5 tables, each an external-content table over `item` indexing some of its fields.
///
/// ``all`` indexes every searchable field and decides what matches; ``bestFields`` and ``names`` index fewer
/// fields so that a search can take the first matches in the best fields from short doclists, instead of
/// filtering the matches of ``all`` by column (which walks every match when the best fields hold few).
///
/// The tables record which rows hold a word and nothing else (`detail=none`): a search asks only "which items,
/// in row order" — it quotes each word alone and scores the candidates' text itself — so the columns and
/// positions FTS5 records by default were written and never read. Without them an import writes half as
/// much and the file is less than half the size (BENCHMARKS.md). The price: FTS5 refuses a quoted string it
/// splits into several tokens (a phrase), so a search term must be one token to the tokenizer (``SearchTerms``).
struct FullTextTable {
    let name: String
    let columns: [SearchColumn]

    /// Every searchable field: the table that decides what matches and counts the matches.
    static let all = FullTextTable(name: "item_fts", columns: CandidateRanking.Scope.all.columns)
    /// The title, display name and keywords.
    static let bestFields = FullTextTable(name: "item_fts_best", columns: CandidateRanking.Scope.bestFields.columns)
    /// The title and display name: what the item is called.
    static let names = FullTextTable(name: "item_fts_names", columns: CandidateRanking.Scope.names.columns)

    /// The table a search scans for `scope`.
    static func scanning(_ scope: CandidateRanking.Scope) -> FullTextTable {
        switch scope {
        case .all: all
        case .bestFields: bestFields
        case .names: names
        }
    }

    /// Every table, each kept in step with `item` inside the transaction that writes it.
    static let tables = [all, bestFields, names]

    /// The fields the tables indexed before author names were: what the migrations before
    /// `v8-authors-dates-and-related-items` create, whatever ``SearchColumn`` holds now.
    static let columnsBeforeAuthorNames: [SearchColumn] = [.title, .displayName, .keywords, .contentDescription]

    /// The fields `v8-authors-dates-and-related-items` made the tables index, whatever ``SearchColumn`` holds later.
    static let columnsWithAuthorNames: [SearchColumn] = [.title, .displayName, .keywords, .authorNames, .contentDescription]

    /// This table as it was when it indexed only `columns` of its fields.
    func restricted(to columns: [SearchColumn]) -> FullTextTable {
        FullTextTable(name: name, columns: self.columns.filter(columns.contains))
    }

    private var columnList: String { columns.map(\.rawValue).joined(separator: ", ") }

    /// Creates the table.
    var createStatement: String {
        """
        CREATE VIRTUAL TABLE \(name) USING fts5(
            \(columnList),
            content='item', content_rowid='id',
            tokenize="unicode61 remove_diacritics 2 separators '\(String(String.UnicodeScalarView(TextFolding.tokenizerSeparators)))'",
            prefix='1 2 3 4 5 6',
            detail=none
        )
        """
    }

    /// What a single-row statement does to one item's words.
    enum RowChange {
        case add, remove
    }

    /// Adds or removes one item's words; bind the item's row id, then its text in ``columns`` order.
    ///
    /// `VALUES` on purpose: one `INSERT … SELECT` per item into an FTS5 table costs about four times as much
    /// as this (measured; SQLite prepares a multi-row insert into a virtual table with more machinery), which
    /// made imports three times slower.
    func statement(_ change: RowChange) -> String {
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        return switch change {
        case .add: "INSERT INTO \(name)(rowid, \(columnList)) VALUES (?, \(placeholders))"
        case .remove: "INSERT INTO \(name)(\(name), rowid, \(columnList)) VALUES ('delete', ?, \(placeholders))"
        }
    }

    /// Indexes every `item` row (when the table is created).
    var indexAllRowsStatement: String {
        "INSERT INTO \(name)(rowid, \(columnList)) SELECT id, \(columnList) FROM item"
    }

    /// Removes from the table the `item` rows that the appended `WHERE` clause selects, before they are deleted.
    var unindexRowsStatement: String {
        "INSERT INTO \(name)(\(name), rowid, \(columnList)) SELECT 'delete', id, \(columnList) FROM item"
    }

    /// Empties the table.
    var unindexEverythingStatement: String {
        "INSERT INTO \(name)(\(name)) VALUES ('delete-all')"
    }
}
