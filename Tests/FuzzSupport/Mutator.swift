/// Deterministic mutations of valid inputs (config files, item lines, queries): flipped, inserted, deleted and
/// repeated bytes, truncations, and tokens that parsers are known to mishandle.
public struct Mutator: Sendable {
    /// Tokens worth splicing in: YAML and JSON syntax, huge and odd numbers, tags, aliases, FTS5 operators,
    /// encodings that break naive code.
    public static let tokens: [String] = [
        "1e19", "-1e19", "99999999999999999999", ".inf", ".nan", "0x7f", "-0", "1.5e-400", "NaN",
        "!!python/object:os.system", "!custom", "&a", "*a", "<<: *a", "? ", "---", "...", "~", "null", "yes", "no",
        "{", "}", "[", "]", ":", ",", "\"", "'", "\\", "\\u0000", "\\ud800", "#", "|", ">", "%", "@", "`", "\t", "\n", "\r\n",
        "\u{FEFF}", "\u{0}", "é", "🧀", "\u{202E}", String(repeating: "a", count: 300), String(repeating: "[", count: 200),
        "AND", "OR", "NOT", "NEAR(", "\"", "*", "^", "-", "+", "col:", "(", ")", "{title}:", "%00", "%ff", "../", "/proc/self/mem",
    ]

    public var random: SeededGenerator

    public init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    /// `input` with 1 to `maxMutations` mutations applied.
    public mutating func mutate(_ input: String, maxMutations: Int = 4) -> String {
        String(decoding: mutateBytes(input, maxMutations: maxMutations), as: UTF8.self)
    }

    /// `input`'s UTF-8 with 1 to `maxMutations` mutations applied: not always UTF-8 any more.
    public mutating func mutateBytes(_ input: String, maxMutations: Int = 4) -> [UInt8] {
        var bytes = Array(input.utf8)
        for _ in 0..<Int.random(in: 1...maxMutations, using: &random) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0...bytes.count, using: &random)
            switch Int.random(in: 0..<7, using: &random) {
            case 0 where !bytes.isEmpty && position < bytes.count:
                bytes[position] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
            case 1:
                bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
            case 2 where position < bytes.count:
                bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...8, using: &random)))
            case 3 where position < bytes.count:
                let end = min(bytes.count, position + Int.random(in: 1...40, using: &random))
                bytes.insert(contentsOf: bytes[position..<end], at: position)
            case 4:
                bytes = Array(bytes.prefix(position))
            default:
                bytes.insert(contentsOf: Array(Self.tokens.randomElement(using: &random)!.utf8), at: position)
            }
        }
        return bytes
    }
}
