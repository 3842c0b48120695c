public import Foundation
public import HostSupport
import Synchronization

/// A wall clock a test sets by hand: time under the test's control, read by a store or a pass as the real one.
public final class SettableClock: WallClock {
    private let current: Mutex<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 0)) { current = Mutex(start) }

    public func set(_ date: Date) { current.withLock { $0 = date } }

    public func now() -> Date { current.withLock { $0 } }
}
