import BooksTrackCatalog
import BooksTrackContract
import Hummingbird

/// `GET /health`: enveloped `{status: "ok", version, catalogBooks}`.
struct HealthRoute {
    let services: ServerServices

    func respond(_ request: Request) throws -> Response {
        let data: [String: JSONValue] = [
            "status": .string("ok"),
            "version": .string(services.configuration.version),
            "catalogBooks": .number(Double(services.catalog.count)),
        ]
        return try JSONResponse.envelope(
            data,
            metadata: ResponseMetadata(date: services.now(), provider: localProvider)
        )
    }
}
