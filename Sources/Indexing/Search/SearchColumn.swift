/// The searchable text fields, in the order the SQLite index reads them, with their ranking weight.
package enum SearchColumn: String, CaseIterable {
    case title, displayName, keywords, authorNames, contentDescription

    /// How much a match in this field counts: title 20, display name 8, keywords and author names 4, description 1.
    var weight: Double {
        switch self {
        case .title: 20
        case .displayName: 8
        case .keywords, .authorNames: 4
        case .contentDescription: 1
        }
    }

    /// Where the column is among ``allCases``.
    package var position: Int {
        switch self {
        case .title: 0
        case .displayName: 1
        case .keywords: 2
        case .authorNames: 3
        case .contentDescription: 4
        }
    }
}
