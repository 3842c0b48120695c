/// A failure the user can fix, printed as one line on standard error.
struct UserError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
