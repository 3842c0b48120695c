import Foundation
import Logging
import PluginAPI
import SchedulerConfig
import SchedulerService
import Testing

@Suite("Reloading the configuration in the service")
struct ReloadTests {
    /// An edit saved between the snapshot and the service's first poll (while it starts) is not missed.
    @Test func anEditMadeWhileTheServiceStartsIsLoadedByTheFirstPoll() async throws {
        let folder = try ConfigFolder()
        let loader = ConfigLoader(directory: folder.url.path, registry: PluginRegistry([FeedTestPlugin.self]))
        let loadedFrom = ConfigFolderSnapshot(loader: loader)
        let active = ActiveConfiguration(try loader.load())
        try folder.write("gates.yaml", ConfigFolder.gates.replacingOccurrences(of: "enabled: true", with: "enabled: false"))

        let watcher = ConfigWatcher(
            loader: loader, loadedFrom: loadedFrom, active: active, trigger: PassTrigger(),
            pollInterval: .milliseconds(10), metrics: SchedulerMetrics(), logger: Logger(label: "test")
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await watcher.run() }
            // Gives the watcher a thousand polls: the reload comes with the first one.
            for _ in 1...1000 where await active.generation == 1 { try await Task.sleep(for: .milliseconds(10)) }
            group.cancelAll()
        }
        #expect(await active.current.gates["spotlight_index"]?.rules?.enabled == false)
        #expect(await active.generation == 2, "loaded once, not again and again")
    }
}
