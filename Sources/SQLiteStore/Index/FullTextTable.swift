import Indexing

/// The index's FTS5 table: `item_fts`, an external-content table over `item` indexing every searchable field.
///
/// It decides what matches when the search postings do not hold a search's commit (while the service builds them at
/// start, with `search.postings: off`, and for the fields `search.postings: best` leaves out); the postings answer
/// every other search. It records which rows and which columns hold a word, not where (`detail=column`): a search
/// asks only "which items, in row order" — it quotes each word alone and scores the candidates' text itself — and a
/// scan of the best fields or the names filters on the columns (``matchExpression(_:in:)``). Positions were written
/// and never read. The price: FTS5 refuses a quoted string it splits into several tokens (a phrase), so a search
/// term must be one token to the tokenizer (``SearchTerms``).
///
/// Prefixes of one to three letters have their own indexes; a longer prefix is read from the terms it starts, few
/// by then. Until `v14-one-full-text-table` the index kept three tables (every field, the best fields, the names),
/// each with prefix indexes of one to six letters and no columns: an import wrote about three times as much
/// (BENCHMARKS.md, 2026-11-28).
struct FullTextTable {
    let name: String
    let columns: [SearchColumn]
    /// What the table records besides each word's rows, and which prefixes have their own index.
    let options: String
    /// Removes one item's words (a row rewritten or deleted alone); bind the item's row id, then its stored text in
    /// ``columns`` order. Rows written are added by batch (``indexAllRowsStatement`` with a `WHERE` clause).
    let removeRowStatement: String

    /// ``columns`` as a statement lists them, and as it reads them from `item` (``SearchColumn/selected``).
    private let columnList: String
    private let selectedColumns: String

    init(name: String, columns: [SearchColumn], options: String) {
        self.name = name
        self.columns = columns
        self.options = options
        let columnList = columns.map(\.rawValue).joined(separator: ", ")
        self.columnList = columnList
        selectedColumns = columns.map(\.selected).joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        removeRowStatement = "INSERT INTO \(name)(\(name), rowid, \(columnList)) VALUES ('delete', ?, \(placeholders))"
    }

    /// The table: every searchable field.
    static let items = oneTable(columns: CandidateRanking.Scope.all.columns)

    /// The table indexing `columns`: what `v14-one-full-text-table` makes with the fields searched then
    /// (``columnsWithAuthorNames``), whatever ``SearchColumn`` holds later.
    static func oneTable(columns: [SearchColumn]) -> FullTextTable {
        FullTextTable(name: "item_fts", columns: columns, options: "prefix='1 2 3', detail=column")
    }

    /// The FTS5 `MATCH` expression of `terms` in the fields of `scope`.
    static func matchExpression(_ terms: SearchTerms, in scope: CandidateRanking.Scope) -> String? {
        guard let expression = terms.matchExpression else { return nil }
        guard scope != .all else { return expression }
        return "{\(scope.columns.map(\.rawValue).joined(separator: " "))} : (\(expression))"
    }

    /// Creates the table.
    var createStatement: String {
        """
        CREATE VIRTUAL TABLE \(name) USING fts5(
            \(columnList),
            content='item', content_rowid='id',
            tokenize="unicode61 remove_diacritics 2 separators '\(String(String.UnicodeScalarView(TextFolding.tokenizerSeparators)))'",
            \(options)
        )
        """
    }

    /// Indexes every `item` row (when the table is created), or those the appended `WHERE` clause selects.
    var indexAllRowsStatement: String {
        "INSERT INTO \(name)(rowid, \(columnList)) SELECT id, \(selectedColumns) FROM item"
    }

    /// Removes from the table the `item` rows that the appended `WHERE` clause selects, before they are deleted.
    var unindexRowsStatement: String {
        "INSERT INTO \(name)(\(name), rowid, \(columnList)) SELECT 'delete', id, \(selectedColumns) FROM item"
    }

    /// Empties the table.
    var unindexEverythingStatement: String {
        "INSERT INTO \(name)(\(name)) VALUES ('delete-all')"
    }
}

extension FullTextTable {
    /// The tables the migrations before `v14-one-full-text-table` made, as they made them: every field, the best
    /// fields, the names, recording rows only, with prefix indexes of one to six letters. `columns` are the fields they
    /// indexed at that point of the history (``SearchColumn`` may hold more later).
    static func beforeOneTable(columns: [SearchColumn]) -> [FullTextTable] {
        let options = "prefix='1 2 3 4 5 6', detail=none"
        return [
            FullTextTable(name: "item_fts", columns: columns, options: options),
            FullTextTable(name: "item_fts_best", columns: columns.filter { $0 != .contentDescription }, options: options),
            FullTextTable(name: "item_fts_names", columns: columns.filter { $0 == .title || $0 == .displayName }, options: options),
        ]
    }

    /// The fields the tables indexed before author names were: what the migrations before
    /// `v8-authors-dates-and-related-items` create.
    static let columnsBeforeAuthorNames: [SearchColumn] = [.title, .displayName, .keywords, .contentDescription]

    /// The fields `v8-authors-dates-and-related-items` made the tables index.
    static let columnsWithAuthorNames: [SearchColumn] = [.title, .displayName, .keywords, .authorNames, .contentDescription]
}
