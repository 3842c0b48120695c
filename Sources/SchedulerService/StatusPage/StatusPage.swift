import Foundation
import Hummingbird
import Mustache

/// The service's HTML status page (`GET /`) and its two assets: rendered on the server from the status report,
/// served with a Content-Security-Policy that allows the page's own script, style and API calls, and nothing else.
enum StatusPage {
    private static let template: MustacheTemplate = {
        do {
            return try MustacheTemplate(string: StatusPageTemplate.page)
        } catch {
            preconditionFailure("the status page's template does not parse: \(error)")
        }
    }()

    /// Scripts, styles and requests from this origin only; no inline code, no frames, no plugins, no images.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    static func response(_ model: StatusPageModel) -> Response {
        Response(
            status: .ok,
            headers: headers(contentType: "text/html; charset=utf-8", cache: "no-store"),
            body: ResponseBody(byteBuffer: ByteBuffer(string: template.render(model)))
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
