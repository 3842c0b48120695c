extension TOMLReader {
    /// Reads an integer or a float: decimal with `_` between digits, `0x` `0o` `0b` integers, exponents,
    /// `inf` and `nan` with an optional sign. Integers outside 64 bits and floats too large for a `Double` are
    /// refused, not rounded.
    mutating func readNumber() throws(TOMLError) -> TOMLValue {
        let first = pos
        var tokenEnd = pos
        while Self.isNumberByte(byte(tokenEnd)) { tokenEnd &+= 1 }
        let token = String(decoding: bytes[first..<tokenEnd], as: UTF8.self)
        let shown = TOMLErrorText.oneLine(token)

        var index = first
        var negative = false
        let sign = byte(index)
        if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            index &+= 1
        }
        let unsigned = bytes[index..<tokenEnd]
        if unsigned.elementsEqual("inf".utf8) {
            pos = tokenEnd
            return .float(negative ? -.infinity : .infinity)
        }
        if unsigned.elementsEqual("nan".utf8) {
            pos = tokenEnd
            return .float(negative ? -.nan : .nan)
        }

        // 0x, 0o, 0b: unsigned, any leading zeros.
        if byte(index) == UInt8(ascii: "0"), let radix = Self.radix(byte(index &+ 1)) {
            if index > first {
                throw failure("'\(shown)': hexadecimal, octal and binary integers take no sign; write the number in decimal", at: first)
            }
            let value = try radixInteger(digitsFrom: index &+ 2, to: tokenEnd, radix: radix, token: shown, first: first)
            pos = tokenEnd
            return .integer(value)
        }
        let (integerEnd, isFloat) = try scanDecimal(from: index, to: tokenEnd, token: shown)
        pos = tokenEnd
        if isFloat {
            var digits = ""
            digits.unicodeScalars.append(contentsOf: bytes[first..<tokenEnd].lazy.filter { $0 != UInt8(ascii: "_") }.map { Unicode.Scalar($0) })
            guard let value = Double(digits), value.isFinite else {
                throw failure("'\(shown)' is too large for a 64-bit float (about ±1.8e308 at most)", at: first)
            }
            return .float(value)
        }
        return .integer(try decimalInteger(index..<integerEnd, negative: negative, token: shown, first: first))
    }

    /// The value of the digits of `radix` from `start`, which must end at `tokenEnd`: `0x`, `0o` and `0b` integers.
    private mutating func radixInteger(digitsFrom start: Int, to tokenEnd: Int, radix: Int, token shown: String, first: Int) throws(TOMLError) -> Int64 {
        let digitsEnd = try scanDigits(from: start, radix: radix, token: shown)
        guard digitsEnd == tokenEnd else {
            throw failure("'\(shown)' is not a base-\(radix) integer: unexpected \(describe(at: digitsEnd))", at: digitsEnd)
        }
        var value: Int64 = 0
        for offset in start..<digitsEnd where byte(offset) != UInt8(ascii: "_") {
            guard let digit = Self.hexValue(byte(offset)) else { continue }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: Int64(radix))
            let (sum, overflow2) = shifted.addingReportingOverflow(Int64(digit))
            guard !overflow, !overflow2 else {
                throw failure("'\(shown)' does not fit in a 64-bit integer (at most 0x7FFFFFFFFFFFFFFF)", at: first)
            }
            value = sum
        }
        return value
    }

    /// Checks a decimal number from `start` (after its sign) to `tokenEnd`: an integer part without leading zeros,
    /// then an optional fraction and exponent. The end of the integer part, and whether the number is a float.
    private mutating func scanDecimal(from start: Int, to tokenEnd: Int, token shown: String) throws(TOMLError) -> (integerEnd: Int, isFloat: Bool) {
        let integerEnd = try scanDigits(from: start, radix: 10, token: shown)
        if byte(start) == UInt8(ascii: "0"), integerEnd &- start > 1 {
            throw failure("'\(shown)' has a leading zero, which TOML does not allow; write it without (or 0o… for octal)", at: start)
        }
        var index = integerEnd
        var isFloat = false
        if byte(index) == UInt8(ascii: ".") {
            isFloat = true
            guard Self.isDigit(byte(index &+ 1)) else {
                throw failure("'\(shown)': a decimal point needs digits on both sides, as in 1.0", at: index &+ 1)
            }
            index = try scanDigits(from: index &+ 1, radix: 10, token: shown)
        }
        if byte(index) == UInt8(ascii: "e") || byte(index) == UInt8(ascii: "E") {
            isFloat = true
            index &+= 1
            if byte(index) == UInt8(ascii: "+") || byte(index) == UInt8(ascii: "-") { index &+= 1 }
            guard Self.isDigit(byte(index)) else {
                throw failure("'\(shown)': an exponent needs digits, as in 1e6 or 2.5E-3", at: index)
            }
            index = try scanDigits(from: index, radix: 10, token: shown)
        }
        guard index == tokenEnd else {
            throw failure("'\(shown)' is not a number: unexpected \(describe(at: index)) (strings need quotes; numbers are written 42, -1_000, 3.14, 1e6, 0xFF, inf, nan)", at: index)
        }
        return (integerEnd, isFloat)
    }

    /// The value of the decimal digits at `digits` (underscores skipped), negated when `negative`, refused past 64 bits.
    private mutating func decimalInteger(_ digits: Range<Int>, negative: Bool, token shown: String, first: Int) throws(TOMLError) -> Int64 {
        var value: Int64 = 0
        for offset in digits where byte(offset) != UInt8(ascii: "_") {
            let digit = Int64(byte(offset) &- 0x30)
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflow, !overflow2 else {
                throw failure("'\(shown)' does not fit in a 64-bit integer (-9223372036854775808 to 9223372036854775807)", at: first)
            }
            value = sum
        }
        return value
    }

    /// The end of the digits of `radix` from `start`, with an underscore allowed only between two digits.
    private mutating func scanDigits(from start: Int, radix: Int, token: String) throws(TOMLError) -> Int {
        guard Self.isDigit(byte(start), radix: radix) else {
            if byte(start) == UInt8(ascii: "_") {
                throw failure("'\(token)': an underscore must sit between two digits", at: start)
            }
            throw failure("'\(token)' is not a number: expected \(TOMLErrorText.article(Self.radixName(radix))) digit, found \(describe(at: start))", at: start)
        }
        var index = start &+ 1
        while true {
            let byte = byte(index)
            if Self.isDigit(byte, radix: radix) {
                index &+= 1
            } else if byte == UInt8(ascii: "_") {
                guard Self.isDigit(self.byte(index &+ 1), radix: radix) else {
                    throw failure("'\(token)': an underscore must sit between two digits", at: index)
                }
                index &+= 1
            } else {
                return index
            }
        }
    }

    /// Bytes a number token is made of; the token is read whole, then checked.
    static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"): true
        default: false
        }
    }

    private static func radix(_ letter: UInt8) -> Int? {
        switch letter {
        case UInt8(ascii: "x"): 16
        case UInt8(ascii: "o"): 8
        case UInt8(ascii: "b"): 2
        default: nil
        }
    }

    private static func radixName(_ radix: Int) -> String {
        switch radix {
        case 16: "hexadecimal"
        case 8: "octal"
        case 2: "binary"
        default: "decimal"
        }
    }

    private static func isDigit(_ byte: UInt8, radix: Int) -> Bool {
        switch radix {
        case 16: hexValue(byte) != nil
        case 8: byte >= 0x30 && byte <= 0x37
        case 2: byte == 0x30 || byte == 0x31
        default: isDigit(byte)
        }
    }
}
