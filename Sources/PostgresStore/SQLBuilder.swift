import PostgresNIO

/// A statement built in pieces whose values are always bound parameters (`$1`, `$2`…): the text holds only
/// what this module writes, never a value from a user, a plugin or a feed.
struct SQLBuilder {
    private(set) var sql: String
    private var binds = PostgresBindings()

    init(_ sql: String = "") {
        self.sql = sql
    }

    /// Appends SQL text written in this module.
    mutating func append(_ text: String) {
        sql += text
    }

    /// Binds `value` and returns its placeholder.
    mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    /// Binds `value`, or NULL, and returns its placeholder.
    mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value?) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    var query: PostgresQuery { PostgresQuery(unsafeSQL: sql, binds: binds) }
}
