import Yams

/// Parsed YAML carried across tasks. Yams' nodes are values whose tags refer to shared, never-mutated
/// resolver and constructor objects, so a node that is only read after parsing is safe to share.
struct SendableNode<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
