import PluginAPI

/// The check every operator's action on a source makes first: that the configuration has the source.
public enum KnownSources {
    /// What an operator asked that cannot be done, in a sentence that says what to do instead.
    public struct Refusal: Error, CustomStringConvertible {
        public var description: String
    }

    /// Throws the refusal naming the sources unless `source` is one of them.
    public static func require(_ source: String, among sources: [String]) throws(Refusal) {
        guard sources.contains(source) else { throw unknown(source, among: sources) }
    }

    /// The refusal of `source`, which is none of `sources`: the nearest one suggested, a huge name cut.
    static func unknown(_ source: String, among sources: [String]) -> Refusal {
        let shown = source.count > 80 ? String(source.prefix(80)) + "…" : source
        return Refusal(
            description: "unknown source '\(shown)'\(NearestName.suggestion(for: shown, among: sources)); the sources are \(sources.joined(separator: ", "))"
        )
    }
}
