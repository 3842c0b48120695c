import Foundation
import Testing

/// What a plugin can see of the scheduler, through the real binary.
@Suite("Plugins see no secrets")
struct PluginIsolationTests {
    static let secrets = ["SCHEDULER_ADMIN_TOKEN": "admin-s3cret", "AWS_SECRET_ACCESS_KEY": "aws-s3cret", "HELP_API_TOKEN": "help-s3cret"]

    @Test func aCommandPluginGetsAMinimalEnvironmentAndOnlyTheSecretsItsSourceNames() throws {
        let setup = try SourceWorkspace(extraLines: "")
        try setup.editConfig(
            replacing: "options: { command: [./feed.sh], timeout: 2m }",
            with: "options: { command: [./feed.sh], timeout: 2m, env: { API_URL: \"https://help.example\", API_TOKEN: { fromEnvironment: HELP_API_TOKEN } } }"
        )
        try setup.writeScript("""
            #!/bin/sh
            env > environment.txt
            printf '{"uniqueIdentifier":"env","domainIdentifier":"%s","title":"Doc env %s"}\\n' "$SCHEDULER_DOMAIN" "$(env | tr '\\n' ' ')"
            """)
        let outcome = try setup.run(["run-once"], environment: Self.secrets)
        #expect(outcome.status == 0, "\(outcome.stderr)")

        let dumped = try String(contentsOfFile: setup.workspace.path("environment.txt"), encoding: .utf8)
        var variables: [String: String] = [:]
        for line in dumped.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            variables[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        #expect(variables["API_TOKEN"] == "help-s3cret", "named by the source: passed")
        #expect(variables["API_URL"] == "https://help.example")
        #expect(variables["SCHEDULER_DOMAIN"] == "com.test.docs")
        #expect(variables["SCHEDULER_UNIT"] == "docs")
        #expect(variables["PATH"] != nil)
        #expect(!dumped.contains("admin-s3cret"), "the admin token never reaches a plugin")
        #expect(!dumped.contains("aws-s3cret"))
        let allowed: Set = ["PATH", "HOME", "LANG", "TZ", "API_URL", "API_TOKEN", "SCHEDULER_SOURCE", "SCHEDULER_PARTITION",
                            "SCHEDULER_UNIT", "SCHEDULER_DOMAIN", "PWD", "OLDPWD", "SHLVL", "_"]
        #expect(Set(variables.keys).subtracting(allowed).isEmpty, "unexpected: \(Set(variables.keys).subtracting(allowed))")
        // What the plugin indexes is what it saw: no secret in a public search.
        let search = try setup.run(["search", "env", "--json"])
        #expect(search.stdout.contains("Doc env"))
        #expect(!search.stdout.contains("admin-s3cret") && !search.stdout.contains("aws-s3cret"))
    }

    @Test(arguments: [
        ("{ TOKEN: { fromEnvironment: SCHEDULER_ADMIN_TOKEN } }", "SCHEDULER_ADMIN_TOKEN is never passed to plugins"),
        ("{ SCHEDULER_DOMAIN: x }", "names starting with SCHEDULER_ are set by the scheduler"),
        ("{ \"BAD NAME\": x }", "is not an environment variable name"),
    ])
    func anEnvOptionThatWouldLeakOrClashIsRefused(env: String, message: String) throws {
        let setup = try SourceWorkspace()
        try setup.editConfig(replacing: "timeout: 2m }", with: "timeout: 2m, env: \(env) }")
        let outcome = try setup.run(["validate"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("option 'env'") && outcome.stderr.contains(message), "\(outcome.stderr)")
    }

    @Test func aVariableTheSourceNamesButTheHostLacksFailsTheRun() throws {
        let setup = try SourceWorkspace()
        try setup.editConfig(replacing: "timeout: 2m }", with: "timeout: 2m, env: { TOKEN: { fromEnvironment: NOT_SET_ANYWHERE } } }")
        try setup.setFeed("a")
        let outcome = try setup.run(["run-once", "--json"])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("NOT_SET_ANYWHERE is not set in the scheduler's environment"), "\(outcome.stdout)")
    }
}
