/// Refuses aliases and complex values used as mapping keys, before parsing.
///
/// The YAML parser compares mapping keys by hashing them whole; a key that is an alias of a deeply aliased
/// node would be hashed in exponential time. Config keys are plain names, so such keys are never needed.
enum AliasKeyCheck {
    static func problem(in text: String, file: String) -> ConfigProblem? {
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(rawLine.drop { $0 == " " || $0 == "\t" })
            while line.hasPrefix("- ") { line = line.dropFirst(2).drop { $0 == " " } }
            let column = rawLine.count - line.count + 1
            if line.hasPrefix("? ") || line == "?" {
                return ConfigProblem(file: file, line: index + 1, column: column, message: "complex mapping keys ('? ') are not supported")
            }
            if line.hasPrefix("*"), isAliasKey(line) {
                return ConfigProblem(file: file, line: index + 1, column: column, message: "an alias cannot be used as a mapping key")
            }
            var rest = line
            while let brace = rest.firstIndex(where: { $0 == "{" || $0 == "," }) {
                let after = rest[rest.index(after: brace)...].drop { $0 == " " }
                if after.hasPrefix("*"), isAliasKey(after) {
                    return ConfigProblem(file: file, line: index + 1, column: nil, message: "an alias cannot be used as a mapping key")
                }
                rest = rest[rest.index(after: brace)...]
            }
        }
        return nil
    }

    /// Whether `text`, starting with `*`, is an alias followed by `:`.
    private static func isAliasKey(_ text: Substring) -> Bool {
        let afterName = text.dropFirst().drop { !" \t:,{}[]".contains($0) }
        return afterName.drop { $0 == " " || $0 == "\t" }.hasPrefix(":")
    }
}
