import PluginAPI
import Yams

/// A plugin's `options:` checked against what the plugin declares, then decoded into its `Options` type.
enum PluginOptions {
    /// Logs every problem with `options` for `plugin`; `owner` is the node problems without a key point at.
    static func check(_ plugin: any SourcePlugin.Type, _ options: Node, owner: Node, reader: NodeReader, context: String) {
        let known = plugin.options.map(\.name)
        guard let entries = reader.mapping(options, "the options of \(context)", known: known) else { return }
        for required in plugin.options where required.isRequired && !entries.contains(where: { $0.key == required.name }) {
            reader.problem(owner, "\(context): plugin '\(plugin.kind)' needs the option '\(required.name)' (\(required.summary))")
        }
        do {
            try validate(plugin, options)
        } catch let error as PluginOptionError {
            let node = entries.first { $0.key == error.option }?.value ?? owner
            reader.problem(node, "\(context): \(error)")
        } catch let error as DecodingError {
            reader.problem(owner, "\(context): \(describe(error))")
        } catch {
            reader.problem(owner, "\(context): \(error)")
        }
    }

    /// The plugin's options decoded from `node` and validated by the plugin.
    static func decode<P: SourcePlugin>(_ plugin: P.Type, _ node: Node) throws -> P.Options {
        let options = try YAMLDecoder().decode(P.Options.self, from: node)
        try P.validate(options)
        return options
    }

    private static func validate<P: SourcePlugin>(_ plugin: P.Type, _ node: Node) throws {
        _ = try decode(plugin, node)
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map(\.stringValue).joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "option '\((context.codingPath.map(\.stringValue) + [key.stringValue]).joined(separator: "."))' is required"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "option '\(path(context))' must be \(type == String.self ? "a string" : type == Int.self ? "a whole number" : type == Bool.self ? "true or false" : "a \(type)")"
        case .dataCorrupted(let context):
            return "option '\(path(context))': \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
