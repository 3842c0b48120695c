import Foundation
import Testing

/// Config written carelessly: every command refuses it with `file:line:col` and exit 2, never a crash.
@Suite("Careless config through the real binary")
struct HostileConfigTests {
    /// A copy of the repository's example config with one replacement made in `file`.
    static func exampleConfig(in workspace: Workspace, file: String, replacing old: String, with new: String) throws -> String {
        let copy = URL(fileURLWithPath: try workspace.copyExampleConfig())
        let path = copy.appendingPathComponent(file).path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(old), "the example config changed: '\(old)' is gone from \(file)")
        try text.replacingOccurrences(of: old, with: new).write(toFile: path, atomically: true, encoding: .utf8)
        return copy.path
    }

    @Test(arguments: [
        ("gates.yaml", "rollout: 100", "rollout: 1e19", "gates.yaml:5:14: rollout must be between 0 and 100 (got 1e+19)"),
        ("gates.yaml", "rollout: 100", "rollout: -1e19", "gates.yaml:5:14: rollout must be between 0 and 100 (got -1e+19)"),
        ("gates.yaml", "rollout: 100", "rollout: 99999999999999999999", "gates.yaml:5:14: rollout must be between 0 and 100"),
        ("gates.yaml", "rollout: 100", "rollout: .nan", "gates.yaml:5:14: rollout must be a number"),
        ("scheduler.yaml", "maxDeleteRatio: 0.5", "maxDeleteRatio: 1e19", "scheduler.yaml:10:46: defaults.maxDeleteRatio must be between 0 and 1 (got 1e+19)"),
        ("scheduler.yaml", "maxDeleteRatio: 0.3", "maxDeleteRatio: -9.3e18", "source 'help': maxDeleteRatio must be between 0 and 1 (got -9.3e+18)"),
        ("experiments.yaml", "control: { weight: 50 }", "control: { weight: 1e19 }", "experiments.yaml:7:26: experiment 'reindex_cadence', variant 'control': weight must be a whole number"),
        ("scheduler.yaml", "thumbnails: none", "thumbnails: none\n      concurrency: 99999999999999999999", "scheduler.yaml:28:20: source 'categories': option 'concurrency': '99999999999999999999' is too large for a whole number"),
        ("scheduler.yaml", "timeout: 2m", "timeout: 2m\n      maxOutputBytes: 1e19", "scheduler.yaml:41:23: source 'help': option 'maxOutputBytes': '1e19' is not a whole number"),
    ])
    func aHugeNumberIsRefusedByEveryCommand(file: String, old: String, new: String, message: String) async throws {
        let workspace = try Workspace()
        let config = try Self.exampleConfig(in: workspace, file: file, replacing: old, with: new)
        for command in [["validate"], ["run-once"], ["gates"]] {
            let outcome = try await SchedulerProcess.run(command + ["--config", config])
            #expect(outcome.status == 2, "\(command): \(outcome.stderr)")
            #expect(outcome.stderr.contains(message), "\(command): \(outcome.stderr)")
        }
        // status shows what the database remembers, and the problem.
        let status = try await SchedulerProcess.run(["status", "--config", config])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("config problem: ") && status.stdout.contains(message), "\(status.stdout)")
    }

    @Test(arguments: [
        ("gates.yaml", "enabled: true", "enabled: !custom true", "gates.yaml:4:14: the tag '!custom' is not read"),
        ("gates.yaml", "rollout: 100", "rollout: !!python/object:os.system 100", "gates.yaml:5:14: the tag '!!python/object:os.system' is not read"),
        ("scheduler.yaml", "schedule: daily", "schedule: !!binary ZGFpbHk=", "scheduler.yaml:46:15: the tag '!!binary' is not read"),
        ("experiments.yaml", "sources: [help]", "sources: !tagged [help]", "experiments.yaml:4:14: the tag '!tagged' is not read"),
    ])
    func aCustomTagIsRefusedWithItsLocation(file: String, old: String, new: String, message: String) async throws {
        let workspace = try Workspace()
        let config = try Self.exampleConfig(in: workspace, file: file, replacing: old, with: new)
        let outcome = try await SchedulerProcess.run(["validate", "--config", config])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    }

    @Test(arguments: ["2027-02-30T00:00:00Z", "2027-01-31T25:00:00Z", "2013-05-06T00:00:00Zgarbage", "2027-01-31T10:00:00"])
    func aGateWindowDateMustBeARealInstant(date: String) async throws {
        let workspace = try Workspace()
        let config = try Self.exampleConfig(in: workspace, file: "gates.yaml", replacing: "rollout: 100", with: "rollout: 100\n    from: \(date)")
        let outcome = try await SchedulerProcess.run(["validate", "--config", config])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("gates.yaml:6:11: from must be an ISO 8601 date"), "\(outcome.stderr)")
    }

    @Test func anItemDateMustBeARealInstant() async throws {
        let workspace = try Workspace()
        let lines = ["2027-02-30T00:00:00Z", "2027-01-31T25:00:00Z", "2013-05-06T00:00:00Zgarbage", "2027-01-31T10:00:00.5+02:00"].enumerated().map {
            #"{"uniqueIdentifier":"i\#($0.offset)","domainIdentifier":"com.test","title":"Dated","expirationDate":"\#($0.element)"}"#
        }
        let outcome = try await SchedulerProcess.run(["index", "import", "-"] + workspace.database, input: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("imported 1 items, rejected 3 lines"), "\(outcome.stdout)")
        #expect(outcome.stderr.contains("stdin:1: expirationDate: '2027-02-30T00:00:00Z' is not an ISO 8601 date"), "\(outcome.stderr)")
    }

    /// A SourceWorkspace whose database path is `path`.
    func workspace(databasePath path: String) throws -> SourceWorkspace {
        let setup = try SourceWorkspace()
        try setup.editConfig(replacing: "path: index.sqlite", with: "path: \"\(path)\"")
        return setup
    }

    @Test(arguments: [
        ("/proc/self/mem", "is inside /proc, a kernel file system"),
        ("/dev/sda", "is inside /dev, a kernel file system"),
        ("/sys/kernel/index.sqlite", "is inside /sys, a kernel file system"),
        ("proc-link/index.sqlite", "is inside /proc, a kernel file system"),
        ("a-folder", "is a folder, not a file"),
        ("a-fifo", "is a device, pipe or socket, not a regular file"),
    ])
    func aDatabasePathIntoKernelFileSystemsOrOfTheWrongKindIsRefused(path: String, message: String) async throws {
        let setup = try workspace(databasePath: path)
        try FileManager.default.createSymbolicLink(atPath: setup.workspace.path("proc-link"), withDestinationPath: "/proc/self")
        try FileManager.default.createDirectory(atPath: setup.workspace.path("a-folder"), withIntermediateDirectories: true)
        #expect(mkfifo(setup.workspace.path("a-fifo"), 0o600) == 0)
        let outcome = try await setup.run(["validate"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("scheduler.yaml:1:26: store.sqlite.path: ") && outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(try await setup.run(["run-once"]).status == 2)
    }

    @Test func theDatabaseFlagFollowsTheSameRule() async throws {
        let workspace = try Workspace()
        let outcome = try await SchedulerProcess.run(["index", "stats", "--database", "/dev/null"])
        #expect(outcome.status != 0)
        #expect(outcome.stderr.contains("/dev/null is inside /dev, a kernel file system"), "\(outcome.stderr)")
        _ = workspace
    }

    @Test func aDatabaseOutsideTheConfigFolderIsAllowedTheConfigIsTrusted() async throws {
        let outside = try Workspace()
        let setup = try workspace(databasePath: outside.path("state/../index.sqlite"))
        try setup.setFeed("a")
        #expect(try await setup.run(["run-once"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: outside.path("index.sqlite")))
    }

    /// `validate` finds what a run would refuse: a folder under a kernel file system. (One that does not exist yet
    /// fails only its unit: ``MissingContentFolderTests``.)
    @Test(arguments: [
        ("/proc/self", "", "/proc/self is inside /proc, a kernel file system"),
        ("/sys/kernel", "", "/sys/kernel is inside /sys, a kernel file system"),
        ("/dev/shm", "", "/dev/shm is inside /dev, a kernel file system"),
    ])
    func aPostsFolderARunWouldRefuseIsRefusedByValidate(directory: String, extraLines: String, message: String) async throws {
        let setup = try SourceWorkspace(extraLines: extraLines)
        try FileManager.default.createDirectory(atPath: setup.workspace.path("posts/en"), withIntermediateDirectories: true)
        try setup.editConfig(replacing: "plugin: command", with: "plugin: posts")
        try setup.editConfig(replacing: "options: { command: [./feed.sh], timeout: 30m }", with: "options: { directory: \"\(directory)\" }")
        for command in ["validate", "run-once"] {
            let outcome = try await setup.run([command])
            #expect(outcome.status == 2, "\(command): \(outcome.stderr)")
            #expect(outcome.stderr.contains(message), "\(command): \(outcome.stderr)")
            #expect(outcome.stderr.contains("scheduler.yaml:"), "the problem names its place: \(outcome.stderr)")
        }
        let valid = try SourceWorkspace(extraLines: extraLines)
        try FileManager.default.createDirectory(atPath: valid.workspace.path("posts/fr"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: valid.workspace.path("posts/en"), withIntermediateDirectories: true)
        try valid.editConfig(replacing: "plugin: command", with: "plugin: posts")
        try valid.editConfig(replacing: "options: { command: [./feed.sh], timeout: 30m }", with: "options: { directory: \"posts/{partition}\" }")
        #expect(try await valid.run(["validate"]).status == 0, "folders that exist validate")
    }
}
