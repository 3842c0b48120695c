import Foundation
import Glibc
import Logging
import PluginAPI
import PluginConformance
import Testing

/// A temporary folder for one test's input files.
final class Folder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("plugin-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name`. The file is opened close-on-exec: tests run in parallel, and a program another
    /// test starts meanwhile must not inherit the open file (executing it would then fail with ETXTBSY).
    func write(_ name: String, _ text: String, executable: Bool = false) throws {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, executable ? 0o755 : 0o644)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        guard Glibc.write(descriptor, bytes, bytes.count) == bytes.count else { throw CocoaError(.fileWriteUnknown) }
    }

    /// The context of an unpartitioned unit of source `source` whose config folder is this folder.
    func context(domain: String = "com.example.test", source: String = "test", now: Date = Date()) -> PluginContext {
        PluginContext(
            source: source, partition: nil, domain: domain, deepLink: nil, baseDirectory: url.path,
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, now: now
        )
    }
}

/// What an incremental run sent, in short: titles by identifier, deletions (sorted), the last state, and the error.
struct IncrementalRun {
    var items: [String: String] = [:]
    var deleted: [String] = []
    var state: SyncState?
    var error: (any Error)?

    /// Runs `plugin` and sums up what it sent.
    init(of plugin: some SourcePlugin) async {
        let run = await PluginConformance.sent(by: plugin)
        #expect(run.violations.isEmpty, "\(run.violations)")
        for sent in run.sent {
            switch sent {
            case .item(let item): items[item.uniqueIdentifier] = item.title ?? ""
            case .delete(let identifier): deleted.append(identifier)
            case .state(let state): self.state = state
            }
        }
        deleted.sort()
        error = run.error
    }
}
