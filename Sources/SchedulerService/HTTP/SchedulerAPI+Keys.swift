import Foundation
import Hummingbird
import Store

extension SchedulerAPI {
    /// The admin API's search keys (``SearchKeyIssuer``): `POST /keys` makes one and shows its secret once,
    /// `GET /keys` lists them without secrets, `DELETE /keys/{uid}` revokes one.
    func addKeyRoutes(to admin: RouterGroup<SchedulerRequestContext>) {
        let issuer = SearchKeyIssuer(store: store, secrets: searchKeySecrets)
        admin.post("keys") { request, _ in try await createKey(request, issuer: issuer) }
        admin.get("keys") { _, _ in
            let keys = try await storeCall { try await issuer.list() }
            return JSONResponse.make(KeyList(keys: keys.map { SearchKeyDocument($0) }))
        }
        admin.delete("keys/{uid}") { _, context in
            let uid = context.parameters.get("uid") ?? ""
            guard try await storeCall({ try await issuer.revoke(uid: uid) }) else {
                throw APIError(.notFound, "no search key '\(uid.prefix(40))': list them with GET /keys")
            }
            searchGate.keyring.forget()
            return JSONResponse.make(Revoked(uid: uid, revoked: true))
        }
    }

    /// The body `POST /keys` reads.
    private struct KeyRequest: Decodable {
        var name: String
        var domains: [String]
        var expires: Date?
    }

    private struct KeyList: Encodable { var keys: [SearchKeyDocument] }
    private struct Revoked: Encodable { var uid: String; var revoked: Bool }

    /// The largest body `POST /keys` reads.
    static let maxKeyRequestBytes = 64 * 1024

    private func createKey(_ request: Request, issuer: SearchKeyIssuer) async throws(APIError) -> Response {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Self.maxKeyRequestBytes)
        } catch {
            throw APIError(.contentTooLarge, "a key request holds at most \(Self.maxKeyRequestBytes) bytes")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let asked: KeyRequest
        do {
            asked = try decoder.decode(KeyRequest.self, from: Data(body.readableBytesView))
        } catch {
            throw APIError(.badRequest, "the body must be JSON {\"name\": TEXT, \"domains\": [DOMAIN, …], \"expires\": ISO 8601 date or absent}")
        }
        do {
            let (key, secret) = try await storeDeadline.run { try await issuer.create(name: asked.name, domains: asked.domains, expires: asked.expires, now: Date()) }
            searchGate.keyring.forget()
            return JSONResponse.make(SearchKeyDocument(key, secret: secret), status: .created)
        } catch let problem as SearchKeyProblem {
            if case .noSecret = problem { throw APIError(.serviceUnavailable, problem.description) }
            throw APIError(.badRequest, problem.description)
        } catch {
            throw await unavailable(error)
        }
    }

    /// `body` against the store, within the request deadline; 503 when the store does not answer.
    private func storeCall<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws(APIError) -> T {
        do {
            return try await storeDeadline.run(body)
        } catch {
            throw await unavailable(error)
        }
    }
}
