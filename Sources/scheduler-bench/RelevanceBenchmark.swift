import Foundation
import Indexing
import Logging
import PluginAPI
import SQLiteStore

/// How often the page a user means comes first: the titles of real sites' posts (folders of Markdown files whose
/// front matter has a `title:`) in one index, and known-item queries typed as people type them — the title's most
/// distinctive word (the rarest among the titles) and the next one cut to a prefix, or a version number or code
/// typed whole (`3.4.0`, `CVE-2024-39908`) — then the same with two neighbouring letters swapped in the longest word (past its first letter).
/// Prints the mean reciprocal rank (top 20) and how often the meant page is first or in the top 10.
enum RelevanceBenchmark {
    struct Post {
        var id: String
        var title: String
    }

    static func run(folders: [String], work: String) async throws {
        let posts = try folders.flatMap(Self.posts)
        guard !posts.isEmpty else { throw BenchmarkError("no titles found in \(folders)") }
        let path = (work as NSString).appendingPathComponent("relevance-\(UUID().uuidString).sqlite")
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let index = try SQLiteSearchIndex(path: path, searchCacheEntries: 0, logger: Logger(label: "bench"))
        for start in stride(from: 0, to: posts.count, by: 500) {
            try await index.commit(IndexBatch(operations: [.upsert(posts[start..<min(start + 500, posts.count)].map {
                SearchableItem(uniqueIdentifier: $0.id, domainIdentifier: "org.sites", title: $0.title)
            })]))
        }
        // A title held twice cannot be told apart by any query: left out.
        var titleCounts: [String: Int] = [:]
        for post in posts { titleCounts[post.title.lowercased(), default: 0] += 1 }
        var frequency: [String: Int] = [:]
        for post in posts { for word in Set(SearchTerms(post.title).words) { frequency[word, default: 0] += 1 } }

        var typed: [(query: String, meant: String)] = [], misspelt: [(query: String, meant: String)] = []
        for post in posts where titleCounts[post.title.lowercased()] == 1 {
            guard let query = knownItemQuery(post.title, frequency: frequency) else { continue }
            typed.append((query, post.id))
            if let typo = swappingLetters(in: query) { misspelt.append((typo, post.id)) }
        }
        func ranks(_ queries: [(query: String, meant: String)], typos: TypoTolerance = .standard) async throws -> [Int?] {
            var ranks: [Int?] = []
            for (query, meant) in queries {
                let hits = try await index.search(SearchQuery(text: query, limit: 20, typos: typos)).hits.map(\.uniqueIdentifier)
                ranks.append(hits.firstIndex(of: meant).map { $0 + 1 })
            }
            return ranks
        }
        let typedRanks = try await ranks(typed), misspeltRanks = try await ranks(misspelt)
        print("relevance, \(posts.count) titles of \(folders.count) sites in one index:")
        print("  \(typed.count) known-item queries as typed: \(summary(typedRanks))")
        print("  \(misspelt.count) of them with two letters swapped: \(summary(misspeltRanks))")
        print("  without typo tolerance (search.typos: false): as typed \(summary(try await ranks(typed, typos: .off))); swapped \(summary(try await ranks(misspelt, typos: .off)))")
        if ProcessInfo.processInfo.environment["BENCH_MISSES"] != nil {
            for ((query, meant), rank) in zip(typed + misspelt, typedRanks + misspeltRanks) where rank != 1 {
                print("  \(rank.map(String.init) ?? "-")\t\(query)\t\(posts.first { $0.id == meant }?.title ?? "")")
            }
        }
    }

    /// The mean reciprocal rank of `ranks` (`nil` for a page not in the top 20), how often it is first, and in the top 10.
    static func summary(_ ranks: [Int?]) -> String {
        let reciprocal = ranks.map { $0.map { 1 / Double($0) } ?? 0 }.reduce(0, +) / Double(max(ranks.count, 1))
        let first = ranks.count { $0 == 1 }, topTen = ranks.count { ($0 ?? 99) <= 10 }
        return String(format: "mean reciprocal rank %.3f, first %d %%, top 10 %d %%", reciprocal,
            first * 100 / max(ranks.count, 1), topTen * 100 / max(ranks.count, 1))
    }

    /// The posts of `folder` (and its subfolders): Markdown files whose front matter has a `title:`.
    static func posts(in folder: String) throws -> [Post] {
        guard let files = FileManager.default.enumerator(atPath: folder) else { throw BenchmarkError("cannot read \(folder)") }
        var posts: [Post] = []
        for case let file as String in files where file.hasSuffix(".md") || file.hasSuffix(".markdown") {
            let path = (folder as NSString).appendingPathComponent(file)
            guard let text = try? String(contentsOfFile: path, encoding: .utf8), let title = frontMatterTitle(text) else { continue }
            posts.append(Post(id: path, title: title))
        }
        return posts
    }

    /// The `title:` of a front matter, its quotes removed (YAML's `''` and `\"` escapes undone).
    static func frontMatterTitle(_ text: String) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first?.trimmingCharacters(in: .whitespaces) == "---" else { return nil }
        for line in lines.dropFirst() {
            if line.trimmingCharacters(in: .whitespaces) == "---" { return nil }
            guard line.hasPrefix("title:") else { continue }
            var value = line.dropFirst(6).trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("'"), value.hasSuffix("'") {
                value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
            } else if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
            }
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// A title's rarest word, typed whole, then its next rarest cut to about two thirds (at least 3 letters); a title
    /// holding a version number or code (`3.4.0`, `2.6.0-preview3`, `CVE-2024-39908`: words joined without spaces,
    /// one of them a number) gets its rarest other word and that code, typed whole.
    static func knownItemQuery(_ title: String, frequency: [String: Int]) -> String? {
        let code = title.split(whereSeparator: \.isWhitespace).first { chunk in
            SearchTerms(String(chunk)).sequences.first?.contains { $0.allSatisfy(\.isNumber) } == true
        }.map { $0.trimmingCharacters(in: .punctuationCharacters) }
        let inCode = Set(code.map { SearchTerms($0).words } ?? [])
        let words = SearchTerms(title).words.filter { !$0.allSatisfy(\.isNumber) && !inCode.contains($0) }
            .sorted { (frequency[$0] ?? 0, -$0.count, $0) < (frequency[$1] ?? 0, -$1.count, $1) }
        if let code { return (words.first.map { $0 + " " } ?? "") + code }
        guard let rarest = words.first else { return nil }
        guard let next = words.dropFirst().first else { return rarest }
        let letters = Array(next)
        return rarest + " " + String(letters.prefix(max(3, (letters.count * 2 + 2) / 3)))
    }

    /// `query` with two neighbouring letters of its longest word of 5 or more letters swapped (past its first
    /// letter, where swapping changes it), or `nil` when it has none.
    static func swappingLetters(in query: String) -> String? {
        var words = query.split(separator: " ").map { Array($0) }
        guard let longest = words.indices.filter({ words[$0].count >= 5 && words[$0].allSatisfy(\.isLetter) }).max(by: { words[$0].count < words[$1].count })
        else { return nil }
        let word = words[longest]
        guard let position = (1..<(word.count - 1)).first(where: { word[$0] != word[$0 + 1] }) else { return nil }
        // The middle of the word rather than its start: where typos fall.
        let middle = (position..<(word.count - 1)).filter { word[$0] != word[$0 + 1] }
        words[longest].swapAt(middle[middle.count / 2], middle[middle.count / 2] + 1)
        return words.map { String($0) }.joined(separator: " ")
    }
}
