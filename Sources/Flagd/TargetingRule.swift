/// A targeting rule, checked when its file loaded: every operator is one flagd documents and every `$ref` is
/// replaced by the evaluator it names. (An operator given the wrong number of arguments loads, as in flagd, and
/// answers `null` when it runs.)
public indirect enum TargetingRule: Sendable, Hashable {
    /// A value written as is: a variant name, a weight, a string to compare with.
    case literal(FlagValue)
    /// A list whose elements are rules (a `fractional` bucket, the list `in` looks in).
    case list([TargetingRule])
    /// An operator applied to its arguments.
    case operation(TargetingOperator, [TargetingRule])
}
