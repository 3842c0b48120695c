/// What a page knows of the console: whether it can be signed in to here, and the session's CSRF token when it is.
struct ConsoleView {
    /// This listener serves the console and an admin token is set: the page offers to sign in.
    var available: Bool
    var signedIn: Bool
    /// Carried by every form of the session.
    var csrfToken: String?

    /// The view of a request whose context holds `session` (or none), on a listener that serves the console or not.
    init(available: Bool, session: ConsoleSession?) {
        self.available = available
        signedIn = available && session != nil
        csrfToken = available ? session?.csrfToken : nil
    }
}

/// What a page says after an action redirected to it (`?notice=`): a fixed list, so no text of a request is shown.
enum ConsoleNotice: String, CaseIterable {
    case signedIn = "signed-in"
    case signedOut = "signed-out"
    case queued
    case incrementalQueued = "incremental-queued"
    case paused
    case alreadyPaused = "already-paused"
    case resumed
    case notPaused = "not-paused"
    case purged
    case cancelRequested = "cancel-requested"

    var text: String {
        switch self {
        case .signedIn: "Signed in: the units' pages offer their actions."
        case .signedOut: "Signed out."
        case .queued: "A forced run of every unit of the source was queued: it starts at once, or when the pass in progress ends."
        case .incrementalQueued: "An incremental run of every unit of the source was queued."
        case .paused: "The source is paused: no run of its units starts until it is resumed; nothing was purged."
        case .alreadyPaused: "The source was already paused."
        case .resumed: "The source is resumed: its units run when they are due, from the next pass."
        case .notPaused: "The source was not paused."
        case .purged: "The domain was purged: its items are gone from every search."
        case .cancelRequested: "Cancel requested: a forced run of the source queued here is dropped, and its running units stop within seconds; what they committed before stays."
        }
    }

    /// The text of the notice `name` names; `nil` for none or an unknown one.
    static func text(_ name: String?) -> String? {
        name.flatMap { ConsoleNotice(rawValue: String($0)) }?.text
    }
}
