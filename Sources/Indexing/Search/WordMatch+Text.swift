extension WordMatch {
    /// Whether the folded words of `texts` (as every store folds them, ``TextFolding``) satisfy this match, compared by their
    /// UTF-8 bytes: what a candidate from ``WordPostings`` is checked with when its words may have changed.
    package func isSatisfied(byWordsOf texts: [String?]) -> Bool {
        var words: [[UInt8]] = []
        for case let text? in texts {
            TextFolding.forEachWord(in: text) { word in
                words.append(Array(word))
                return true
            }
        }
        return isSatisfied { term, isPrefix in
            words.contains { word in isPrefix ? word.starts(with: term.utf8) : word.elementsEqual(term.utf8) }
        }
    }
}
