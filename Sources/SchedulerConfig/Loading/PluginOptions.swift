import PluginAPI
import YAML

/// A plugin's `options:` checked against what the plugin declares, then decoded into its `Options` type.
enum PluginOptions {
    /// Logs every problem with `options` for `plugin`; `owner` is the node problems without a key point at.
    static func check(
        _ plugin: any SourcePlugin.Type, _ options: YAMLNode, owner: YAMLNode, in site: PluginValidationContext, reader: NodeReader, context: String
    ) {
        let known = plugin.options.map(\.name)
        guard let entries = reader.mapping(options, "the options of \(context)", known: known) else { return }
        for required in plugin.options where required.isRequired && !entries.contains(where: { $0.key == required.name }) {
            reader.problem(owner, "\(context): plugin '\(plugin.kind)' needs the option '\(required.name)' (\(required.summary))")
        }
        do {
            try validate(plugin, options, in: site)
        } catch let error as PluginOptionError {
            let node = entries.first { $0.key == error.option }?.value ?? owner
            reader.problem(node, "\(context): \(error)")
        } catch let error as DecodingError {
            let (mark, message) = describe(error)
            reader.problem(at: mark ?? owner.mark, "\(context): \(message)")
        } catch {
            reader.problem(owner, "\(context): \(error)")
        }
    }

    /// The plugin's options decoded from `node` and validated by the plugin.
    static func decode<P: SourcePlugin>(_ plugin: P.Type, _ node: YAMLNode) throws -> P.Options {
        let options = try YAMLNodeDecoder().decode(P.Options.self, from: node)
        try P.validate(options)
        return options
    }

    private static func validate<P: SourcePlugin>(_ plugin: P.Type, _ node: YAMLNode, in site: PluginValidationContext) throws {
        try P.validate(try YAMLNodeDecoder().decode(P.Options.self, from: node), in: site)
    }

    /// Where the problem is, when the decoder knows, and what it is, naming the option.
    private static func describe(_ error: DecodingError) -> (YAMLMark?, String) {
        func name(_ path: [any CodingKey]) -> String { path.map(\.stringValue).joined(separator: ".") }
        switch error {
        case .keyNotFound(let key, let context):
            return ((context.underlyingError as? YAMLError)?.mark, "option '\(name(context.codingPath + [key]))' is required")
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            if let yaml = context.underlyingError as? YAMLError {
                return (yaml.mark, "option '\(name(context.codingPath))': \(yaml.message)")
            }
            return (nil, "option '\(name(context.codingPath))': \(context.debugDescription)")
        @unknown default:
            return (nil, "\(error)")
        }
    }
}
