/// One flag of a flagd definition file, checked: its state, variants, default variant and targeting rule.
public struct FlagdFlag: Sendable, Hashable {
    /// Whether the flag is served; a `DISABLED` flag resolves to no variant (reason `DISABLED`).
    public enum State: String, Sendable, Hashable {
        case enabled = "ENABLED", disabled = "DISABLED"
    }

    public var key: String
    public var state: State
    /// The variants by name, with their values.
    public var variants: [String: FlagValue]
    /// The variant served when no rule picks one; `nil` defers to the caller's fallback value.
    public var defaultVariant: String?
    /// The rule that picks a variant; `nil` (or `{}` in the file) when the flag has none.
    public var targeting: TargetingRule?
    public var metadata: [String: FlagValue]

    /// The value of the variant named with exactly `name`'s bytes (flagd compares names as Go strings, so `é` and
    /// `e` followed by a combining accent are two names); `nil` when there is none.
    public func value(ofVariant name: String) -> FlagValue? {
        variants.first { $0.key.utf8.elementsEqual(name.utf8) }?.value
    }
}
