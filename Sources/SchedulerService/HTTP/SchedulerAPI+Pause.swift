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
        } catch let refusal as KnownSources.Refusal {
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
        } catch let refusal as KnownSources.Refusal {
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

extension SchedulerAPI {
    /// What a cancel did: the units asked to stop, and whether a queued forced run was dropped.
    struct Cancelled: Encodable {
        var source: String
        var units: [String]
        var droppedQueuedRun: Bool
        var status: String
    }

    /// `POST /sources/{name}/cancel` (admin): drops the source's forced run queued here, and asks its runs going now,
    /// on whatever replica, to stop within seconds (their plugins stopped, nothing committed after); 409 when there is neither.
    func cancel(source: String, by: String) async throws(APIError) -> Cancelled {
        let sources = await active.current.scheduler.sources.map(\.name)
        do {
            try KnownSources.require(source, among: sources)
        } catch {
            throw APIError(.badRequest, error.description)
        }
        let dropped = trigger.dropForced(source: source)
        let units: [String]
        do {
            units = try await storeDeadline.run { [store] in try await store.requestCancel(source: source, by: by) }
        } catch {
            throw await unavailable(error)
        }
        guard dropped || !units.isEmpty else {
            throw APIError(.conflict, "nothing to cancel: no unit of source '\(source)' is running, and no forced run of it is queued")
        }
        let stopping = units.isEmpty ? "" : "\(units.joined(separator: ", ")) stop\(units.count == 1 ? "s" : "") within seconds (the plugin is stopped; what was committed stays)"
        let status = [dropped ? "the queued forced run was dropped" : "", stopping].filter { !$0.isEmpty }.joined(separator: "; ")
        return Cancelled(source: source, units: units, droppedQueuedRun: dropped, status: status)
    }
}
