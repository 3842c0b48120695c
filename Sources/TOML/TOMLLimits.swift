/// How much one document may hold: checked while it is read, so a text built to exhaust the reader (a huge file,
/// deep nesting, a key of thousands of parts) is refused where it crosses the budget, before anything grows.
public struct TOMLLimits: Sendable, Hashable {
    /// Largest text accepted, in bytes of UTF-8 (a leading byte-order mark included).
    public var maxBytes = 1 << 20
    /// Most values in the document: every string, number, boolean, date, array and table counts one, the root
    /// table included.
    public var maxValues = 100_000
    /// Deepest nesting of arrays and tables, the root table being level 0: each part of a table header or a dotted
    /// key, each array and each inline table goes one level down, and an array of tables counts two (the array
    /// and its element). Values above 1,000 are read as 1,000, so the finished tree stays shallow enough to be
    /// walked and freed on any thread's stack.
    public var maxDepth = 64

    public init() {}

    /// The defaults: 1 MiB, 100,000 values, 64 levels.
    public static let standard = TOMLLimits()

    /// The nesting ceiling whatever `maxDepth` says.
    static let depthCeiling = 1000

    /// `maxDepth` kept within 0...``depthCeiling``.
    var effectiveMaxDepth: Int { min(max(maxDepth, 0), Self.depthCeiling) }
}
