public import Foundation

/// Whether the reconcile loop is alive, for `/healthz`.
public actor ServiceHealth {
    public private(set) var loopIsAlive = false
    /// When the last pass finished, if one has.
    public private(set) var lastPassFinishedAt: Date?

    public init() {}

    func loopStarted() { loopIsAlive = true }
    func loopStopped() { loopIsAlive = false }
    func passFinished(at date: Date) { lastPassFinishedAt = date }
}
