import Foundation
import Indexing
import Logging
import PluginAPI
import PostgresNIO

/// The words of an item's searchable fields, folded exactly as the search folds what a user types
/// (``SearchTerms``), stored as `tsvector`s through `array_to_tsvector` so PostgreSQL's own parser never
/// re-splits them: a prefix query (`'livr':*`) then matches what the SQLite index would.
struct ItemWords {
    /// Every field: title, display name, keywords, author names and description.
    var all: [String]
    /// Title, display name, keywords and author names.
    var best: [String]
    /// Title and display name.
    var names: [String]

    /// The words of an item's fields as stored (keywords and author names in their JSON form; `authorNames` `nil` for
    /// a row stored before items had them).
    init(title: String?, displayName: String?, keywords: String, authorNames: String?, contentDescription: String?) {
        names = Self.words(of: [title, displayName])
        best = Self.words(of: [title, displayName, keywords, authorNames], adding: names)
        all = Self.words(of: [contentDescription], adding: best)
    }

    /// The distinct folded words of `texts`, after those of `known`, each cut as a search term is.
    private static func words(of texts: [String?], adding known: [String] = []) -> [String] {
        var seen = Set(known)
        var words = known
        for case let text? in texts {
            TextFolding.forEachWord(in: text) { bytes in
                let word = SearchTerms.term(bytes)
                if seen.insert(word).inserted { words.append(word) }
                return true
            }
        }
        return words
    }

    /// The `tsquery` text of a match (a search's ``SearchTerms/match``, or clauses of it): a prefix as `'livr':*`, a
    /// whole word as `'delai'`: `'livr':* & ('delia':* | 'delai')`. The terms are folded words (letters, digits and marks
    /// only); quotes and backslashes are escaped all the same.
    static func matchQuery(_ match: WordMatch?) -> String {
        func quoted(_ word: String) -> String {
            "'" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
        }
        return match?.rendered(word: { quoted($0) + ($1 ? ":*" : "") }, and: " & ", or: " | ") ?? ""
    }

    /// Folds again the stored words of every item whose text holds a character past ASCII (ASCII folds as it always
    /// did), in pages of ``refoldPageSize`` in `id` order, on `connection` (the migrations' transaction).
    @Sendable static func refoldStoredWords(_ connection: PostgresConnection, logger: Logger) async throws {
        var after = Int64.min, refolded = 0
        while true {
            let rows = try await connection.checkedQuery(
                """
                SELECT id, title, display_name, keywords, content_description FROM item
                WHERE id > \(after) AND octet_length(concat(title, display_name, keywords, content_description))
                    <> char_length(concat(title, display_name, keywords, content_description))
                ORDER BY id LIMIT \(refoldPageSize)
                """,
                logger: logger
            )
            var page: [RefoldedRow] = []
            for try await (id, title, displayName, keywords, description) in rows.decode((Int64, String?, String?, String, String?).self) {
                page.append(RefoldedRow(id: id, words: ItemWords(title: title, displayName: displayName, keywords: keywords, authorNames: nil, contentDescription: description)))
            }
            guard let last = page.last else { break }
            let json = String(decoding: try JSONEncoder().encode(page), as: UTF8.self)
            try await connection.checkedQuery(
                """
                UPDATE item SET words_all = array_to_tsvector(r.words_all), words_best = array_to_tsvector(r.words_best),
                    words_names = array_to_tsvector(r.words_names)
                FROM jsonb_to_recordset(\(json)::jsonb) AS r(id bigint, words_all text[], words_best text[], words_names text[])
                WHERE item.id = r.id
                """,
                logger: logger
            )
            refolded += page.count
            after = last.id
        }
        logger.info("folded the words of \(refolded) items again")
    }

    /// Items read and written at once by ``refoldStoredWords(_:logger:)``.
    static let refoldPageSize = 1_000

    /// An item's words as the rewrite sends them, under the names its `jsonb_to_recordset` reads.
    private struct RefoldedRow: Encodable {
        var id: Int64
        var wordsAll: [String], wordsBest: [String], wordsNames: [String]

        enum CodingKeys: String, CodingKey {
            case id, wordsAll = "words_all", wordsBest = "words_best", wordsNames = "words_names"
        }

        init(id: Int64, words: ItemWords) {
            self.id = id
            (wordsAll, wordsBest, wordsNames) = (words.all, words.best, words.names)
        }
    }
}
