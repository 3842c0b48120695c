/// An error whose description is for operators (the log, the command line), with a shorter one for HTTP clients: what
/// failed and where to look, without what the operator's description may quote (a database server's message can
/// quote the value it refused).
public protocol RedactableError: Error, CustomStringConvertible {
    /// What an HTTP client is told.
    var redactedDescription: String { get }
}
