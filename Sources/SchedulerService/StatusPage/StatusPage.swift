import Foundation
import Hummingbird
import Mustache

/// The service's HTML pages (the status page `GET /`, a unit's page, the sign-in form) and their two assets:
/// rendered on the server, served with a Content-Security-Policy that allows the pages' own script, style, API
/// calls and forms, and nothing else.
enum StatusPage {
    private static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        for (name, text) in PageTemplates.all {
            do {
                try library.register(text, named: name)
            } catch {
                preconditionFailure("the page template '\(name)' does not parse: \(error)")
            }
        }
        return library
    }()

    /// Scripts, styles and requests from this origin only; no inline code, no frames, no plugins, no images.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    static func response(_ model: StatusPageModel) -> Response { page("status", model) }

    static func response(_ model: UnitPageModel) -> Response { page("unit", model) }

    static func response(_ model: SignInPageModel, status: HTTPResponse.Status = .ok) -> Response { page("signin", model, status: status) }

    static func response(_ model: RefusalPageModel, status: HTTPResponse.Status) -> Response { page("refused", model, status: status) }

    private static func page(_ template: String, _ model: Any, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: headers(contentType: "text/html; charset=utf-8", cache: "no-store"),
            body: ResponseBody(byteBuffer: ByteBuffer(string: library.render(model, withTemplate: template) ?? ""))
        )
    }

    static func stylesheet() -> Response { asset(StatusPageAssets.css, contentType: "text/css; charset=utf-8") }

    static func script() -> Response { asset(StatusPageAssets.javaScript, contentType: "text/javascript; charset=utf-8") }

    private static func asset(_ text: String, contentType: String) -> Response {
        Response(status: .ok, headers: headers(contentType: contentType, cache: "max-age=300"), body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    private static func headers(contentType: String, cache: String) -> HTTPFields {
        [
            .contentType: contentType, .cacheControl: cache, .contentSecurityPolicy: contentSecurityPolicy,
            .xContentTypeOptions: "nosniff",
        ]
    }
}
