import Foundation
import FuzzSupport
import SchedulerConfig
import Testing

/// Mutated config files, loaded in process: each load returns a configuration or located problems; never a
/// crash, never a hang (the suite is bounded and seeded).
@Suite("Fuzzing the config loader")
struct ConfigFuzzTests {
    @Test(arguments: [("scheduler.yaml", UInt64(11)), ("gates.yaml", 12), ("experiments.yaml", 13)])
    func mutatedFilesLoadOrReportProblemsWithLocations(file: String, seed: UInt64) throws {
        var mutator = Mutator(seed: seed)
        let original = [
            "scheduler.yaml": ConfigFolder.scheduler, "gates.yaml": ConfigFolder.gates, "experiments.yaml": ConfigFolder.experiments,
        ][file]!
        let folder = try ConfigFolder()
        for _ in 0..<400 {
            let text = mutator.mutate(original)
            try folder.write(file, text)
            do {
                _ = try folder.load()
            } catch {
                #expect(!error.problems.isEmpty, "a refused config says why:\n\(text)")
                for problem in error.problems {
                    #expect(!problem.message.isEmpty)
                    #expect(problem.message.count < 2000, "one problem stays short: \(problem.message.prefix(200))")
                }
            }
        }
    }
}
