/// Row ids as one JSON array, the parameter `id IN (SELECT value FROM json_each(?))` reads: one cached statement for
/// any number of rows.
enum RowIDList {
    static func json(_ ids: [Int64]) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }
}
