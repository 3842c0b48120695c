import Foundation
import ProcessSupport
import Testing

/// The contract as integrators' tools read it: `openapi-spec-validator` (the reference validator, from PyPI) accepts
/// what `scheduler openapi` prints, as YAML and as JSON. Without the validator the test fails and says how to install it.
@Suite("The OpenAPI contract, judged by openapi-spec-validator")
struct OpenAPIJudgeTests {
    static let pinned = "openapi-spec-validator==0.7.1"

    @Test func theValidatorAcceptsTheDocumentAsYAMLAndJSON() async throws {
        let validator = try ExternalTool("openapi-spec-validator", pipPackage: Self.pinned)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, arguments) in [("openapi.yaml", ["openapi"]), ("openapi.json", ["openapi", "--json"])] {
            let printed = try await SchedulerProcess.run(arguments)
            #expect(printed.status == 0, "\(printed.stderr)")
            let file = folder.appendingPathComponent(name)
            try printed.stdout.write(to: file, atomically: true, encoding: .utf8)
            let judged = try await validator.run([file.path])
            #expect(judged.status == 0 && judged.stdout.contains("OK"), "\(name): \(judged.stdout) \(judged.stderr)")
        }
        // The judge is not a yes-man: a document with a broken reference is refused.
        let broken = folder.appendingPathComponent("broken.yaml")
        let printed = try await SchedulerProcess.run(["openapi"])
        try printed.stdout.replacingOccurrences(of: "#/components/schemas/SearchResults", with: "#/components/schemas/Nothing")
            .write(to: broken, atomically: true, encoding: .utf8)
        #expect(try await validator.run([broken.path]).status != 0)
    }
}
