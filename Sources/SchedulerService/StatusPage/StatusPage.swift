import Foundation
import Hummingbird
import Mustache
import PluginAPI

/// The service's HTML pages (the status page `GET /`, a unit's page, the sign-in form) and their two assets:
/// rendered on the server, served with a Content-Security-Policy that allows the pages' own script, style, API
/// calls and forms, and nothing else.
enum StatusPage {
    private static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        MustacheContentTypes.register(VisibleHTML(), named: VisibleHTML.name)
        for (name, text) in PageTemplates.all {
            do {
                // Every template, partials included (a partial starts again from Mustache's own HTML escaping).
                try library.register("{{% CONTENT_TYPE: \(VisibleHTML.name)}}" + text, named: name)
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

/// How `{{…}}` escapes on every page: HTML's five characters, after the control and bidirectional formatting
/// characters of what a source wrote are made visible (``VisibleText``), so a plugin's error holding U+202E cannot
/// reverse the page's own text after it.
struct VisibleHTML: MustacheContentType {
    static let name = "VISIBLE_HTML"

    func escapeText(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in VisibleText.escaping(text).unicodeScalars {
            switch scalar {
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "&": escaped += "&amp;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
