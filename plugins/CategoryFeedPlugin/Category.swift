import Foundation

/// One category of the feed: `id`, `name`, `keywords` (a comma- or space-separated string, or an array),
/// `metaDescription`, `imageURL`. Unknown fields are ignored: feeds carry more than the index needs.
struct Category: Decodable {
    var id: String
    var name: String
    var keywords: [String]
    var metaDescription: String?
    var imageURL: String?

    enum CodingKeys: String, CodingKey {
        case id, name, keywords, metaDescription, imageURL
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let number = try? container.decode(Int.self, forKey: .id) {
            id = String(number)
        } else {
            id = try container.decode(String.self, forKey: .id)
        }
        guard !id.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .id, in: container, debugDescription: "id is empty")
        }
        name = try container.decode(String.self, forKey: .name)
        if let list = try? container.decode([String].self, forKey: .keywords) {
            keywords = list
        } else if let text = try container.decodeIfPresent(String.self, forKey: .keywords) {
            keywords = text.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
        } else {
            keywords = []
        }
        keywords = keywords.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        metaDescription = try container.decodeIfPresent(String.self, forKey: .metaDescription)
        imageURL = try container.decodeIfPresent(String.self, forKey: .imageURL)
    }
}

/// The feed: a JSON array of categories, or an object holding one under `categories`. A category that does
/// not decode is kept as its error, to be reported and skipped without failing the run.
struct CategoryFeed: Decodable {
    var entries: [Result<Category, any Error>]

    private struct Entry: Decodable {
        var result: Result<Category, any Error>
        init(from decoder: any Decoder) throws {
            result = Result { try Category(from: decoder) }
        }
    }

    private enum Keys: String, CodingKey { case categories }

    init(from decoder: any Decoder) throws {
        if let list = try? decoder.singleValueContainer().decode([Entry].self) {
            entries = list.map(\.result)
        } else {
            entries = try decoder.container(keyedBy: Keys.self).decode([Entry].self, forKey: .categories).map(\.result)
        }
    }
}
