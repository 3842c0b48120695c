import Foundation
public import PluginAPI

/// Checks every source plugin should pass, for any plugin's own tests: its declaration is well formed,
/// the options it should refuse are refused, its items are valid and in the unit's domain, and it stops
/// when its consumer is cancelled.
///
/// Each check returns the violations it found, in words; an empty list means the plugin conforms.
public enum PluginConformance {
    /// The kind, summary and option list: a lowercase kind, a summary, uniquely named options.
    public static func declaration<P: SourcePlugin>(of plugin: P.Type) -> [String] {
        var violations: [String] = []
        if P.kind.isEmpty || !P.kind.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" }) {
            violations.append("kind '\(P.kind)' must be lowercase letters, digits and dashes")
        }
        if P.summary.isEmpty { violations.append("the summary is empty") }
        let names = P.options.map(\.name)
        if Set(names).count != names.count { violations.append("an option is declared twice: \(names)") }
        if P.options.contains(where: { $0.summary.isEmpty }) { violations.append("every option needs a summary") }
        return violations
    }

    /// Each of `invalid` must be refused by `validate(_:)` with the name of a declared option.
    public static func refuses<P: SourcePlugin>(_ plugin: P.Type, invalid: [P.Options]) -> [String] {
        var violations: [String] = []
        for (index, options) in invalid.enumerated() {
            do throws(PluginOptionError) {
                try P.validate(options)
                violations.append("invalid options #\(index) were accepted")
            } catch where !P.options.contains(where: { $0.name == error.option }) {
                violations.append("the refusal names '\(error.option)', which is not a declared option")
            } catch {}
        }
        return violations
    }

    /// What a plugin sent, in order.
    public enum Sent: Sendable, Hashable {
        case item(SearchableItem)
        case delete(String)
        case state(SyncState)
    }

    /// A sink that keeps everything sent.
    struct Collector: ItemSink {
        var sent: [Sent] = []
        mutating func send(_ item: SearchableItem) async throws { sent.append(.item(item)) }
        mutating func delete(identifier: String) async throws { sent.append(.delete(identifier)) }
        mutating func send(state: SyncState) async throws { sent.append(.state(state)) }

        var items: [SearchableItem] { sent.compactMap { if case .item(let item) = $0 { item } else { nil } } }
    }

    /// A sink that counts items and signals once `target` have arrived.
    struct Counter: ItemSink {
        let target: Int
        let reached: AsyncStream<Void>.Continuation
        var count = 0
        mutating func send(_ item: SearchableItem) async throws {
            count += 1
            if count == target { reached.yield() }
        }
        mutating func delete(identifier: String) async throws {}
        mutating func send(state: SyncState) async throws {}
    }

    /// Runs the plugin to its end: every item must be valid and within the context's domain. Returns the
    /// items, and the violations.
    public static func items<P: SourcePlugin>(of plugin: P) async -> (items: [SearchableItem], violations: [String], error: (any Error)?) {
        let run = await sent(by: plugin)
        return (run.sent.compactMap { if case .item(let item) = $0 { item } else { nil } }, run.violations, run.error)
    }

    /// Runs the plugin to its end: everything it sent, in order (items, deletions, states), every item valid.
    public static func sent<P: SourcePlugin>(by plugin: P) async -> (sent: [Sent], violations: [String], error: (any Error)?) {
        var collector = Collector()
        var violations: [String] = []
        do {
            try await plugin.produce(into: &collector)
        } catch {
            return (collector.sent, violations, error)
        }
        let items = collector.items
        for item in items {
            do {
                try item.validate()
            } catch {
                violations.append("item '\(item.uniqueIdentifier)' is invalid: \(error)")
            }
        }
        return (collector.sent, violations, nil)
    }

    /// Cancels the task producing the plugin's items once it has sent `afterItems` items (0: at once) and
    /// checks that production ends within `bound` of the cancellation, rather than running on or hanging. (The bound
    /// counts from the cancellation: a start slowed by a busy machine is not a failure.)
    public static func honoursCancellation<P: SourcePlugin>(_ plugin: P, afterItems: Int = 0, bound: Duration = .seconds(30)) async -> [String] {
        let (cancelled, cancelling) = AsyncStream.makeStream(of: Void.self)
        let stopped = await withTaskGroup(of: Bool.self) { outer in
            outer.addTask {
                await withTaskGroup(of: Void.self) { inner in
                    let (reached, signal) = AsyncStream.makeStream(of: Void.self)
                    inner.addTask {
                        if afterItems == 0 { signal.yield() }
                        var counter = Counter(target: afterItems, reached: signal)
                        try? await plugin.produce(into: &counter)
                        signal.finish()
                    }
                    for await _ in reached { break }
                    cancelling.yield()
                    inner.cancelAll()
                }
                return true
            }
            outer.addTask {
                for await _ in cancelled { break }
                try? await Task.sleep(for: bound)
                return false
            }
            let first = await outer.next() ?? false
            outer.cancelAll()
            return first
        }
        return stopped ? [] : ["production did not stop within \(bound) of its task being cancelled"]
    }
}
