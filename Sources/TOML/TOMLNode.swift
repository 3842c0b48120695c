/// One value of a TOML document with where it starts: for a table, the key or header that defines it; for an
/// array of tables, its first `[[header]]`.
public struct TOMLNode: Sendable, Equatable {
    /// What the value is.
    public var value: TOMLValue
    /// Where the value starts, or the key or header that defines the table.
    public var mark: TOMLMark

    public init(_ value: TOMLValue, mark: TOMLMark) {
        self.value = value
        self.mark = mark
    }

    /// The table, if this is one.
    public var table: TOMLTable? {
        if case .table(let table) = value { return table }
        return nil
    }

    /// The elements, if this is an array.
    public var elements: [TOMLNode]? {
        if case .array(let elements) = value { return elements }
        return nil
    }

    /// The value under `key`, if this is a table that has it.
    public subscript(key: String) -> TOMLNode? { table?[key] }

    /// The text, if this is a string.
    public var string: String? {
        if case .string(let string) = value { return string }
        return nil
    }

    /// The number, if this is an integer.
    public var integer: Int64? {
        if case .integer(let integer) = value { return integer }
        return nil
    }

    /// The truth value, if this is a boolean.
    public var boolean: Bool? {
        if case .boolean(let boolean) = value { return boolean }
        return nil
    }
}
