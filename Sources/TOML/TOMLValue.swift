/// What a TOML value is: one case per TOML type.
///
/// Dates and times are kept as their canonical RFC 3339 text, already checked to be a real date and time of day:
/// `T` between date and time, `Z` upper case, the fraction of a second as written (`1979-05-27T07:32:00.5-07:00`,
/// `1979-05-27T07:32:00`, `1979-05-27`, `07:32:00.999999`). Converting them to a calendar type is the reader's
/// choice of time zone and precision.
public enum TOMLValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    /// A 64-bit float; `inf`, `-inf` and `nan` are kept as such (so `==` on a NaN is false, as for `Double`).
    case float(Double)
    case boolean(Bool)
    /// A date and time with an offset from UTC: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)`.
    case offsetDateTime(String)
    /// A date and time without an offset: `YYYY-MM-DDTHH:MM:SS[.fraction]`.
    case localDateTime(String)
    /// A date alone: `YYYY-MM-DD`.
    case localDate(String)
    /// A time of day alone: `HH:MM:SS[.fraction]`.
    case localTime(String)
    /// An array (`[1, "a"]`, TOML 1.0 allows mixed types) or an array of tables (`[[name]]`).
    case array([TOMLNode])
    /// A table: the document itself, a `[header]`, a dotted key's parent, an inline table (`{ a = 1 }`).
    case table(TOMLTable)

    /// The TOML name of the type, for messages: `string`, `integer`, `float`, `boolean`, `offset date-time`,
    /// `local date-time`, `local date`, `local time`, `array` or `table`.
    public var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .float: "float"
        case .boolean: "boolean"
        case .offsetDateTime: "offset date-time"
        case .localDateTime: "local date-time"
        case .localDate: "local date"
        case .localTime: "local time"
        case .array: "array"
        case .table: "table"
        }
    }
}
