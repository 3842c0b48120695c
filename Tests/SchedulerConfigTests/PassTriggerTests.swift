import SchedulerService
import Testing

/// Wake-ups queued behind a long pass are merged into the next one, not replayed back to back.
@Suite("Waking the reconcile loop")
struct PassTriggerTests {
    @Test func wakeUpsWhileAPassRunsMergeIntoOneNextPass() async throws {
        let trigger = PassTrigger()
        for _ in 0..<10 { trigger.wake(.tick) }
        trigger.wake(.configurationChanged)
        trigger.wake(.force(source: "help"))
        trigger.wake(.force(source: "blog"))
        trigger.wake(.force(source: "help"))
        #expect(await trigger.next() == PassTrigger.Work(full: true, forced: ["help", "blog"]))

        trigger.wake(.force(source: "docs"))
        #expect(await trigger.next() == PassTrigger.Work(full: false, forced: ["docs"]), "nothing left over from before")
    }
}
