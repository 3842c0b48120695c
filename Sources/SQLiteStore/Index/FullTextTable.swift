import Indexing

/// An FTS5 table as the migrations made one: until `v22-no-full-text-table` the index kept its words in FTS5 as well
/// as in the search postings (``SearchPostings``), which answer every search since. What the migrations before it make
/// and fill is kept here, so that a file any release wrote upgrades through the same steps; a new file makes them too,
/// then drops them.
struct FullTextTable {
    let name: String
    let columns: [SearchColumn]
    /// What the table records besides each word's rows, and which prefixes have their own index.
    let options: String

    /// ``columns`` as a statement lists them, and as it reads them from `item` (``SearchColumn/selected``).
    private var columnList: String { columns.map(\.rawValue).joined(separator: ", ") }
    private var selectedColumns: String { columns.map(\.selected).joined(separator: ", ") }

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

    /// Indexes every `item` row.
    var indexAllRowsStatement: String {
        "INSERT INTO \(name)(rowid, \(columnList)) SELECT id, \(selectedColumns) FROM item"
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
