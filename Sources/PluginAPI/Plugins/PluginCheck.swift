/// What a plugin says of its own configuration and connection when asked (`scheduler plugins check`): a program that
/// can reach its source and read its credentials answers `ok`.
public struct PluginCheck: Sendable, Hashable, Codable {
    public var ok: Bool
    public var message: String

    public init(ok: Bool, message: String) {
        self.ok = ok
        self.message = message
    }
}
