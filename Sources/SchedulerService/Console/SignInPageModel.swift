/// What the sign-in form shows: the environment, how long a session lasts, and why the last attempt failed.
struct SignInPageModel {
    var title = "Sign in"
    var environment: String
    var problem: String?
    var lasts: String {
        "\(ConsoleSession.lifetime.components.seconds / 3600) hours"
    }
}

/// What the page of a refused console action shows: why, and the page the form came from.
struct RefusalPageModel {
    var title = "Nothing was done"
    var environment: String
    var message: String
    var back: String
}
