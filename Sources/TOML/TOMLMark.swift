/// A position in a TOML text, as editors show it: line and column from 1, the column counted in Unicode scalars.
public struct TOMLMark: Sendable, Hashable, CustomStringConvertible {
    /// The line, from 1; lines end at LF (a CRLF ends one line).
    public var line: Int
    /// The column, from 1, in Unicode scalars (a byte-order mark at the start is not counted).
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}
