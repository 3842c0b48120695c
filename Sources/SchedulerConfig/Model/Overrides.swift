import YAML

/// The source settings an experiment variant replaces. `plugin`, `domain`, `gate` and `partitions` cannot be
/// overridden: they decide which units exist and whether they run, which must not depend on the variant.
struct Overrides: Sendable {
    static let keys = ["schedule", "expiration", "deepLink", "maxDeleteRatio", "options"]
    static let forbidden = ["plugin", "domain", "gate", "partitions"]

    var schedule: Schedule?
    var expiration: Duration?
    var deepLink: String?
    var maxDeleteRatio: Double?
    /// Option keys and their new values, merged over the source's options.
    var options: [(key: String, keyNode: YAMLNode, value: YAMLNode)] = []

    /// `settings` with these overrides applied.
    func applied(to settings: SourceSettings) -> SourceSettings {
        var result = settings
        if let schedule { result.schedule = schedule }
        if let expiration { result.expiration = expiration }
        if let deepLink { result.deepLink = deepLink }
        if let maxDeleteRatio { result.maxDeleteRatio = maxDeleteRatio }
        if !options.isEmpty {
            var entries = settings.options.entries ?? []
            for (key, keyNode, value) in options {
                if let index = entries.firstIndex(where: { $0.key.scalarText == key }) {
                    entries[index].value = value
                } else {
                    entries.append(YAMLEntry(key: YAMLNode(.scalar(key, style: .plain), mark: keyNode.mark), value: value))
                }
            }
            result.options = YAMLNode(.mapping(entries), mark: settings.options.mark)
        }
        return result
    }
}
