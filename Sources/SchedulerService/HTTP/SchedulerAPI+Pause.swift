import Engine
import Foundation
import Hummingbird
import Store

extension SchedulerAPI {
    /// `POST /sources/{name}/pause` (admin): ``OperatorPause/pause(source:sources:by:at:store:)``, said to have come
    /// from `by`; the loop wakes, so the metrics say so.
    func pause(source: String, by: String) async throws(APIError) -> OperatorPause.Change {
        let sources = await active.current.scheduler.sources.map(\.name)
        do {
            let change = try await storeDeadline.run { [store] in
                try await OperatorPause.pause(source: source, sources: sources, by: by, at: Date(), store: store)
            }
            // A pass now, so the status, the page and the metrics (overdue, paused) show the pause at once.
            if change.changed { trigger.wake(.tick) }
            return change
        } catch let refusal as OperatorPause.Refusal {
            throw APIError(.badRequest, refusal.description)
        } catch {
            throw await unavailable(error)
        }
    }

    /// `POST /sources/{name}/resume` (admin): ``OperatorPause/resume(source:sources:store:)``; the loop wakes so a
    /// unit that came due while paused runs now.
    func resume(source: String) async throws(APIError) -> OperatorPause.Change {
        let sources = await active.current.scheduler.sources.map(\.name)
        do {
            let change = try await storeDeadline.run { [store] in try await OperatorPause.resume(source: source, sources: sources, store: store) }
            if change.changed { trigger.wake(.tick) }
            return change
        } catch let refusal as OperatorPause.Refusal {
            throw APIError(.badRequest, refusal.description)
        } catch {
            throw await unavailable(error)
        }
    }

    /// Refuses a forced run of a paused source (409): the pass would leave it alone, and the operator should know.
    func refuseIfPaused(_ source: String) async throws(APIError) {
        let pause: SourcePause?
        do {
            pause = try await storeDeadline.run { [store] in try await store.pausedSources()[source] }
        } catch {
            throw await unavailable(error)
        }
        if let pause { throw APIError(.conflict, "\(pause.reason); nothing was queued") }
    }
}
