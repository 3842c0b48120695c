import Flagd
import Foundation
import FuzzSupport
import Testing

/// The testbed's flag file mutated thousands of ways: every mutant is read or refused with a located error, and
/// every flag it still holds resolves for a range of contexts, never a crash or a hang.
@Suite struct FlagdFuzzTests {
    @Test func mutatedFlagFilesNeverCrash() throws {
        let original = try String(contentsOf: FlagdTestbedTests.folder.appendingPathComponent("testkit-flags.json"), encoding: .utf8)
        var mutator = Mutator(seed: 0xF1A6D)
        let contexts: [(String?, [String: FlagValue])] = [
            (nil, [:]),
            ("jon@company.com", ["email": .string("ballmer@macrosoft.com"), "version": .string("1.2.3"), "tier": .string("premium")]),
            ("", ["email": .number(1), "version": .array([]), "user": .object(["name": .null])]),
        ]
        var read = 0, refused = 0
        for _ in 0..<2_000 {
            let mutant = mutator.mutate(original)
            do {
                let definitions = try FlagdDefinitions(parsing: mutant)
                read += 1
                for key in definitions.flags.keys {
                    for (targetingKey, attributes) in contexts {
                        _ = definitions.resolve(key, targetingKey: targetingKey, attributes: attributes)
                    }
                }
            } catch {
                refused += 1
                #expect(error.mark.line >= 1 && error.mark.column >= 1)
            }
        }
        #expect(read > 0 && refused > 0, "read \(read), refused \(refused)")
    }
}
