import Foundation
import Testing

/// What a plugin can see of the scheduler, through the real binary.
@Suite("Plugins see no secrets")
struct PluginIsolationTests {
    static let secrets = ["SCHEDULER_ADMIN_TOKEN": "admin-s3cret", "AWS_SECRET_ACCESS_KEY": "aws-s3cret", "HELP_API_TOKEN": "help-s3cret"]

    @Test func aCommandPluginGetsAMinimalEnvironmentAndOnlyTheSecretsItsSourceNames() async throws {
        let setup = try SourceWorkspace(extraLines: "")
        try setup.editConfig(
            replacing: "options: { command: [./feed.sh], timeout: 30m }",
            with: "options: { command: [./feed.sh], timeout: 30m, env: { API_URL: \"https://help.example\", API_TOKEN: { fromEnvironment: HELP_API_TOKEN } } }"
        )
        try setup.writeScript("""
            #!/bin/sh
            env > environment.txt
            printf '{"uniqueIdentifier":"env","domainIdentifier":"%s","title":"Doc env %s"}\\n' "$SCHEDULER_DOMAIN" "$(env | tr '\\n' ' ')"
            """)
        let outcome = try await setup.run(["run-once"], environment: Self.secrets)
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
        let allowed: Set = ["PATH", "HOME", "LANG", "TZ", "API_URL", "API_TOKEN", "SCHEDULER_SOURCE", "SCHEDULER_PARTITION", "SCHEDULER_ACTION", "SCHEDULER_SYNC_MODE",
                            "SCHEDULER_UNIT", "SCHEDULER_DOMAIN", "PWD", "OLDPWD", "SHLVL", "_"]
        #expect(Set(variables.keys).subtracting(allowed).isEmpty, "unexpected: \(Set(variables.keys).subtracting(allowed))")
        // What the plugin indexes is what it saw: no secret in a public search.
        let search = try await setup.run(["search", "env", "--json"])
        #expect(search.stdout.contains("Doc env"))
        #expect(!search.stdout.contains("admin-s3cret") && !search.stdout.contains("aws-s3cret"))
    }

    @Test(arguments: [
        ("{ TOKEN: { fromEnvironment: SCHEDULER_ADMIN_TOKEN } }", "SCHEDULER_ADMIN_TOKEN is never passed to plugins"),
        ("{ SCHEDULER_DOMAIN: x }", "names starting with SCHEDULER_ are set by the scheduler"),
        ("{ \"BAD NAME\": x }", "is not an environment variable name"),
    ])
    func anEnvOptionThatWouldLeakOrClashIsRefused(env: String, message: String) async throws {
        let setup = try SourceWorkspace()
        try setup.editConfig(replacing: "timeout: 30m }", with: "timeout: 30m, env: \(env) }")
        let outcome = try await setup.run(["validate"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("option 'env'") && outcome.stderr.contains(message), "\(outcome.stderr)")
    }

    @Test func aVariableTheSourceNamesButTheHostLacksFailsTheRun() async throws {
        let setup = try SourceWorkspace()
        try setup.editConfig(replacing: "timeout: 30m }", with: "timeout: 30m, env: { TOKEN: { fromEnvironment: NOT_SET_ANYWHERE } } }")
        try setup.setFeed("a")
        let outcome = try await setup.run(["run-once", "--json"])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("NOT_SET_ANYWHERE is not set in the scheduler's environment"), "\(outcome.stdout)")
    }
}

/// A plugin that runs as the scheduler's user (or as root) reading its parent's `/proc` files: the environment
/// block and the command line hold no secret, and an account of its own (`runAs:`) cannot read them at all.
@Suite("Plugins cannot read the scheduler's secrets through /proc")
struct ParentProcessSecretTests {
    static let secrets = PluginIsolationTests.secrets

    /// A feed that indexes what it read of `/proc/$PPID/environ` and `/proc/$PPID/cmdline`, and its uid.
    static func prying(_ setup: SourceWorkspace) throws {
        try setup.writeScript("""
            #!/bin/sh
            read_parent() { { tr '\\000' ' ' < "/proc/$PPID/$1"; } 2>/dev/null | tr -cd 'A-Za-z0-9_=./ -' | head -c 3000; }
            for file in environ cmdline; do
                printf '{"uniqueIdentifier":"%s","domainIdentifier":"%s","title":"Doc %s uid %s","contentDescription":"read: %s"}\\n' \\
                    "$file" "$SCHEDULER_DOMAIN" "$file" "$(id -u)" "$(read_parent $file)"
            done
            """)
    }

    @Test func aPluginOfTheService() async throws {
        let setup = try SourceWorkspace()
        try Self.prying(setup)
        let service = try await RunningService(setup.config, environment: Self.secrets)
        #expect(try await eventually { try await service.searchTotal() == 2 }, "the plugin ran")
        let found = try await service.request("/search?q=doc&limit=10").body
        for secret in Self.secrets.values { #expect(!found.contains(secret), "\(secret) served by /search: \(found)") }
        #expect(found.contains("--config"), "the command line was read, and holds no secret: \(found)")
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    @Test func aPluginOfRunOnce() async throws {
        let setup = try SourceWorkspace()
        try Self.prying(setup)
        #expect(try await setup.run(["run-once"], environment: Self.secrets).status == 0)
        let found = try await setup.run(["search", "doc", "--json"]).stdout
        #expect(found.contains("Doc environ"))
        for secret in Self.secrets.values { #expect(!found.contains(secret), "\(secret) indexed: \(found)") }
    }

    /// As root, `runAs: nobody` starts the program as that account, which cannot read the service's `/proc` files;
    /// as another user, the run says that only root can switch.
    @Test func aPluginRunAsAnotherAccount() async throws {
        let setup = try SourceWorkspace()
        try Self.prying(setup)
        try setup.editConfig(replacing: "options: { command: [./feed.sh], timeout: 30m }", with: "options: { command: [./feed.sh], timeout: 30m, runAs: nobody }")
        let outcome = try await setup.run(["run-once"], environment: Self.secrets)
        guard getuid() == 0 else {
            #expect(outcome.status == 1)
            #expect(outcome.stderr.contains("only root can start a program as 'nobody'"), "\(outcome.stderr)")
            return
        }
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let found = try await setup.run(["search", "doc", "--json"]).stdout
        #expect(found.contains("Doc environ uid 65534"), "ran as nobody: \(found)")
        #expect(found.contains(#""contentDescription":"read: ""#) || found.contains(#""contentDescription" : "read: ""#), "read nothing: \(found)")
        for secret in Self.secrets.values { #expect(!found.contains(secret)) }
    }

    @Test func anUnknownAccountIsRefusedByValidate() async throws {
        let setup = try SourceWorkspace()
        try setup.editConfig(replacing: "timeout: 30m }", with: "timeout: 30m, runAs: no-such-account-here }")
        let outcome = try await setup.run(["validate"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("'no-such-account-here' is not an account of this machine"), "\(outcome.stderr)")
    }

    /// The token from a file (`SCHEDULER_ADMIN_TOKEN_FILE`, or systemd's credential folder), never in the environment.
    @Test(arguments: ["SCHEDULER_ADMIN_TOKEN_FILE", "CREDENTIALS_DIRECTORY"])
    func theAdminTokenFromAFile(variable: String) async throws {
        let setup = try SourceWorkspace()
        try setup.setFeed("a")
        try setup.workspace.write("credentials/admin-token", "file-token-123\n")
        let value = variable == "CREDENTIALS_DIRECTORY" ? setup.workspace.path("credentials") : setup.workspace.path("credentials/admin-token")
        let service = try await RunningService(setup.config, environment: [variable: value])
        #expect(try await service.request("/sources/docs/reindex", method: "POST", token: "file-token-123").status == 202)
        #expect(try await service.request("/sources/docs/reindex", method: "POST", token: "wrong").status == 401)
        #expect(await service.terminate() == 0, "\(service.log)")
    }

    /// A token file that cannot be a token stops the start with the reason, never a service without its token.
    @Test(arguments: [
        (nil, "No such file or directory"), ("", "the file is empty"), ("two\nlines", "must be one word"),
        (String(repeating: "a", count: 10_000), "a token is at most 4096"), ("<folder>", "not a regular file"),
    ] as [(String?, String)])
    func aTokenFileThatCannotBeATokenStopsTheStart(content: String?, reason: String) async throws {
        let setup = try SourceWorkspace()
        let path = setup.workspace.path("token")
        if content == "<folder>" { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        else if let content { try setup.workspace.write("token", content) }
        let outcome = try await setup.run(["run"], environment: ["SCHEDULER_ADMIN_TOKEN_FILE": path])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("cannot read the admin token from \(path): "), "\(outcome.stderr)")
        #expect(outcome.stderr.contains(reason), "\(outcome.stderr)")
    }
}
