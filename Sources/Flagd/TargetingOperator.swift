/// The JsonLogic operators a flagd targeting rule may use: those flagd documents, and nothing else.
public enum TargetingOperator: String, Sendable, Hashable, CaseIterable {
    case `if`, equal = "==", notEqual = "!=", strictEqual = "===", strictNotEqual = "!=="
    case `in`, and, or, not = "!", truthy = "!!", `var`, cat
    case less = "<", greater = ">", lessOrEqual = "<=", greaterOrEqual = ">="
    case startsWith = "starts_with", endsWith = "ends_with", semanticVersion = "sem_ver", fractional

    /// How many arguments the operator takes.
    var arity: ClosedRange<Int> {
        switch self {
        case .if, .cat: 0...Int.max
        case .and, .or, .fractional: 1...Int.max
        case .not, .truthy: 1...1
        case .var: 1...2
        case .less, .lessOrEqual: 2...3
        case .equal, .notEqual, .strictEqual, .strictNotEqual, .in, .greater, .greaterOrEqual, .startsWith, .endsWith: 2...2
        case .semanticVersion: 3...3
        }
    }

    /// The operators' names, for messages.
    static let names = allCases.map(\.rawValue).joined(separator: ", ")
}
