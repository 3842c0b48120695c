/// One evaluation of a targeting rule against a context. An operator that cannot work (a version that is not one,
/// a `fractional` with nothing to bucket by or no weight) gives `null`, as in flagd, so the flag falls back to its
/// default variant; what went wrong is kept in ``failures`` for whoever must not act on a fallback.
struct TargetingEvaluation {
    /// The longest text an evaluation builds (`cat`, a list turned into text): a rule of a 1 MiB file could otherwise
    /// join the same long text thousands of times, for every unit.
    static let maxTextBytes = 64 * 1024

    /// The data `var` reads: the context's attributes, `targetingKey` and `$flagd` (`flagKey`, `timestamp`).
    let data: FlagValue
    let flagKey: String
    private(set) var failures: [String] = []

    init(data: FlagValue, flagKey: String) {
        self.data = data
        self.flagKey = flagKey
    }

    mutating func evaluate(_ rule: TargetingRule) -> FlagValue {
        switch rule {
        case .literal(let value): return value
        case .list(let rules): return .array(rules.map { evaluate($0) })
        case .operation(let operation, let arguments): return apply(operation, arguments)
        }
    }

    private mutating func apply(_ operation: TargetingOperator, _ arguments: [TargetingRule]) -> FlagValue {
        // flagd loads a rule with the wrong number of arguments and answers null when it runs: so do we.
        guard operation.arity.contains(arguments.count) else {
            let wanted = operation.arity.lowerBound == operation.arity.upperBound ? "\(operation.arity.lowerBound)"
                : operation.arity.upperBound == Int.max ? "at least \(operation.arity.lowerBound)"
                : "\(operation.arity.lowerBound) to \(operation.arity.upperBound)"
            return failure("\"\(operation.rawValue)\" takes \(wanted) arguments, not \(arguments.count)")
        }
        switch operation {
        case .if:
            var index = 0
            while index + 1 < arguments.count {
                if evaluate(arguments[index]).isTruthy { return evaluate(arguments[index + 1]) }
                index += 2
            }
            return index < arguments.count ? evaluate(arguments[index]) : .null
        case .and:
            var last = FlagValue.null
            for argument in arguments {
                last = evaluate(argument)
                if !last.isTruthy { return last }
            }
            return last
        case .or:
            var last = FlagValue.null
            for argument in arguments {
                last = evaluate(argument)
                if last.isTruthy { return last }
            }
            return last
        case .not: return .bool(!evaluate(arguments[0]).isTruthy)
        case .truthy: return .bool(evaluate(arguments[0]).isTruthy)
        case .var: return variable(arguments)
        case .cat:
            var joined = ""
            for argument in arguments {
                guard let piece = text(of: evaluate(argument)) else { return .null }
                guard joined.utf8.count + piece.utf8.count <= Self.maxTextBytes else { return failure(Self.textTooLong) }
                joined += piece
            }
            return .string(joined)
        case .equal: return .bool(Self.looselyEqual(evaluate(arguments[0]), evaluate(arguments[1])))
        case .notEqual: return .bool(!Self.looselyEqual(evaluate(arguments[0]), evaluate(arguments[1])))
        case .strictEqual: return .bool(evaluate(arguments[0]) == evaluate(arguments[1]))
        case .strictNotEqual: return .bool(evaluate(arguments[0]) != evaluate(arguments[1]))
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            let values = arguments.map { evaluate($0) }
            let holds: (FlagValue, FlagValue) -> Bool = { left, right in
                switch operation {
                case .less: Self.compare(left, right).map { $0 < 0 } ?? false
                case .lessOrEqual: Self.compare(left, right).map { $0 <= 0 } ?? false
                case .greater: Self.compare(left, right).map { $0 > 0 } ?? false
                default: Self.compare(left, right).map { $0 >= 0 } ?? false
                }
            }
            return .bool(zip(values, values.dropFirst()).allSatisfy(holds))
        case .in:
            let needle = evaluate(arguments[0]), haystack = evaluate(arguments[1])
            switch haystack {
            case .string(let haystackText):
                guard let needleText = text(of: needle) else { return .null }
                return .bool(Self.bytes(of: needleText, occurIn: haystackText))
            case .array(let values): return .bool(values.contains(needle))
            default: return .bool(false)
            }
        case .startsWith, .endsWith:
            guard case .string(let text) = evaluate(arguments[0]), case .string(let affix) = evaluate(arguments[1]) else {
                return failure("\(operation.rawValue) compares two texts")
            }
            return .bool(operation == .startsWith ? text.utf8.starts(with: affix.utf8) : text.utf8.reversed().starts(with: affix.utf8.reversed()))
        case .semanticVersion: return semanticVersion(arguments)
        case .fractional: return fractional(arguments)
        }
    }

    private mutating func failure(_ message: String) -> FlagValue {
        failures.append(message)
        return .null
    }

    /// `value` as text, or `nil` (the failure kept) when it is a list whose text would pass ``maxTextBytes``.
    private mutating func text(of value: FlagValue) -> String? {
        guard case .array = value else { return value.text }
        if let text = value.text(atMost: Self.maxTextBytes) { return text }
        _ = failure(Self.textTooLong)
        return nil
    }

    private static let textTooLong = "a text built by the rule would pass \(maxTextBytes) bytes; build shorter texts"

    /// `var`: the value at a dotted path of the data (`user.name`, `items.0`), or the default when it is missing.
    private mutating func variable(_ arguments: [TargetingRule]) -> FlagValue {
        let path = evaluate(arguments[0])
        let fallback = arguments.count > 1 ? evaluate(arguments[1]) : .null
        let components: [String]
        switch path {
        case .string(let text): components = text.isEmpty ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        case .number: components = [path.text]
        case .null: components = []
        default: return fallback
        }
        var value = data
        for component in components {
            switch value {
            case .object(let object) where object[component] != nil: value = object[component]!
            case .array(let values) where Int(component).map(values.indices.contains) == true: value = values[Int(component)!]
            default: return fallback
            }
        }
        return value
    }

    /// `sem_ver`: `[version, operator, version]` with `=`, `!=`, `<`, `<=`, `>`, `>=`, `^` (same major) and `~`
    /// (same major and minor).
    private mutating func semanticVersion(_ arguments: [TargetingRule]) -> FlagValue {
        let left = evaluate(arguments[0]), operation = evaluate(arguments[1]), right = evaluate(arguments[2])
        guard case .string(let symbol) = operation else { return failure("sem_ver's second argument is an operator such as \">=\"") }
        guard left != .null, let leftText = text(of: left), let rightText = text(of: right) else {
            return left == .null ? failure("sem_ver: null is not a version") : .null
        }
        guard let lhs = SemanticVersion(leftText) else { return failure("sem_ver: \"\(leftText)\" is not a version") }
        guard let rhs = SemanticVersion(rightText) else { return failure("sem_ver: \"\(rightText)\" is not a version") }
        switch symbol {
        case "=": return .bool(lhs == rhs)
        case "!=": return .bool(lhs != rhs)
        case "<": return .bool(lhs < rhs)
        case "<=": return .bool(lhs <= rhs)
        case ">": return .bool(lhs > rhs)
        case ">=": return .bool(lhs >= rhs)
        case "^": return .bool(lhs.major == rhs.major)
        case "~": return .bool(lhs.major == rhs.major && lhs.minor == rhs.minor)
        default: return failure("sem_ver: \"\(symbol)\" is not one of =, !=, <, <=, >, >=, ^, ~")
        }
    }

    /// `fractional`, as flagd buckets: the bucketing value (the first argument when it is not a bucket, else the
    /// flag key followed by the targeting key) hashed with MurmurHash3 x86 32-bit, seed 0; bucket
    /// `hash × totalWeight >> 32`; the buckets walked in order until their weights pass it.
    private mutating func fractional(_ arguments: [TargetingRule]) -> FlagValue {
        var buckets = arguments[...]
        let bucketingValue: String
        if case .list = arguments[0] {
            guard case .string(let targetingKey)? = data.field("targetingKey") else {
                return failure("fractional has no value to bucket by: give it one first, or evaluate with a targeting key")
            }
            bucketingValue = flagKey + targetingKey
        } else {
            let value = evaluate(arguments[0])
            guard value != .null else { return failure("fractional's value to bucket by is null") }
            guard let text = text(of: value) else { return .null }
            bucketingValue = text
            buckets = buckets.dropFirst()
        }
        var weighted: [(variant: FlagValue, weight: UInt64)] = []
        var total: UInt64 = 0
        for bucket in buckets {
            guard case .list(let parts) = bucket, (1...2).contains(parts.count) else {
                return failure("a fractional bucket is [variant] or [variant, weight]")
            }
            var weight: UInt64 = 1
            if parts.count == 2 {
                guard let number = evaluate(parts[1]).numeric, number.isFinite else { return failure("a fractional weight is a number") }
                weight = number <= 0 ? 0 : UInt64(min(number, Double(Int32.max)).rounded(.towardZero))
            }
            total += weight
            guard total <= UInt64(Int32.max) else { return failure("fractional weights add up to more than \(Int32.max)") }
            weighted.append((evaluate(parts[0]), weight))
        }
        guard total > 0 else { return failure("fractional weights add up to 0") }
        let hash = MurmurHash3.x86_32(bucketingValue.utf8)
        let bucket = (UInt64(hash) * total) >> 32
        var reached: UInt64 = 0
        for (variant, weight) in weighted {
            reached += weight
            if bucket < reached { return variant }
        }
        return .null
    }

    /// Whether `needle`'s bytes occur in `text`'s (Go's `strings.Contains`: the empty needle is in every text), in
    /// linear time (Knuth–Morris–Pratt): both may be long literals of a flag file.
    static func bytes(of needle: String, occurIn text: String) -> Bool {
        let needle = Array(needle.utf8)
        guard !needle.isEmpty else { return true }
        // For each prefix of the needle, the length of its longest proper prefix that is also its suffix.
        var border = [Int](repeating: 0, count: needle.count)
        var length = 0
        for index in needle.indices.dropFirst() {
            while length > 0, needle[index] != needle[length] { length = border[length - 1] }
            if needle[index] == needle[length] { length += 1 }
            border[index] = length
        }
        var matched = 0
        for byte in text.utf8 {
            while matched > 0, byte != needle[matched] { matched = border[matched - 1] }
            if byte == needle[matched] { matched += 1 }
            if matched == needle.count { return true }
        }
        return false
    }

    /// JsonLogic's `==`: values of one type compare as they are; a number and a text or a boolean compare as numbers;
    /// `null` equals only `null`.
    static func looselyEqual(_ left: FlagValue, _ right: FlagValue) -> Bool {
        switch (left, right) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.string, .string): return left == right
        case (.array, _), (_, .array), (.object, _), (_, .object): return left == right
        default:
            guard let l = left.numeric, let r = right.numeric else { return false }
            return l == r
        }
    }

    /// The order of two values for `<` and `>`: texts by their bytes (as Go orders strings), anything else as numbers; `nil` when they
    /// do not compare.
    static func compare(_ left: FlagValue, _ right: FlagValue) -> Int? {
        if case .string(let l) = left, case .string(let r) = right {
            return l.utf8.lexicographicallyPrecedes(r.utf8) ? -1 : l.utf8.elementsEqual(r.utf8) ? 0 : 1
        }
        guard let l = left.numeric, let r = right.numeric else { return nil }
        return l < r ? -1 : l == r ? 0 : 1
    }
}

extension FlagValue {
    /// The value under `key` when this is an object.
    func field(_ key: String) -> FlagValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }
}
