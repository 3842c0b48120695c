import CommandPlugin
import Foundation
import Logging
import PluginAPI
import PluginConformance
import ProcessSupport
import Testing

@Suite("The command plugin")
struct CommandPluginTests {
    func plugin(_ script: String, in folder: Folder, timeout: String? = nil, maxOutputBytes: Int? = nil) throws -> (CommandSource, PluginContext) {
        try folder.write("source.sh", "#!/bin/sh\n" + script, executable: true)
        let context = folder.context()
        let options = CommandSource.Options(
            command: ["./source.sh"], timeout: timeout.flatMap { DurationText.parse($0) }.map(DurationOption.init), maxOutputBytes: maxOutputBytes
        )
        return (try CommandSource(options: options, context: context), context)
    }

    static let item = #"{"uniqueIdentifier":"%s","domainIdentifier":"'"$SCHEDULER_DOMAIN"'","title":"Item %s"}"#

    @Test func aGoodProgramsItemsAreStreamed() async throws {
        let folder = try Folder()
        let (plugin, context) = try plugin("for i in 1 2 3; do printf '\(Self.item)\\n' $i $i; done\n", in: folder)
        let run = await PluginConformance.items(of: plugin)
        #expect(run.error == nil)
        #expect(run.violations.isEmpty)
        #expect(run.items.map(\.uniqueIdentifier) == ["1", "2", "3"])
        #expect(run.items.allSatisfy { $0.domainIdentifier == "com.example.test" })
        #expect(context.rejections.count == 0)
    }

    @Test func garbageLinesAreRejectedByNumberAndTheRestIndexed() async throws {
        let folder = try Folder()
        let (plugin, context) = try plugin("""
            printf '\(Self.item)\\n' a a
            echo 'this is not json'
            echo '{"uniqueIdentifier":"b","domainIdentifier":"com.example.test","title":"B","colour":"red"}'
            printf '\\377\\376 binary\\n'
            echo ''
            printf '\(Self.item)\\n' c c
            """, in: folder)
        let run = await PluginConformance.items(of: plugin)
        #expect(run.error == nil)
        #expect(run.items.map(\.uniqueIdentifier) == ["a", "c"])
        #expect(context.rejections.count == 3)
    }

    @Test func aFailingProgramFailsTheRun() async throws {
        let folder = try Folder()
        let (plugin, _) = try plugin("printf '\(Self.item)\\n' a a\necho 'database unreachable' >&2\nexit 3\n", in: folder)
        let run = await PluginConformance.items(of: plugin)
        #expect("\(run.error.map { "\($0)" } ?? "none")".contains("exited with status 3"))
    }

    /// The run's error ends with what the program last said on standard error: the real reason, not only a status.
    /// Bounded (the last 20 lines, 4 KB), terminal escapes and control characters removed, and the source's `env:`
    /// values never repeated.
    @Test func aFailedRunSaysTheProgramsLastWordsOnStandardErrorWithoutItsSecrets() async throws {
        let folder = try Folder()
        try folder.write("source.sh", """
            #!/bin/sh
            printf '\\033[31mred\\033[0m and a bell\\007 here\\n' >&2
            for i in $(seq 1 40); do echo "retry $i: token $API_TOKEN refused" >&2; done
            head -c 1000000 /dev/zero | tr '\\0' x >&2
            echo >&2
            echo 'upstream API returned HTTP 503' >&2
            exit 1
            """, executable: true)
        let options = try JSONDecoder().decode(
            CommandSource.Options.self, from: Data(#"{"command": ["./source.sh"], "env": {"API_TOKEN": "s3cret-t0ken", "SHORT": "abc"}}"#.utf8)
        )
        let plugin = try CommandSource(options: options, context: folder.context())
        let error = "\(await PluginConformance.items(of: plugin).error.map { "\($0)" } ?? "none")"
        #expect(error.hasPrefix("./source.sh exited with status 1; its last words on standard error: "), "\(error)")
        #expect(error.hasSuffix("[a line of 1000000 bytes] ⏎ upstream API returned HTTP 503"), "\(error)")
        #expect(error.contains("retry 40: token [redacted] refused") && !error.contains("s3cret"), "\(error)")
        #expect(!error.contains("retry 22:"), "the last 20 lines only: \(error)")
        #expect(error.utf8.count < 4096 + 200)
        #expect(!error.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(error)")

        try folder.write("source.sh", "#!/bin/sh\nprintf '\\033[31mred\\033[0m and a bell\\007 here\\n' >&2\nexit 2\n", executable: true)
        let colours = "\(await PluginConformance.items(of: plugin).error.map { "\($0)" } ?? "none")"
        #expect(colours.hasSuffix("exited with status 2; its last words on standard error: red and a bell here"), "\(colours)")
    }

    /// The log shows every line the program wrote on standard error, the source's `env:` values redacted there too.
    @Test func standardErrorIsLoggedWithoutTheSourcesSecrets() async throws {
        let folder = try Folder()
        try folder.write("source.sh", "#!/bin/sh\necho \"calling with $API_TOKEN\" >&2\n", executable: true)
        let options = try JSONDecoder().decode(
            CommandSource.Options.self, from: Data(#"{"command": ["./source.sh"], "env": {"API_TOKEN": "s3cret-t0ken"}}"#.utf8)
        )
        let log = LogRecorder()
        var context = folder.context()
        context.logger = log.logger()
        _ = await PluginConformance.items(of: try CommandSource(options: options, context: context))
        let logged = log.metadata("line")
        #expect(logged.contains("calling with [redacted]"), "\(logged)")
        #expect(!logged.contains { $0.contains("s3cret") })
    }

    @Test func aMissingProgramFailsTheRun() async throws {
        let folder = try Folder()
        let context = folder.context()
        let plugin = try CommandSource(options: .init(command: ["./nothing-here"]), context: context)
        let run = await PluginConformance.items(of: plugin)
        #expect("\(run.error.map { "\($0)" } ?? "none")".contains("cannot start ./nothing-here"))
    }

    /// The program and whatever it started are stopped at the timeout, and the run fails.
    @Test func aHangingProgramIsStoppedAtItsTimeout() async throws {
        let folder = try Folder()
        let (plugin, _) = try plugin("printf '\(Self.item)\\n' a a\nsleep 300\n", in: folder, timeout: "1s")
        let run = await PluginConformance.items(of: plugin)
        #expect(run.items.map(\.uniqueIdentifier) == ["a"])
        #expect("\(run.error.map { "\($0)" } ?? "none")".contains("did not finish within 1s"))
    }

    /// The service has sockets and its database open; none of that may reach a plugin program.
    @Test func theProgramInheritsNoOpenFilesButItsStandardStreams() async throws {
        let folder = try Folder()
        try folder.write("secret", "x")
        let descriptor = open(folder.path("secret"), O_RDONLY)  // deliberately not close-on-exec
        defer { close(descriptor) }
        let (plugin, _) = try plugin("""
            if [ -e /proc/$$/fd/\(descriptor) ]; then state=leaked; else state=clean; fi
            printf '\(Self.item)\\n' "$state" "$state"
            """, in: folder)
        let run = await PluginConformance.items(of: plugin)
        #expect(run.items.map(\.uniqueIdentifier) == ["clean"])
    }

    @Test func tooMuchOutputFailsTheRun() async throws {
        let folder = try Folder()
        let (plugin, _) = try plugin("while true; do printf '\(Self.item)\\n' x x; done\n", in: folder, maxOutputBytes: 10_000)
        let run = await PluginConformance.items(of: plugin)
        #expect("\(run.error.map { "\($0)" } ?? "none")".contains("more than 10000 bytes"))
    }

    @Test func itConformsAndCancellationStopsTheProgramAndItsChildren() async throws {
        let folder = try Folder()
        #expect(PluginConformance.declaration(of: CommandSource.self).isEmpty)
        #expect(PluginConformance.refuses(CommandSource.self, invalid: [
            .init(command: []), .init(command: [""]), .init(command: ["x"], timeout: DurationOption(.milliseconds(10))),
            .init(command: ["x"], maxOutputBytes: 0),
        ]).isEmpty)
        let (plugin, _) = try plugin("echo $$ > pid\nprintf '\(Self.item)\\n' a a\nsleep 300\n", in: folder)
        #expect(await PluginConformance.honoursCancellation(plugin, afterItems: 1).isEmpty)
        let pid = try #require(Int32(String(contentsOfFile: folder.path("pid"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(pid, 0) != 0, "the program was stopped")
    }
}
