import TOML

/// The outcome of a throwing call, for tests that inspect the error.
struct Attempt<Value> {
    var value: Value?
    var error: TOMLError?

    init(_ body: () throws(TOMLError) -> Value) {
        do { value = try body() } catch { self.error = error }
    }
}

/// The refusal of `text`, or `nil` if it was read.
func refusal(_ text: String, limits: TOMLLimits = .standard) -> TOMLError? {
    Attempt { () throws(TOMLError) in try TOMLParser.parse(text, limits: limits) }.error
}

/// Whether `error` points inside `bytes` (or just past their end) and says what is wrong on one line.
func isWellFormed(_ error: TOMLError, in bytes: [UInt8]) -> Bool {
    var lines = 1
    for byte in bytes where byte == 0x0A { lines += 1 }
    return error.mark.line >= 1 && error.mark.line <= lines && error.mark.column >= 1 && error.mark.column <= bytes.count + 1
        && !error.message.isEmpty && !error.message.contains("\n") && !error.message.contains("\r")
}

extension TOMLTable {
    /// Counts every node below and including this table, walking the tree without recursion.
    var nodeCount: Int {
        var pending: [TOMLNode] = entries.map(\.node)
        var count = 1
        while let node = pending.popLast() {
            count += 1
            switch node.value {
            case .array(let elements): pending.append(contentsOf: elements)
            case .table(let table): pending.append(contentsOf: table.entries.map(\.node))
            default: break
            }
        }
        return count
    }
}
