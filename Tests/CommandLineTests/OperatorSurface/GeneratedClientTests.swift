import Foundation
import ProcessSupport
import Testing

/// The contract as an integrator uses it: a Python client generated from `scheduler openapi` by
/// openapi-python-client (pinned, from PyPI) searches, opens a result and pauses a source of a real service. Without
/// the generator the test fails and says how to install it.
@Suite("A client generated from the OpenAPI contract")
struct GeneratedClientTests {
    static let pinned = "openapi-python-client==0.29.1"

    /// What an integrator writes against the generated package: typed calls, typed answers.
    static let script = """
        import sys
        from client import AuthenticatedClient, Client
        from client.api.search import search, open_item
        from client.api.admin import pause_source, resume_source
        from client.models import SearchResults, Pause

        base, token = sys.argv[1], sys.argv[2]
        public = Client(base_url=base, follow_redirects=False)
        found = search.sync(client=public, q="doc two")
        assert isinstance(found, SearchResults), found
        print("total", found.total, "first", found.hits[0].unique_identifier, "title", found.hits[0].title)
        opened = open_item.sync_detailed(client=public, id="two", q="doc two")
        print("open", opened.status_code.value, opened.headers.get("location"))
        admin = AuthenticatedClient(base_url=base, token=token)
        paused = pause_source.sync(client=admin, name="docs")
        assert isinstance(paused, Pause), paused
        print("paused", paused.paused, "changed", paused.changed)
        refused = pause_source.sync_detailed(client=AuthenticatedClient(base_url=base, token="wrong"), name="docs")
        print("wrong token", refused.status_code.value)
        resumed = resume_source.sync(client=admin, name="docs")
        print("resumed", not resumed.paused)
        """

    @Test func aGeneratedPythonClientSearchesOpensAndPauses() async throws {
        let generator = try ExternalTool("openapi-python-client", pipPackage: Self.pinned)
        let python = generator.url.deletingLastPathComponent().appendingPathComponent("python3")
        let setup = try SourceWorkspace()
        try setup.writeScript("""
            #!/bin/sh
            for id in one two three; do
                printf '{"uniqueIdentifier":"%s","domainIdentifier":"%s","title":"Doc %s","contentURL":"https://example.com/%s"}\\n' "$id" "$SCHEDULER_DOMAIN" "$id" "$id"
            done
            """)
        let folder = setup.workspace.url
        let contract = try await SchedulerProcess.run(["openapi"])
        try contract.stdout.write(to: folder.appendingPathComponent("openapi.yaml"), atomically: true, encoding: .utf8)
        let generated = try await generator.run(
            ["generate", "--path", "openapi.yaml", "--meta", "none", "--output-path", "client"], directory: folder, timeout: 300
        )
        #expect(generated.status == 0, "\(generated.stdout) \(generated.stderr)")
        try Self.script.write(to: folder.appendingPathComponent("integrator.py"), atomically: true, encoding: .utf8)

        let service = try await RunningService(setup.config, environment: ["SCHEDULER_ADMIN_TOKEN": "client-token"])
        #expect(try await eventually { try await service.searchTotal() == 3 })
        let pythonTool = ExternalTool(at: python)
        let ran = try await pythonTool.run(["integrator.py", service.base.absoluteString, "client-token"], directory: folder)
        #expect(ran.status == 0, "\(ran.stdout) \(ran.stderr)")
        #expect(ran.stdout.contains("total 1 first two title Doc two"), "\(ran.stdout)")
        #expect(ran.stdout.contains("open 302 https://example.com/two"), "\(ran.stdout)")
        #expect(ran.stdout.contains("paused True changed True"), "\(ran.stdout)")
        #expect(ran.stdout.contains("wrong token 401"), "\(ran.stdout)")
        #expect(ran.stdout.contains("resumed True"), "\(ran.stdout)")
        #expect(await service.terminate() == 0, "\(service.log)")
    }
}
