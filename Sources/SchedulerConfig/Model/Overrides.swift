import Yams

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
    var options: [(key: String, keyNode: Node, value: Node)] {
        get { optionEntries.value }
        set { optionEntries = SendableNode(newValue) }
    }
    private var optionEntries = SendableNode<[(key: String, keyNode: Node, value: Node)]>([])

    /// `settings` with these overrides applied.
    func applied(to settings: SourceSettings) -> SourceSettings {
        var result = settings
        if let schedule { result.schedule = schedule }
        if let expiration { result.expiration = expiration }
        if let deepLink { result.deepLink = deepLink }
        if let maxDeleteRatio { result.maxDeleteRatio = maxDeleteRatio }
        if !options.isEmpty {
            var pairs: [(Node, Node)] = []
            if case .mapping(let mapping) = settings.options { pairs = Array(mapping) }
            for (key, keyNode, value) in options {
                if let index = pairs.firstIndex(where: { $0.0.string == key }) {
                    pairs[index].1 = value
                } else {
                    pairs.append((.scalar(Node.Scalar(key, .implicit, .plain, keyNode.mark)), value))
                }
            }
            result.options = .mapping(Node.Mapping(pairs))
        }
        return result
    }
}
