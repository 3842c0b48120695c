import Foundation
import Hummingbird

extension SchedulerAPI {
    /// `GET /openapi.yaml` and `GET /openapi.json`: the contract (``OpenAPIContract``), on every listener.
    func addContractRoutes(to router: Router<SchedulerRequestContext>) {
        router.get("openapi.yaml") { _, _ in Self.contract(ByteBuffer(string: OpenAPIContract.yaml), type: "application/yaml; charset=utf-8") }
        router.get("openapi.json") { _, _ in Self.contract(ByteBuffer(bytes: OpenAPIContract.json), type: "application/json") }
    }

    private static func contract(_ body: ByteBuffer, type: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "max-age=300", .accessControlAllowOrigin: "*"],
            body: ResponseBody(byteBuffer: body)
        )
    }

    /// Every route a listener serving `routes` registers, as `METHOD /path` (`{name}` for a parameter): what
    /// `OpenAPIContractTests` holds the contract to.
    public func registeredRoutes(_ routes: Routes) -> [String] {
        router(routes).routes.routes.map { "\($0.method) \($0.path)" }
    }
}
