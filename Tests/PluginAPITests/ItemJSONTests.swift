import Foundation
import PluginAPI
import Testing

@Suite("The item's JSON form")
struct ItemJSONTests {
    let decoder = NDJSONItemDecoder()

    func decode(_ json: String) throws(ItemValidationError) -> SearchableItem? {
        try decoder.decode(Array(json.utf8))
    }

    func rejection(_ json: String) -> ItemValidationError? {
        do {
            _ = try decode(json)
            return nil
        } catch {
            return error
        }
    }

    @Test func aFullItemDecodesAndRoundTrips() throws {
        let json = """
            {"uniqueIdentifier":"cat-42","domainIdentifier":"com.shop.categories.fr","contentType":"public.content",
             "title":"Fromages","displayName":"Cheeses","contentDescription":"All our cheeses","keywords":["brie","comté"],
             "thumbnailURL":"https://cdn.example.com/42.jpg","thumbnailData":"iVBORw0KGgo=","contentURL":"shop://category/42",
             "rankingHint":70,"expirationDate":"2027-01-31T12:00:00Z","authorNames":["Ana","Bo"],
             "contentCreationDate":"2026-01-02T03:04:05+01:00","contentModificationDate":"2026-02-01T00:00:00Z",
             "relatedUniqueIdentifier":"cat-4"}
            """
        let item = try #require(try decode(json))
        #expect(item.uniqueIdentifier == "cat-42")
        #expect(item.domainIdentifier == "com.shop.categories.fr")
        #expect(item.contentType == "public.content")
        #expect(item.keywords == ["brie", "comté"])
        #expect(item.thumbnailData == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(item.rankingHint == 70)
        #expect(item.expirationDate == ISO8601.date(from: "2027-01-31T12:00:00Z"))
        #expect(item.authorNames == ["Ana", "Bo"])
        #expect(item.relatedUniqueIdentifier == "cat-4")
        #expect(item.contentCreationDate == ISO8601.date(from: "2026-01-02T02:04:05Z"))
        #expect(item.contentModificationDate == ISO8601.date(from: "2026-02-01T00:00:00Z"))

        let encoded = try JSONEncoder().encode(item)
        #expect(try JSONDecoder().decode(SearchableItem.self, from: encoded) == item)
    }

    @Test func defaultsApplyToAMinimalItem() throws {
        let item = try #require(try decode(#"{"uniqueIdentifier":"a","domainIdentifier":"com.a"}"#))
        #expect(item.contentType == "public.item")
        #expect(item.keywords.isEmpty)
        #expect(item.expirationDate == nil)
    }

    @Test func fractionalSecondsAreAccepted() throws {
        let item = try decode(#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","expirationDate":"2027-01-31T12:00:00.250+02:00"}"#)
        let whole = try #require(ISO8601.date(from: "2027-01-31T10:00:00Z"))
        #expect(item?.expirationDate == whole.addingTimeInterval(0.25))
    }

    @Test func nullMeansAbsent() throws {
        let item = try decode(#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","title":null,"keywords":null}"#)
        #expect(item?.title == nil)
        #expect(item?.keywords == [])
    }

    @Test func blankLinesAreSkipped() throws {
        #expect(try decode("   \t") == nil)
        #expect(try decode("") == nil)
    }

    static let rejections: [(json: String, field: String, reason: String)] = [
        (#"{"domainIdentifier":"com.a"}"#, "uniqueIdentifier", "is required"),
        (#"{"uniqueIdentifier":"a"}"#, "domainIdentifier", "is required"),
        (#"{"uniqueIdentifier":"","domainIdentifier":"com.a"}"#, "uniqueIdentifier", "must not be empty"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":"com..a"}"#, "domainIdentifier", "is not a domain identifier"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":".com"}"#, "domainIdentifier", "is not a domain identifier"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":"com a"}"#, "domainIdentifier", "is not a domain identifier"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","rankingHint":101}"#, "rankingHint", "between 0 and 100"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","rankingHint":-1}"#, "rankingHint", "between 0 and 100"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","rankingHint":1.5}"#, "rankingHint", "an integer"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","titel":"x"}"#, "titel", "did you mean 'title'?"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","keywords":"one,two"}"#, "keywords", "an array of strings"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","keywords":[1]}"#, "keywords", "an array of strings"),
        (#"{"uniqueIdentifier":7,"domainIdentifier":"com.a"}"#, "uniqueIdentifier", "a string"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","thumbnailData":"%%%"}"#, "thumbnailData", "base64"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","expirationDate":"next week"}"#, "expirationDate", "ISO 8601"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","contentURL":"not a url"}"#, "contentURL", "absolute URL"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","thumbnailURL":"/relative.png"}"#, "thumbnailURL", "absolute URL"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","contentType":""}"#, "contentType", "must not be empty"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","authorNames":"Ana"}"#, "authorNames", "an array of strings"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","authorNames":[null]}"#, "authorNames", "an array of strings"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","authorNames":[""]}"#, "authorNames", "must not be empty"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","authorNames":["A\u0000B"]}"#, "authorNames", "NUL"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","contentCreationDate":"2026-01-02"}"#, "contentCreationDate", "ISO 8601"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","contentCreationDate":"2026-02-30T00:00:00Z"}"#, "contentCreationDate", "ISO 8601"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","contentModificationDate":"2026-01-02T10:00:00"}"#, "contentModificationDate", "ISO 8601"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","contentModificationDate":1767225600}"#, "contentModificationDate", "a string"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","authorName":["Ana"]}"#, "authorName", "did you mean 'authorNames'?"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","relatedUniqueIdentifier":""}"#, "relatedUniqueIdentifier", "must not be empty"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","relatedUniqueIdentifier":7}"#, "relatedUniqueIdentifier", "a string"),
        ("not json", "", "not valid JSON"),
        ("[1,2]", "", "expected a JSON object"),
        (#"{"uniqueIdentifier":"a","domainIdentifier":"com.a""#, "", "not valid JSON"),
    ]

    @Test(arguments: rejections)
    func invalidItemsAreRejectedNamingTheField(json: String, field: String, reason: String) {
        let error = rejection(json)
        #expect(error?.field == field)
        #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
    }

    @Test func anOversizedThumbnailIsRejected() {
        let big = Data(repeating: 7, count: ItemLimits.standard.maxThumbnailBytes + 1).base64EncodedString()
        let error = rejection(#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","thumbnailData":"\#(big)"}"#)
        #expect(error?.field == "thumbnailData")
        #expect(error?.reason.contains("over the limit") == true)
    }

    @Test func overlongTextAndTooManyKeywordsAreRejected() {
        let longTitle = String(repeating: "t", count: ItemLimits.standard.maxShortTextBytes + 1)
        #expect(rejection(#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","title":"\#(longTitle)"}"#)?.field == "title")
        let keywords = (0...ItemLimits.standard.maxKeywords).map { "\"k\($0)\"" }.joined(separator: ",")
        #expect(rejection(#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","keywords":[\#(keywords)]}"#)?.field == "keywords")
        let authors = (0...ItemLimits.standard.maxAuthorNames).map { "\"a\($0)\"" }.joined(separator: ",")
        #expect(rejection(#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","authorNames":[\#(authors)]}"#)?.reason.contains("more than 20 names") == true)
        let longName = String(repeating: "é", count: ItemLimits.standard.maxAuthorNameBytes / 2 + 1)
        #expect(rejection(#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","authorNames":["\#(longName)"]}"#)?.reason.contains("longer than 256 bytes") == true)
        let longRelated = String(repeating: "r", count: ItemLimits.standard.maxIdentifierBytes + 1)
        #expect(rejection(#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","relatedUniqueIdentifier":"\#(longRelated)"}"#)?.field == "relatedUniqueIdentifier")
        let atTheLimit = String(repeating: "é", count: ItemLimits.standard.maxAuthorNameBytes / 2)
        #expect(rejection(#"{"uniqueIdentifier":"a","domainIdentifier":"com.a","authorNames":["\#(atTheLimit)"]}"#) == nil)
    }

    @Test func anInstantThatIsNotFiniteIsRefusedByTheSwiftAPI() {
        var item = SearchableItem(uniqueIdentifier: "a", domainIdentifier: "com.a")
        item.contentCreationDate = Date(timeIntervalSince1970: .nan)
        #expect(throws: ItemValidationError(field: "contentCreationDate", reason: "is not a finite instant")) { try item.validate() }
    }
}
