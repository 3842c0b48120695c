/// Scalars resolved by the schema of the field that reads them (the YAML 1.2 core schema), never guessed:
/// a field wanting a boolean takes `true` or `false` only, so `enabled: no` is an error rather than a purge; a field
/// wanting a string takes `no`, `on` and `1.10` as the text they are.
extension YAMLNode {
    /// Whether the node is null: a plain `null`, `Null`, `NULL`, `~` or nothing, or tagged `!!null`.
    public var isNull: Bool {
        guard case .scalar(let text, let style) = content else { return false }
        if tag == "null" { return true }
        return style == .plain && tag == nil && ["", "~", "null", "Null", "NULL"].contains(text)
    }

    /// A boolean: plain `true` or `false` (`True`, `TRUE`, `False`, `FALSE`), or tagged `!!bool`.
    public func bool() throws(YAMLError) -> Bool {
        let text = try plainScalar(expecting: "true or false", allowedTag: "bool")
        switch text {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        case "yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF", "y", "Y", "n", "N":
            throw YAMLError("'\(text)' is not a boolean in YAML 1.2; write true or false", at: mark)
        default:
            throw YAMLError("expected true or false, not '\(Self.shown(text))'", at: mark)
        }
    }

    /// A whole number within `range`, written in decimal, `0o` octal or `0x` hexadecimal; the range is checked on the
    /// text, before any conversion could overflow.
    public func integer(in range: ClosedRange<Int>) throws(YAMLError) -> Int {
        let text = try plainScalar(expecting: "a whole number", allowedTag: "int")
        guard let value = Self.integer(text) else {
            if range == Int.min...Int.max { throw YAMLError("'\(Self.shown(text))' is not a whole number", at: mark) }
            throw YAMLError("'\(Self.shown(text))' is not a whole number; write one between \(range.lowerBound) and \(range.upperBound)", at: mark)
        }
        guard let exact = value, range.contains(exact) else {
            if range == Int.min...Int.max { throw YAMLError("'\(Self.shown(text))' is too large for a whole number", at: mark) }
            throw YAMLError("'\(Self.shown(text))' is out of range: write a whole number between \(range.lowerBound) and \(range.upperBound)", at: mark)
        }
        return exact
    }

    /// A finite number within `range` (an integer or a float of the core schema); `.inf` and `.nan` are refused.
    public func number(in range: ClosedRange<Double>) throws(YAMLError) -> Double {
        let text = try plainScalar(expecting: "a number", allowedTag: tag == "int" ? "int" : "float")
        guard let value = Self.number(text), value.isFinite else {
            throw YAMLError("expected a finite number, not '\(Self.shown(text))'", at: mark)
        }
        guard range.contains(value) else {
            throw YAMLError("\(Self.shown(text)) is out of range: write a number between \(Self.shown(range.lowerBound)) and \(Self.shown(range.upperBound))", at: mark)
        }
        return value
    }

    /// A string: any scalar that is not null, as written (`no`, `on`, `1.10` stay the text they are).
    public func string() throws(YAMLError) -> String {
        guard case .scalar(let text, _) = content else { throw YAMLError("expected a text value, not a list or a mapping", at: mark) }
        guard !isNull else { throw YAMLError("expected a text value, not null", at: mark) }
        guard tag == nil || tag == "str" else { throw YAMLError("expected a text value, not a value tagged !!\(tag ?? "")", at: mark) }
        return text
    }

    /// A plain (unquoted) scalar's text, for numbers and booleans; a quoted one is a string and refused.
    private func plainScalar(expecting expected: String, allowedTag: String) throws(YAMLError) -> String {
        guard case .scalar(let text, let style) = content else { throw YAMLError("expected \(expected), not a list or a mapping", at: mark) }
        if let tag, tag != allowedTag { throw YAMLError("expected \(expected), not a value tagged !!\(tag)", at: mark) }
        guard style == .plain || tag == allowedTag else {
            throw YAMLError("expected \(expected), not the quoted text '\(Self.shown(text))'; remove the quotes", at: mark)
        }
        return text
    }

    /// The value of a core-schema integer: `nil` when `text` is not one, `.some(nil)` when it is one too large.
    static func integer(_ text: String) -> Int?? {
        var digits = Substring(text), negative = false
        if digits.first == "-" || digits.first == "+" {
            negative = digits.first == "-"
            digits = digits.dropFirst()
        }
        var radix = 10
        if digits.hasPrefix("0x"), !negative, text.first != "+" { radix = 16; digits = digits.dropFirst(2) }
        else if digits.hasPrefix("0o"), !negative, text.first != "+" { radix = 8; digits = digits.dropFirst(2) }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isHexDigit && Int(String($0), radix: radix) != nil }) else { return nil }
        guard let magnitude = Int(digits, radix: radix) else { return .some(nil) }
        return .some(negative ? -magnitude : magnitude)
    }

    /// The value of a core-schema integer or float, `nil` when `text` is neither (`1e19` is a float: 1.0e19).
    static func number(_ text: String) -> Double? {
        switch text {
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .infinity
        case "-.inf", "-.Inf", "-.INF": return -.infinity
        case ".nan", ".NaN", ".NAN": return .nan
        default: break
        }
        if case let value?? = integer(text) { return Double(value) }
        if case .some(nil) = integer(text) { return Double(text) }
        var rest = Substring(text)
        if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }
        let mantissa = rest.prefix { $0 != "e" && $0 != "E" }
        let exponent = rest.dropFirst(mantissa.count)
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            parts.contains(where: { !$0.isEmpty })
        else { return nil }
        if !exponent.isEmpty {
            var power = exponent.dropFirst()
            if power.first == "-" || power.first == "+" { power = power.dropFirst() }
            guard !power.isEmpty, power.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        }
        return Double(text)
    }

    private static func shown(_ text: String) -> String {
        YAMLErrorText.oneLine(text)
    }

    private static func shown(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// Text for error messages.
public enum YAMLErrorText {
    /// `text` on one line, so one problem stays one line: control characters escaped, long text cut.
    public static func oneLine(_ text: String) -> String {
        let cut = text.count > 80 ? String(text.prefix(80)) + "…" : text
        return cut.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
    }
}
