import PluginAPI
import YAML

/// A plugin's `options:` checked against what the plugin declares, then decoded into its `Options` type and
/// validated by the plugin: once, when the config loads.
enum PluginOptions {
    /// The maker of the plugin's instances from `options`; `nil` after logging every problem with them. `owner` is
    /// the node problems without a key point at.
    static func check(
        _ plugin: any SourcePlugin.Type, _ options: YAMLNode, owner: YAMLNode, in site: PluginValidationContext, reader: NodeReader, context: String
    ) -> PluginMaker? {
        let known = plugin.options.map(\.name)
        guard let entries = reader.mapping(options, "the options of \(context)", known: known) else { return nil }
        var complete = true
        for required in plugin.options where required.isRequired && !entries.contains(where: { $0.key == required.name }) {
            reader.problem(owner, "\(context): plugin '\(plugin.kind)' needs the option '\(required.name)' (\(required.summary))")
            complete = false
        }
        do {
            let maker = try self.maker(plugin, options, in: site)
            for warning in site.warnings.all {
                reader.warning(entries.first { $0.key == warning.option }?.value ?? owner, "\(context): \(warning)")
            }
            return complete ? maker : nil
        } catch let error as PluginOptionError {
            let node = entries.first { $0.key == error.option }?.value ?? owner
            reader.problem(node, "\(context): \(error)")
        } catch let error as DecodingError {
            let (mark, message) = describe(error)
            reader.problem(at: mark ?? keyMark(of: error, in: options) ?? owner.mark, "\(context): \(message)")
        } catch {
            reader.problem(owner, "\(context): \(error)")
        }
        return nil
    }

    /// The plugin's options decoded from `node` and validated by the plugin for `site`, kept to make its instances.
    private static func maker<P: SourcePlugin>(_ plugin: P.Type, _ node: YAMLNode, in site: PluginValidationContext) throws -> PluginMaker {
        let options = try YAMLNodeDecoder().decode(P.Options.self, from: node)
        try P.validate(options, in: site)
        return PluginMaker(sync: P.sync) { context in try P(options: options, context: context) }
    }

    /// Where the key the error names lies in `options` (an option's own check of its keys: `versions.folders`), if
    /// it is there.
    private static func keyMark(of error: DecodingError, in options: YAMLNode) -> YAMLMark? {
        guard case .dataCorrupted(let context) = error, !context.codingPath.isEmpty else { return nil }
        var node = options
        var mark: YAMLMark?
        for key in context.codingPath {
            guard let entry = node.entries?.first(where: { $0.key.scalarText == key.stringValue }) else { return mark }
            (node, mark) = (entry.value, entry.key.mark)
        }
        return mark
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
