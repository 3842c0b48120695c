/// UTF-8 validation for documents given as bytes.
enum TOMLUTF8 {
    /// The offset of the first byte that does not start or continue a well-formed UTF-8 sequence (overlong forms,
    /// surrogates and values above U+10FFFF refused), or `nil` when all of `bytes` is UTF-8.
    static func firstInvalidOffset(in bytes: [UInt8]) -> Int? {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index &+= 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return index
            }
            for offset in 1..<length {
                let position = index &+ offset
                guard position < count else { return index }
                let byte = bytes[position]
                let (min, max) = offset == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
                guard byte >= min, byte <= max else { return index }
            }
            index &+= length
        }
        return nil
    }
}
