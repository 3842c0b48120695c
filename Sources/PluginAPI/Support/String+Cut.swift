extension String {
    /// This text cut to at most `maxBytes` UTF-8 bytes at a character, ending with `…` when cut.
    public func cut(toUTF8Bytes maxBytes: Int) -> String {
        guard utf8.count > maxBytes else { return self }
        var bytes = 0
        return String(prefix { character in
            bytes += character.utf8.count
            return bytes <= maxBytes - 3
        }) + "…"
    }
}
