import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// The raw outcome of one request attempt that produced a response (any status).
struct RawResponse: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: ByteBuffer
    /// The masked URL.
    var url: String
    var timeToHead: Duration
    var duration: Duration

    var headerFields: [HeaderField] { headers.map { HeaderField(name: $0.name, value: $0.value) } }
}

/// Sends single attempts over one shared `HTTPClient`: deadline per attempt, bounded body reads,
/// real cancellation, tracing with secrets masked.
struct HTTPTransport: Sendable {
    let client: HTTPClient
    let configuration: APIConfiguration

    /// Creates the shared client (no read timeout: ordinary requests carry a deadline, streams an idle timer).
    static func makeClient(_ configuration: APIConfiguration) -> HTTPClient {
        var config = HTTPClient.Configuration()
        config.timeout = HTTPClient.Configuration.Timeout(
            connect: .nanoseconds(configuration.connectTimeout.wholeNanoseconds), read: nil)
        config.redirectConfiguration = .follow(max: 5, allowCycles: false)
        config.decompression = .disabled
        config.connectionPool = HTTPClient.Configuration.ConnectionPool(idleTimeout: .seconds(60))
        config.httpVersion = .automatic
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: config)
    }

    var host: String { configuration.baseURL.host ?? configuration.baseURL.absoluteString }

    /// Builds the AHC request for one attempt.
    func makeRequest(_ spec: RequestSpec, url: String) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url)
        request.method = spec.method
        request.headers.add(name: "User-Agent", value: configuration.userAgent)
        request.headers.add(name: "Accept", value: spec.accept)
        for field in spec.headers { request.headers.add(name: field.name, value: field.value) }
        if let bearer = configuration.bearerToken, !bearer.isEmpty, !request.headers.contains(name: "Authorization") {
            request.headers.add(name: "Authorization", value: "Bearer \(bearer)")
        }
        switch spec.body {
        case .none:
            break
        case .json(let data):
            request.headers.replaceOrAdd(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(data: data))
        case .multipart(let upload):
            request.headers.replaceOrAdd(name: "Content-Type", value: upload.contentTypeHeader)
            request.body = .stream(upload.chunks, length: .known(upload.contentLength))
        }
        return request
    }

    /// Sends one attempt and reads the whole (bounded) body before the deadline.
    func send(_ spec: RequestSpec, requestID: Int, attempt: Int) async throws(BooksTrackError) -> RawResponse {
        let url = spec.url(base: configuration.baseURL)
        let masked = SecretMasking.maskURL(url)
        let request = makeRequest(spec, url: url)
        let timeout = spec.timeout ?? configuration.timeout
        let clock = ContinuousClock()
        let start = clock.now
        let deadlineInstant = start.advanced(by: timeout)
        do {
            try Task.checkCancellation()
            let response = try await client.execute(
                request, deadline: .now() + .nanoseconds(timeout.wholeNanoseconds))
            let head = clock.now - start
            let limit = configuration.maxBodyBytes
            if let declared = response.headers.first(name: "content-length").flatMap(Int.init), declared > limit {
                throw Self.tooLarge(limit: limit, url: masked, status: Int(response.status.code))
            }
            let body = try await Self.collect(response.body, limit: limit, until: deadlineInstant)
            let raw = RawResponse(
                status: Int(response.status.code), headers: response.headers, body: body, url: masked,
                timeToHead: head, duration: clock.now - start)
            if let trace = configuration.trace {
                trace(traceEvent(spec, request: request, raw: raw, requestID: requestID, attempt: attempt))
            }
            return raw
        } catch {
            var mapped: BooksTrackError
            if let own = error as? BooksTrackError {
                mapped = own
            } else if error is NIOTooManyBytesError {
                mapped = Self.tooLarge(limit: configuration.maxBodyBytes, url: masked, status: nil)
            } else if Task.isCancelled {
                mapped = .cancelled(url: masked)
            } else {
                mapped = .fromTransport(error, url: masked, host: host, timeout: timeout)
            }
            mapped.url = mapped.url ?? masked
            if let trace = configuration.trace {
                var event = traceEvent(spec, request: request, raw: nil, requestID: requestID, attempt: attempt)
                event.duration = clock.now - start
                event.error = SecretMasking.maskText(mapped.description)
                trace(event)
            }
            throw mapped
        }
    }

    static func tooLarge(limit: Int, url: String, status: Int?) -> BooksTrackError {
        BooksTrackError(
            code: .invalidResponse, kind: .bodyTooLarge,
            message: "The response is larger than the client's limit of \(limit / (1024 * 1024)) MB.",
            detail: "body exceeded \(limit) bytes", httpStatus: status, url: url)
    }

    /// Reads the body up to `limit` bytes; the deadline keeps running while the body streams.
    static func collect(
        _ body: HTTPClientResponse.Body, limit: Int, until deadline: ContinuousClock.Instant
    ) async throws -> ByteBuffer {
        try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask { try await body.collect(upTo: limit) }
            group.addTask {
                try await Task.sleep(until: deadline, clock: .continuous)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw HTTPClientError.deadlineExceeded }
            guard let buffer = first else { throw HTTPClientError.deadlineExceeded }
            return buffer
        }
    }

    func traceEvent(
        _ spec: RequestSpec, request: HTTPClientRequest, raw: RawResponse?, requestID: Int, attempt: Int
    ) -> TraceEvent {
        let requestHeaders = SecretMasking.maskHeaders(request.headers.map { HeaderField(name: $0.name, value: $0.value) })
        var requestBody: String?
        switch spec.body {
        case .none: requestBody = nil
        case .json(let data): requestBody = Self.printable(data)
        case .multipart(let upload):
            requestBody = "<multipart/form-data: \(upload.fieldName)=@\(upload.fileName) (\(upload.fileSize) bytes), "
                + "Content-Length \(upload.contentLength)>"
        }
        return TraceEvent(
            phase: .response, requestID: requestID, attempt: attempt, method: spec.method.rawValue,
            url: SecretMasking.maskURL(spec.url(base: configuration.baseURL)), status: raw?.status,
            duration: raw?.duration ?? .zero, timeToHead: raw?.timeToHead, requestHeaders: requestHeaders,
            requestBody: requestBody, responseHeaders: SecretMasking.maskHeaders(raw?.headerFields ?? []),
            responseBody: raw.map { Self.printable(Data(buffer: $0.body, byteTransferStrategy: .noCopy)) })
    }

    /// Body text for traces: masked, at most 4 KB.
    static func printable(_ data: Data, limit: Int = 4096) -> String {
        let text = String(decoding: data.prefix(limit), as: UTF8.self)
        let suffix = data.count > limit ? "… (\(data.count) bytes)" : ""
        return SecretMasking.maskText(text) + suffix
    }
}
