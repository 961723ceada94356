import Hummingbird

/// `GET /api/v2/capabilities`: bare, truthful — the features switched on and the limits in force.
struct CapabilitiesRoute {
    let services: ServerServices

    func respond(_ request: Request) throws -> Response {
        var headers = HTTPFields()
        headers[.cacheControl] = "public, max-age=3600"
        return try JSONResponse.make(
            CapabilitiesBody(
                configuration: services.configuration,
                isAvailable: services.isAvailable,
                reason: services.unavailableReason
            ),
            headers: headers
        )
    }
}
