import Foundation
public import PluginAPI

/// The `command` plugin: runs a program (no shell) that prints items as NDJSON on standard output, with deletions
/// and states for incremental syncs, so sources can be written in any language (docs/plugin-protocol.md).
///
/// The program runs in the config folder with a minimal environment (see `PluginEnvironment`): the scheduler's
/// own variables, secrets included, reach it only when the source's `env:` option names them. A line that is not a
/// valid item or control line is reported with its number and skipped; a non-zero exit, a timeout or output over the
/// cap fails the run, but exit status 3 in an incremental or resumed run, which asks for a full one.
public struct CommandSource: SourcePlugin {
    public struct Options: Decodable, Sendable {
        /// The program and its arguments; a relative program path is resolved against the config folder.
        public var command: [String]
        public var timeout: DurationOption?
        public var maxOutputBytes: Int?
        /// Variables for the program beyond the minimal environment: a value, or `{ fromEnvironment: NAME }`.
        var env: [String: PluginEnvironment.Value]?
        /// The account the program runs as; the service's own when absent.
        public var runAs: String?

        public init(command: [String], timeout: DurationOption? = nil, maxOutputBytes: Int? = nil) {
            self.command = command
            self.timeout = timeout
            self.maxOutputBytes = maxOutputBytes
        }
    }

    public static let kind = "command"
    public static let summary = "Runs a program (no shell) that prints items as NDJSON on standard output."
    public static let options = [
        PluginOption("command", "[program, argument…]: what to run, without a shell", required: true),
        PluginOption("timeout", "longest run before the program is stopped and the run fails (default 10m)"),
        PluginOption("maxOutputBytes", "largest standard output accepted (default 1 GiB)"),
        PluginOption("env", "NAME: value, or NAME: { fromEnvironment: VAR }: variables for the program beyond PATH, HOME, LANG, TZ"),
        PluginOption("runAs", "the account the program runs as, such as nobody (the service must run as root to switch)"),
    ]
    /// The program is told the mode and handed the state; one that ignores them sends everything each run, which an
    /// incremental run writes without sweeping and a resumed one sweeps as a full one.
    public static let sync: SyncSupport = [.incremental, .resume]
    static let defaultTimeout = Duration.seconds(600)
    static let defaultMaxOutputBytes = 1 << 30

    public static func validate(_ options: Options) throws(PluginOptionError) {
        guard let program = options.command.first, !program.isEmpty else {
            throw PluginOptionError(option: "command", reason: "must name a program to run, such as [./bin/export, --all]")
        }
        if let timeout = options.timeout, timeout.duration < .seconds(1) {
            throw PluginOptionError(option: "timeout", reason: "must be at least 1s")
        }
        if let cap = options.maxOutputBytes, cap < 1 {
            throw PluginOptionError(option: "maxOutputBytes", reason: "must be a positive number of bytes")
        }
        if let env = options.env, let problem = PluginEnvironment.problem(in: env) {
            throw PluginOptionError(option: "env", reason: problem)
        }
        if let name = options.runAs, SystemUser.named(name) == nil {
            throw PluginOptionError(option: "runAs", reason: "'\(name.prefix(64))' is not an account of this machine (getent passwd lists them)")
        }
    }

    let options: Options
    let context: PluginContext

    public init(options: Options, context: PluginContext) throws {
        try Self.validate(options)
        self.options = options
        self.context = context
    }

    public func produce(into sink: inout some ItemSink) async throws {
        try await run().produce(into: &sink)
    }

    /// Asks the program to test its configuration and connection (`SCHEDULER_ACTION=check`).
    public func check() async throws -> PluginCheck? {
        try await run().check()
    }

    /// A run of the program as configured. Never the service's own account in place of the one asked for: an account
    /// gone since validation fails the run.
    private func run() throws -> CommandRun {
        var user: SystemUser?
        if let name = options.runAs {
            guard let found = SystemUser.named(name) else {
                throw CommandRun.Failure(description: "runAs: '\(name.prefix(64))' is no longer an account of this machine; the program was not started")
            }
            user = found
        }
        return CommandRun(
            command: options.command, environment: options.env ?? [:], user: user, context: context,
            timeout: options.timeout?.duration ?? Self.defaultTimeout,
            maxOutputBytes: options.maxOutputBytes ?? Self.defaultMaxOutputBytes
        )
    }
}
