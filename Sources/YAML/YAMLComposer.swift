import CYAML

/// How much one document may hold: checked while it is composed, so a document built to explode (an alias bomb,
/// a deep nesting) is refused at the event that crosses the budget, before anything grows.
public struct YAMLLimits: Sendable {
    /// Largest text accepted, in bytes.
    public var maxBytes = 1 << 20
    /// Most nodes once aliases are expanded (each use of an alias counts its whole anchored node).
    public var maxNodes = 100_000
    /// Deepest nesting of collections.
    public var maxDepth = 64
    /// Longest scalar, in bytes.
    public var maxScalarBytes = 256 * 1024
    /// Most anchors a document may define.
    public var maxAnchors = 1000
    /// Most keys in one mapping.
    public var maxKeys = 100_000

    public init() {}

    public static let standard = YAMLLimits()
}

/// Composes one YAML document from libyaml's events into ``YAMLNode``s.
///
/// Strict on purpose: a second document, a complex key (`? `), a merge key (`<<`), a duplicate key and any tag
/// outside the YAML 1.2 core schema (`!!str !!int !!float !!bool !!null !!seq !!map`) are refused with their
/// position, never silently ignored. Scalars keep their text and style; the reader resolves them by the schema
/// of the field they fill (see `YAMLNode+CoreSchema`).
public enum YAMLComposer {
    /// The document in `text`, or `nil` when the text holds none (empty, or only comments).
    public static func compose(_ text: String, limits: YAMLLimits = .standard, duplicateKeys: YAMLDuplicateKeys = .refused) throws(YAMLError) -> YAMLNode? {
        try compose(Array(text.utf8), limits: limits, duplicateKeys: duplicateKeys)
    }

    /// The document in the UTF-8 bytes `bytes`, or `nil` when they hold none.
    public static func compose(_ bytes: [UInt8], limits: YAMLLimits = .standard, duplicateKeys: YAMLDuplicateKeys = .refused) throws(YAMLError) -> YAMLNode? {
        guard bytes.count <= limits.maxBytes else {
            throw YAMLError("the text is \(bytes.count) bytes, over the limit of \(limits.maxBytes); split it or shorten it", at: YAMLMark(line: 1, column: 1))
        }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { throw YAMLError("the YAML parser could not start (out of memory)", at: YAMLMark(line: 1, column: 1)) }
        defer { yaml_parser_delete(&parser) }
        return try bytes.withUnsafeBufferPointer { buffer throws(YAMLError) in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            var composition = Composition(limits: limits, duplicateKeys: duplicateKeys)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { throw syntaxError(parser, bytes: bytes, limits: limits) }
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { return composition.document }
                try composition.handle(event)
            }
        }
    }

    private static func syntaxError(_ parser: yaml_parser_t, bytes: [UInt8], limits: YAMLLimits) -> YAMLError {
        let problem = parser.problem.map { String(cString: $0) } ?? "unreadable"
        // A reader error (bad UTF-8, a control character) has an offset, not a mark.
        let mark = parser.error == YAML_READER_ERROR
            ? position(ofByte: parser.problem_offset, in: bytes)
            : YAMLMark(line: Int(parser.problem_mark.line) + 1, column: Int(parser.problem_mark.column) + 1)
        if problem.hasPrefix("Maximum nesting level reached") {
            return YAMLError("nesting deeper than \(limits.maxDepth) levels is not read", at: mark)
        }
        let context = parser.context.map { " " + String(cString: $0) } ?? ""
        return YAMLError("YAML syntax: \(problem)\(context); check the indentation, quotes and brackets here", at: mark)
    }

    /// The line and column of byte `offset`, counting line breaks as YAML does (`\n`, `\r\n`, `\r`, NEL, LS, PS).
    private static func position(ofByte offset: Int, in bytes: [UInt8]) -> YAMLMark {
        let prefix = String(decoding: bytes.prefix(offset), as: UTF8.self)
        var line = 1, column = 1, previous: Unicode.Scalar?
        for scalar in prefix.unicodeScalars {
            switch scalar {
            case "\n" where previous == "\r": break
            case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}":
                line += 1
                column = 1
            default:
                column += 1
            }
            previous = scalar
        }
        return YAMLMark(line: line, column: column)
    }
}

/// The state of one composition: the collections still open, the anchors defined, the budget spent.
private struct Composition {
    /// A collection being composed, changed in place as its children arrive: one append per child, whatever its
    /// size (an enum's payload taken out, appended to and put back was copied each time: quadratic).
    struct Frame {
        var isMapping: Bool
        var elements: [YAMLNode] = []
        var entries: [YAMLEntry] = []
        /// The key read and waiting for its value.
        var key: YAMLNode?
        var keys: Set<String> = []
        /// Nodes in the collection so far, itself included.
        var size = 1
        var mark: YAMLMark
        var tag: String?
        var anchor: String?
    }

    let limits: YAMLLimits
    var frames: [Frame] = []
    /// Anchored nodes with their expanded size.
    var anchors: [String: (node: YAMLNode, size: Int)] = [:]
    var nodes = 0
    var documents = 0
    var document: YAMLNode?

    let duplicateKeys: YAMLDuplicateKeys

    init(limits: YAMLLimits, duplicateKeys: YAMLDuplicateKeys) {
        self.limits = limits
        self.duplicateKeys = duplicateKeys
    }

    mutating func handle(_ event: yaml_event_t) throws(YAMLError) {
        let mark = YAMLMark(line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            guard documents == 1 else { throw YAMLError("a second document ('---') is not read: one file holds one document", at: mark) }
        case YAML_ALIAS_EVENT:
            let name = String(cString: event.data.alias.anchor)
            guard let anchored = anchors[name] else { throw YAMLError("the alias *\(name) names no anchor defined before it", at: mark) }
            try spend(anchored.size, at: mark, alias: name)
            // The copy is where the alias is: a problem with it points there.
            var copy = anchored.node
            copy.mark = mark
            try add(copy, size: anchored.size)
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            guard scalar.length <= limits.maxScalarBytes else {
                throw YAMLError("a value of \(scalar.length) bytes is over the limit of \(limits.maxScalarBytes)", at: mark)
            }
            try spend(1, at: mark, alias: nil)
            let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            let tag = try Self.coreTag(scalar.tag, allowed: ["str", "int", "float", "bool", "null"], at: mark)
            let node = YAMLNode(.scalar(text, style: Self.style(scalar.style)), mark: mark, tag: tag)
            try anchor(scalar.anchor, node, size: 1, at: mark)
            try add(node, size: 1)
        case YAML_SEQUENCE_START_EVENT:
            try open(at: mark)
            let tag = try Self.coreTag(event.data.sequence_start.tag, allowed: ["seq"], at: mark)
            frames.append(Frame(isMapping: false, mark: mark, tag: tag, anchor: event.data.sequence_start.anchor.map { String(cString: $0) }))
        case YAML_MAPPING_START_EVENT:
            try open(at: mark)
            let tag = try Self.coreTag(event.data.mapping_start.tag, allowed: ["map"], at: mark)
            frames.append(Frame(isMapping: true, mark: mark, tag: tag, anchor: event.data.mapping_start.anchor.map { String(cString: $0) }))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            let (node, size, name) = close()
            try anchor(name, node, size: size, at: node.mark)
            try add(node, size: size)
        default:
            break
        }
    }

    /// Counts `count` more nodes against the budget.
    private mutating func spend(_ count: Int, at mark: YAMLMark, alias: String?) throws(YAMLError) {
        nodes += count
        guard nodes > limits.maxNodes else { return }
        if let alias {
            throw YAMLError("the alias *\(alias) makes the document expand to more than \(limits.maxNodes) values (aliases repeated too often?); write it out plainly", at: mark)
        }
        throw YAMLError("the document holds more than \(limits.maxNodes) values; split it", at: mark)
    }

    private mutating func open(at mark: YAMLMark) throws(YAMLError) {
        guard frames.count < limits.maxDepth else {
            throw YAMLError("nesting deeper than \(limits.maxDepth) levels is not read", at: mark)
        }
        try spend(1, at: mark, alias: nil)
    }

    private mutating func close() -> (YAMLNode, Int, String?) {
        let frame = frames.removeLast()
        let content: YAMLNode.Content = frame.isMapping ? .mapping(frame.entries) : .sequence(frame.elements)
        return (YAMLNode(content, mark: frame.mark, tag: frame.tag), frame.size, frame.anchor)
    }

    private mutating func anchor(_ name: UnsafeMutablePointer<yaml_char_t>?, _ node: YAMLNode, size: Int, at mark: YAMLMark) throws(YAMLError) {
        try anchor(name.map { String(cString: $0) }, node, size: size, at: mark)
    }

    private mutating func anchor(_ name: String?, _ node: YAMLNode, size: Int, at mark: YAMLMark) throws(YAMLError) {
        guard let name else { return }
        guard anchors.count < limits.maxAnchors || anchors[name] != nil else {
            throw YAMLError("more than \(limits.maxAnchors) anchors are not read", at: mark)
        }
        anchors[name] = (node, size)
    }

    /// Places a finished node in the collection being composed, or as the document.
    private mutating func add(_ node: YAMLNode, size: Int) throws(YAMLError) {
        guard let last = frames.indices.last else {
            document = node
            return
        }
        frames[last].size += size
        guard frames[last].isMapping else {
            frames[last].elements.append(node)
            return
        }
        guard let key = frames[last].key else {
            guard case .scalar(let text, let style) = node.content else {
                throw YAMLError("a mapping key must be a plain name, not a list or a mapping ('? ' keys are not read)", at: node.mark)
            }
            if text == "<<", style == .plain {
                throw YAMLError("merge keys (<<) are not read; write the keys out in this mapping", at: node.mark)
            }
            guard frames[last].keys.count < limits.maxKeys else {
                throw YAMLError("a mapping with more than \(limits.maxKeys) keys is not read; split it", at: node.mark)
            }
            if !frames[last].keys.insert(text).inserted {
                guard duplicateKeys == .lastWins else {
                    throw YAMLError("duplicate key '\(YAMLErrorText.oneLine(text))': each key appears once in a mapping", at: node.mark)
                }
                frames[last].entries.removeAll { $0.key.scalarText == text }
            }
            frames[last].key = node
            return
        }
        frames[last].entries.append(YAMLEntry(key: key, value: node))
        frames[last].key = nil
    }

    /// The core-schema name of an explicit tag (`tag:yaml.org,2002:int` is `int`), `nil` without one; any other
    /// tag is refused.
    private static func coreTag(_ raw: UnsafeMutablePointer<yaml_char_t>?, allowed: Set<String>, at mark: YAMLMark) throws(YAMLError) -> String? {
        guard let raw else { return nil }
        let tag = String(cString: raw)
        if tag == "!" { return nil }
        let prefix = "tag:yaml.org,2002:"
        if tag.hasPrefix(prefix), allowed.contains(String(tag.dropFirst(prefix.count))) { return String(tag.dropFirst(prefix.count)) }
        let shown = tag.hasPrefix(prefix) ? "!!" + tag.dropFirst(prefix.count) : tag
        throw YAMLError("the tag '\(YAMLErrorText.oneLine(String(shown.prefix(80))))' is not read: only the core schema's \(allowed.sorted().map { "!!\($0)" }.joined(separator: ", ")) may be written here", at: mark)
    }

    private static func style(_ style: yaml_scalar_style_t) -> YAMLNode.Style {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: .literal
        case YAML_FOLDED_SCALAR_STYLE: .folded
        default: .plain
        }
    }
}
