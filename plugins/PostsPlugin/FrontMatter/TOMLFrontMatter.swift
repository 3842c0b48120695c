import TOML
import YAML

/// TOML front matter (`+++` … `+++`, Hugo and Zola) read by the strict TOML 1.0 reader and turned into the nodes
/// YAML front matter gives, so both are read by the same rules and limits.
///
/// Each value keeps the line TOML found it on; dates and times become their RFC 3339 text, which the date fields
/// read; strings stay text whatever they spell (`"true"` is not a boolean). The reader is ours, in Swift: the C++
/// library used before aborted the process on a six-byte post.
enum TOMLFrontMatter {
    static func compose(_ text: Substring, firstLine: Int, limits: YAMLLimits) throws(FrontMatterProblem) -> YAMLNode {
        guard text.utf8.count <= limits.maxBytes else {
            throw FrontMatterProblem(line: firstLine, "the front matter is larger than \(limits.maxBytes) bytes")
        }
        var tomlLimits = TOMLLimits()
        tomlLimits.maxBytes = limits.maxBytes
        tomlLimits.maxValues = limits.maxNodes
        tomlLimits.maxDepth = limits.maxDepth
        let table: TOMLTable
        do {
            table = try TOMLParser.parse(String(text), limits: tomlLimits)
        } catch {
            throw FrontMatterProblem(line: firstLine - 1 + error.mark.line, "TOML syntax: \(error.message)")
        }
        return try node(TOMLNode(.table(table), mark: TOMLMark(line: 1, column: 1)), firstLine: firstLine, limits: limits)
    }

    /// The YAML node of `toml`; the depth is bounded by the reader's limits, so this recursion is too.
    private static func node(_ toml: TOMLNode, firstLine: Int, limits: YAMLLimits) throws(FrontMatterProblem) -> YAMLNode {
        let mark = YAMLMark(line: toml.mark.line, column: toml.mark.column)
        func plain(_ text: String) -> YAMLNode { YAMLNode(.scalar(text, style: .plain), mark: mark) }
        switch toml.value {
        case .table(let table):
            guard table.count <= limits.maxKeys else {
                throw FrontMatterProblem(line: firstLine - 1 + mark.line, "a table with more than \(limits.maxKeys) keys is not read; split it")
            }
            var entries: [YAMLEntry] = []
            entries.reserveCapacity(table.count)
            for entry in table.entries {
                let value = try node(entry.node, firstLine: firstLine, limits: limits)
                entries.append(YAMLEntry(key: YAMLNode(.scalar(entry.key, style: .doubleQuoted), mark: value.mark), value: value))
            }
            return YAMLNode(.mapping(entries), mark: mark)
        case .array(let elements):
            var nodes: [YAMLNode] = []
            nodes.reserveCapacity(elements.count)
            for element in elements { nodes.append(try node(element, firstLine: firstLine, limits: limits)) }
            return YAMLNode(.sequence(nodes), mark: mark)
        case .string(let text):
            return YAMLNode(.scalar(text, style: .doubleQuoted), mark: mark)
        case .integer(let number):
            return plain(String(number))
        case .float(let number):
            // The core schema's spellings of the values TOML writes inf and nan.
            return plain(number.isNaN ? ".nan" : number.isInfinite ? (number < 0 ? "-.inf" : ".inf") : "\(number)")
        case .boolean(let flag):
            return plain(flag ? "true" : "false")
        case .offsetDateTime(let text), .localDateTime(let text), .localDate(let text), .localTime(let text):
            return plain(nanosecondPrecision(text))
        }
    }

    /// `text` with a fraction of a second cut to 9 digits: TOML allows any number, dates are read to the nanosecond.
    private static func nanosecondPrecision(_ text: String) -> String {
        guard let dot = text.firstIndex(of: ".") else { return text }
        let digits = text[text.index(after: dot)...].prefix { $0.isASCII && $0.isNumber }
        guard digits.count > 9 else { return text }
        return String(text[...dot]) + digits.prefix(9) + text[digits.endIndex...]
    }
}
