import Foundation
import ProcessSupport
import Testing

/// A word is one word whichever Unicode form spells it: items are written in the composed form (NFC), queries are
/// read in it, and the service's result cache tells two spellings apart by their bytes, as the index does.
@Suite("Unicode forms in search")
struct UnicodeFormTests {
    /// "한국" composed (two syllables) and decomposed (six jamo): canonically equivalent, different bytes.
    static let composed = "\u{D55C}\u{AD6D}"
    static let decomposed = "\u{1112}\u{1161}\u{11AB}\u{1100}\u{116E}\u{11A8}"

    @Test func aQueryFindsTheSameItemsInEitherFormAndTheCacheNeverAnswersOneFormForTheOther() async throws {
        #expect(Self.composed == Self.decomposed && Array(Self.composed.utf8) != Array(Self.decomposed.utf8), "the premise")
        let setup = try SourceWorkspace()
        // One item written composed, one decomposed.
        try setup.workspace.write("items.ndjson", """
            {"uniqueIdentifier":"seoul","domainIdentifier":"com.test.docs","title":"Doc Seoul \(Self.composed)"}
            {"uniqueIdentifier":"busan","domainIdentifier":"com.test.docs","title":"Doc Busan \(Self.decomposed)"}

            """)
        try setup.writeScript("#!/bin/sh\ncat items.ndjson\n")
        let service = try await RunningService(setup.config)
        #expect(try await eventually { try await service.searchTotal() == 2 })
        func total(_ query: String) async throws -> Int {
            let encoded = try #require(query.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            return try await service.json("/search?q=\(encoded)")["total"] as? Int ?? -1
        }
        // Each form asked three times in turn (a result is kept the second time it is computed).
        for round in 1...3 {
            #expect(try await total(Self.decomposed) == 2, "round \(round), decomposed")
            #expect(try await total(Self.composed) == 2, "round \(round), composed")
        }
        // The command line finds both too, and prints the titles composed.
        let search = try await setup.run(["search", Self.decomposed, "--json"])
        #expect(search.status == 0, "\(search.stderr)")
        // Compared as bytes: `String.contains` would take either form for the other.
        let printed = Data(search.stdout.utf8)
        #expect(printed.range(of: Data("Doc Busan \(Self.composed)".utf8)) != nil, "\(search.stdout)")
        #expect(printed.range(of: Data(Self.decomposed.utf8)) == nil, "\(search.stdout)")
        #expect(await service.terminate() == 0, "\(service.log)")
    }
}
