public import Indexing

/// The `search:` section of `scheduler.yaml`: how searches treat what people type.
public struct SearchSettings: Sendable, Hashable {
    /// The typos forgiven (`search.typos`); one from 5 letters, two from 9, unless set.
    public var typos: TypoTolerance = .standard
    /// The words and phrases that find each other (`search.synonyms`); none unless set.
    public var synonyms: Synonyms = .none

    public init() {}
}
