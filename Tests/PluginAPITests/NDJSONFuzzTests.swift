import Foundation
import FuzzSupport
import PluginAPI
import Testing

/// Mutated item lines: each decodes to a valid item, or is refused naming a field; never a crash.
@Suite("Fuzzing the item decoder")
struct NDJSONFuzzTests {
    static let lines = [
        #"{"uniqueIdentifier":"a1","domainIdentifier":"com.shop.fr","title":"Délais de livraison","keywords":["livraison","délai"],"rankingHint":40,"expirationDate":"2027-01-31T10:00:00Z","contentURL":"shop://help/a1"}"#,
        #"{"uniqueIdentifier":"b2","domainIdentifier":"com.shop","contentDescription":"Soft and hard.","thumbnailData":"iVBORw0KGgo=","displayName":null}"#,
        #"{"uniqueIdentifier":"c3","domainIdentifier":"io.etcd.docs","title":"Disaster recovery","version":"v3.6","isCurrentVersion":false,"access":["staff"]}"#,
    ]

    @Test(arguments: [UInt64(21), 22])
    func mutatedLinesDecodeToValidItemsOrAreRefused(seed: UInt64) {
        var mutator = Mutator(seed: seed)
        let decoder = NDJSONItemDecoder()
        var decoded = 0, refused = 0
        for index in 0..<3000 {
            let line = mutator.mutate(Self.lines[index % Self.lines.count], maxMutations: 3)
            do {
                if let item = try decoder.decode(Array(line.utf8)) {
                    decoded += 1
                    #expect((try? item.validate()) != nil, "a decoded item is valid: \(line)")
                }
            } catch {
                refused += 1
                #expect(!error.field.isEmpty || !error.reason.isEmpty)
            }
        }
        #expect(decoded > 0 && refused > 0, "the mutations exercise both paths (\(decoded) decoded, \(refused) refused)")
    }
}
