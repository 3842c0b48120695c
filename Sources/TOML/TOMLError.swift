/// A TOML text that cannot be read, and where: the position of the offending byte and what to write instead.
public struct TOMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the offending byte is.
    public var mark: TOMLMark
    /// What is wrong and what to write instead, on one line; text quoted from the document is cut and escaped.
    public var message: String

    public init(_ message: String, at mark: TOMLMark) {
        self.message = message
        self.mark = mark
    }

    /// `line:column: message`.
    public var description: String { "\(mark): \(message)" }
}
