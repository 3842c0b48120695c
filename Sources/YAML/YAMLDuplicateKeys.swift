/// What a mapping that holds a key twice becomes.
public enum YAMLDuplicateKeys: Sendable {
    /// An error at the second key: what this project's own files get.
    case refused
    /// The later value replaces the earlier, as Ruby's YAML reads it (Jekyll's front matter).
    case lastWins
}
