public import Foundation

/// Tells the current date. Passed in wherever the host compares dates, so tests can move time (plugins get the run's
/// instant in their context instead).
public protocol WallClock: Sendable {
    /// The current instant.
    func now() -> Date
}

/// The system's real-time clock.
public struct SystemWallClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// The system's clock moved by a fixed offset: `scheduler run --clock-offset`, for drills of clock skew between
/// replicas (leases and fencing use the database's clock, so a replica whose clock is off must still never run a unit
/// twice).
public struct OffsetWallClock: WallClock {
    public var offset: TimeInterval
    public init(offset: TimeInterval) { self.offset = offset }
    public func now() -> Date { Date().addingTimeInterval(offset) }
}

/// A clock stopped at one instant: `run-once --at` and tests use it to evaluate a pass as of a date.
public struct FixedWallClock: WallClock {
    public var date: Date
    public init(_ date: Date) { self.date = date }
    public func now() -> Date { date }
}
