public import YAML
import Foundation

/// A flag definition file, or a part of one, that cannot be used: what is wrong, where (line and column, as editors
/// show them, and the JSON pointer of the value), and what to write instead.
public struct FlagdDefinitionError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var mark: YAMLMark
    /// The JSON pointer of the value at fault (`/flags/spotlight-index/targeting/if/0`); empty for the whole file.
    public var pointer: String

    public init(_ message: String, at mark: YAMLMark, pointer: String) {
        self.message = message
        self.mark = mark
        self.pointer = pointer
    }

    public var description: String { "\(mark): \(pointer.isEmpty ? "" : "at \(pointer): ")\(message)" }
}

/// A JSON pointer being built while a document is read (RFC 6901: `~` and `/` escaped in each token).
struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    private(set) var description = ""

    func appending(_ token: String) -> JSONPointer {
        var pointer = self
        pointer.description += "/" + token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
        return pointer
    }

    func appending(_ index: Int) -> JSONPointer { appending(String(index)) }
}
