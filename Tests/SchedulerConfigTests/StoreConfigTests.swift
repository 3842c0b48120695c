import Foundation
import SchedulerConfig
import Testing

/// The `store:` section: exactly one of sqlite and postgres, each checked where it is written.
@Suite("The store section")
struct StoreConfigTests {
    static func scheduler(store: String) -> String {
        ConfigFolder.scheduler.replacingOccurrences(of: "store:\n  sqlite: { path: ../var/index.sqlite }", with: "store:\n" + store)
    }

    @Test func aPostgresStoreIsReadWithItsDefaults() throws {
        let folder = try ConfigFolder(scheduler: Self.scheduler(store: "  postgres: { url: \"postgres://scheduler@db.internal/search\" }"))
        let settings = try folder.load().scheduler
        guard case .postgres(let location) = settings.store else { Issue.record("\(settings.store)"); return }
        #expect(location.description == "postgres://scheduler@db.internal:5432/search")
        #expect(location.poolSize == 8 && location.tls == .prefer && location.leaseTTL == .seconds(60) && location.password == nil)
        #expect(settings.localFilesPath.hasSuffix("/var/postgres"), "locks beside the config folder")
        #expect(settings.localFilesPath(replicaID: "web 1/a") == settings.localFilesPath + "-web_1_a")
        #expect(settings.localFilesPath(replicaID: nil) == settings.localFilesPath)
    }

    /// A database named through a link to its file is named by its real path, as `--database` names it: the locks
    /// and saved postings beside it are those of every other command reaching the same file.
    @Test func anSQLitePathThroughALinkIsReadAsTheFilesRealPath() throws {
        let folder = try ConfigFolder(scheduler: Self.scheduler(store: "  sqlite: { path: link.sqlite }"))
        let real = folder.url.appendingPathComponent("real.sqlite").path
        #expect(FileManager.default.createFile(atPath: real, contents: Data()))
        try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent("link.sqlite").path, withDestinationPath: real)
        let settings = try folder.load().scheduler
        let resolved = URL(fileURLWithPath: real).resolvingSymlinksInPath().path
        #expect(settings.store == .sqlite(path: resolved))
        #expect(settings.localFilesPath == resolved)

        // A link whose target SQLite has not created yet names the target, as the next start (target made) will.
        try FileManager.default.removeItem(atPath: real)
        #expect(try folder.load().scheduler.store == .sqlite(path: resolved))
    }

    @Test func everyPostgresSettingIsRead() throws {
        let folder = try ConfigFolder(scheduler: Self.scheduler(store: """
              postgres:
                url: "postgresql://app@[::1]:6543/index"
                passwordFromEnvironment: PGPASSWORD
                pool: 3
                tls: require
                leaseTTL: 20s
            """))
        guard case .postgres(let location) = try folder.load().scheduler.store else { Issue.record("not postgres"); return }
        #expect(location.host == "::1" && location.port == 6543 && location.username == "app" && location.database == "index")
        #expect(location.passwordFromEnvironment == "PGPASSWORD" && location.poolSize == 3 && location.tls == .require)
        #expect(location.leaseTTL == .seconds(20))
        #expect(location.description == "postgres://app@[::1]:6543/index")
    }

    static let refused: [(store: String, location: String, message: String)] = [
        ("  sqlite: { path: a.sqlite }\n  postgres: { url: \"postgres://u@h/d\" }", "scheduler.yaml:4:3", "name one of sqlite or postgres, not both"),
        ("  history: 10", "scheduler.yaml:3:3", "is required: where the index lives"),
        ("  postgres: { pool: 3 }", "scheduler.yaml:3:13", "store.postgres.url is required"),
        ("  postgres: { url: \"mysql://u@h/d\" }", "scheduler.yaml:3:20", "has scheme 'mysql'"),
        ("  postgres: { url: \"postgres://h/d\" }", "scheduler.yaml:3:20", "names no user"),
        ("  postgres: { url: \"postgres://u@h\" }", "scheduler.yaml:3:20", "names no database"),
        ("  postgres: { url: \"postgres://u@h/d?sslmode=require\" }", "scheduler.yaml:3:20", "set tls: and pool: beside url:"),
        ("  postgres: { url: \"postgres://u@h/d\", tls: maybe }", "scheduler.yaml:3:45", "tls must be one of disable, prefer, require"),
        ("  postgres: { url: \"postgres://u@h/d\", pool: 0 }", "scheduler.yaml:3:46", "pool"),
        ("  postgres: { url: \"postgres://u@h/d\", leaseTTL: 1s }", "scheduler.yaml:3:50", "leaseTTL"),
        ("  postgres: { url: \"postgres://u@h/d\", passwordFromEnvironment: \"PG PASS\" }", "scheduler.yaml:3:65", "must name an environment variable"),
        ("  postgres: { url: \"postgres://u@h/d\", password: secret }", "scheduler.yaml:3:40", "unknown key 'password'"),
    ]

    @Test(arguments: refused)
    func aBadStoreIsRefusedWithItsLocation(store: String, location: String, message: String) throws {
        let folder = try ConfigFolder(scheduler: Self.scheduler(store: store))
        let problems = folder.problems()
        #expect(problems.contains { $0.description.hasPrefix(location + ":") && $0.description.contains(message) }, "\(problems.map(\.description))")
        #expect(problems.count == 1, "only the store is wrong: \(problems.map(\.description))")
    }

    @Test func aPasswordInTheURLIsNeverRepeatedInAnError() throws {
        let folder = try ConfigFolder(scheduler: Self.scheduler(store: "  postgres: { url: \"postgres://u:hunter2@h\" }"))
        let problems = folder.problems()
        #expect(!problems.isEmpty)
        #expect(!problems.contains { $0.description.contains("hunter2") }, "\(problems)")
        let valid = try ConfigFolder(scheduler: Self.scheduler(store: "  postgres: { url: \"postgres://u:hunter2@h/d\" }")).load()
        guard case .postgres(let location) = valid.scheduler.store else { Issue.record("not postgres"); return }
        #expect(location.password == "hunter2")
        #expect(!location.description.contains("hunter2"), "shown without its password")
    }
}
