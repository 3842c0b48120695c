import Foundation
import YAML

extension OpenAPIContract {
    /// The document, as JSON (keys sorted): the YAML read by the core schema, as every YAML reader of OpenAPI reads it.
    public static let json: [UInt8] = {
        do {
            guard let root = try YAMLComposer.compose(yaml) else { fatalError("OpenAPIContract.yaml is empty") }
            return Array(try JSONSerialization.data(withJSONObject: value(of: root), options: [.sortedKeys, .withoutEscapingSlashes]))
        } catch {
            // The document is this module's own text, checked by its tests: not input.
            fatalError("OpenAPIContract.yaml does not read as JSON: \(error)")
        }
    }()

    /// A node as JSON: quoted scalars are strings; plain ones null, booleans, numbers or strings, as they look.
    private static func value(of node: YAMLNode) -> Any {
        switch node.content {
        case .mapping(let entries):
            return Dictionary(entries.map { ($0.key.scalarText ?? "", value(of: $0.value)) }, uniquingKeysWith: { first, _ in first })
        case .sequence(let elements):
            return elements.map(value(of:))
        case .scalar(let text, let style):
            guard style == .plain else { return text }
            if node.isNull { return NSNull() }
            if text == "true" || text == "false" { return text == "true" }
            if let integer = Int(text) { return integer }
            if text.contains("."), let number = Double(text) { return number }
            return text
        }
    }
}
