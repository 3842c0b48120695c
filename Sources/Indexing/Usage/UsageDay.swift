public import Foundation

/// The days opens and searches are counted by: whole days since 1970-01-01, UTC.
public enum UsageDay {
    /// The day `date` falls on.
    public static func of(_ date: Date) -> Int {
        Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
    }

    /// How many days `duration` spans, a started day counting whole.
    public static func count(in duration: Duration) -> Int {
        Int((duration.seconds / 86_400).rounded(.up))
    }
}
