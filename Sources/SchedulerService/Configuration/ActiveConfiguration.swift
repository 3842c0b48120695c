public import SchedulerConfig

/// The configuration in force in the service, and the problems of the last change that was refused.
///
/// Only a configuration that loaded is ever active: a change that does not validate leaves the last good one
/// in force and is shown in `/status` until the files are fixed.
public actor ActiveConfiguration {
    public private(set) var current: SchedulerConfiguration
    /// The problems of the files on disk when they do not load; empty when the active config is what they say.
    public private(set) var rejectedProblems: [ConfigProblem] = []
    /// How many times a configuration was loaded and activated, the first included.
    public private(set) var generation = 1

    public init(_ configuration: SchedulerConfiguration) {
        current = configuration
    }

    func activate(_ configuration: SchedulerConfiguration) {
        current = configuration
        rejectedProblems = []
        generation += 1
    }

    func reject(_ problems: [ConfigProblem]) {
        rejectedProblems = problems
    }
}
