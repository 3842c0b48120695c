/// Decodes `Decodable` values from a composed ``YAMLNode``, each scalar resolved by the core schema of the Swift type
/// it fills: a `Bool` takes `true`/`false` only, an `Int` is range-checked before conversion, a `String` takes `no` or
/// `1.10` as written. A value that does not fit throws `DecodingError` whose description starts with the node's
/// `line:column`, whose underlying error is the ``YAMLError`` (message and position), and whose coding path names the
/// key.
public struct YAMLNodeDecoder: Sendable {
    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from node: YAMLNode) throws -> T {
        try T(from: NodeDecoder(node: node, codingPath: []))
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

private struct NodeDecoder: Decoder {
    let node: YAMLNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let entries = node.entries else { throw mismatch(node, "a mapping", codingPath) }
        return KeyedDecodingContainer(Keyed<Key>(node: node, entries: entries, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard let elements = node.elements else { throw mismatch(node, "a list", codingPath) }
        return Unkeyed(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        Single(node: node, codingPath: codingPath)
    }
}

/// A type mismatch whose underlying error is the ``YAMLError``, with the node's position.
private func mismatch(_ node: YAMLNode, _ expected: String, _ path: [any CodingKey]) -> DecodingError {
    let error = YAMLError("expected \(expected)", at: node.mark)
    return .typeMismatch(Any.self, .init(codingPath: path, debugDescription: error.description, underlyingError: error))
}

private func corrupted(_ error: YAMLError, _ path: [any CodingKey]) -> DecodingError {
    .dataCorrupted(.init(codingPath: path, debugDescription: "\(error.mark): \(error.message)", underlyingError: error))
}

/// Resolves a scalar for a Swift type.
private func value<T: Decodable>(_ type: T.Type, of node: YAMLNode, at path: [any CodingKey]) throws -> T {
    do throws(YAMLError) {
        switch type {
        case is String.Type: return try node.string() as! T
        case is Bool.Type: return try node.bool() as! T
        case is Int.Type: return try node.integer(in: Int.min...Int.max) as! T
        case is Int64.Type: return Int64(try node.integer(in: Int.min...Int.max)) as! T
        case is Int32.Type: return Int32(try node.integer(in: Int(Int32.min)...Int(Int32.max))) as! T
        case is UInt.Type: return UInt(try node.integer(in: 0...Int.max)) as! T
        case is Double.Type: return try node.number(in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude) as! T
        case is Float.Type: return Float(try node.number(in: -Double(Float.greatestFiniteMagnitude)...Double(Float.greatestFiniteMagnitude))) as! T
        default: break
        }
    } catch {
        throw corrupted(error, path)
    }
    return try T(from: NodeDecoder(node: node, codingPath: path))
}

private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let node: YAMLNode
    let entries: [YAMLEntry]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { entries.compactMap { $0.key.scalarText.flatMap(Key.init(stringValue:)) } }

    func contains(_ key: Key) -> Bool { child(key) != nil }

    private func child(_ key: Key) -> YAMLNode? {
        entries.first { $0.key.scalarText == key.stringValue }?.value
    }

    private func required(_ key: Key) throws -> YAMLNode {
        guard let child = child(key) else {
            let error = YAMLError("'\(key.stringValue)' is required", at: node.mark)
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: error.description, underlyingError: error))
        }
        return child
    }

    func decodeNil(forKey key: Key) throws -> Bool { child(key)?.isNull ?? true }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try value(type, of: required(key), at: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try NodeDecoder(node: required(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try NodeDecoder(node: required(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { NodeDecoder(node: node, codingPath: codingPath) }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        NodeDecoder(node: try required(key), codingPath: codingPath + [key])
    }
}

private struct Unkeyed: UnkeyedDecodingContainer {
    let elements: [YAMLNode]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [YAMLNode], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> (YAMLNode, [any CodingKey]) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "the list has no more values"))
        }
        defer { currentIndex += 1 }
        return (elements[currentIndex], codingPath + [AnyKey(intValue: currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (node, path) = try next()
        return try value(type, of: node, at: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (node, path) = try next()
        return try NodeDecoder(node: node, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (node, path) = try next()
        return try NodeDecoder(node: node, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (node, path) = try next()
        return NodeDecoder(node: node, codingPath: path)
    }
}

private struct Single: SingleValueDecodingContainer {
    let node: YAMLNode
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { node.isNull }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try value(type, of: node, at: codingPath)
    }
}
