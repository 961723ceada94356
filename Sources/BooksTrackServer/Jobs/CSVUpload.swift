import Foundation
import HTTPTypes
import Hummingbird
import MultipartKit
import NIOCore

/// Reads an import upload: the request body collected with a bound, then the `file` part of a
/// `multipart/form-data` body (parsed by MultipartKit), or the whole body when it is sent as `text/csv`.
enum CSVUpload {
    enum Failure: Error, Equatable {
        /// The body or the file is over the limit (bytes).
        case tooLarge(limit: Int)
        /// No part named `file`.
        case missingFilePart
        /// Not multipart/form-data (nor text/csv), or a malformed multipart body.
        case invalid(String)
    }

    /// Multipart framing allowance on top of the file limit.
    static let multipartOverhead = 64 * 1024

    /// Collects at most `limit` bytes of `body`; throws `.tooLarge` as soon as there are more.
    static func collect(_ body: RequestBody, limit: Int) async throws -> ByteBuffer {
        var buffer = ByteBuffer()
        for try await chunk in body {
            guard buffer.readableBytes + chunk.readableBytes <= limit else { throw Failure.tooLarge(limit: limit) }
            var chunk = chunk
            buffer.writeBuffer(&chunk)
        }
        return buffer
    }

    /// A refused upload's body is read and dropped up to this many bytes before the 413 goes out:
    /// a server that answers and closes with the upload unread makes the client's TCP stack reset
    /// the connection, and the client may never see the answer. Past it, the answer goes at once.
    static let refusedBodyDrainLimit = 32 * 1024 * 1024

    /// Reads and drops what is left of `body`, at most `limit` bytes (errors end it quietly).
    static func drain(_ body: RequestBody, limit: Int = refusedBodyDrainLimit) async {
        var seen = 0
        do {
            for try await chunk in body {
                seen += chunk.readableBytes
                if seen > limit { return }
            }
        } catch {
            return
        }
    }

    /// The CSV bytes of an upload whose body is already collected.
    static func extractFile(contentType: String?, body: ByteBuffer, maxFileBytes: Int) throws(Failure) -> [UInt8] {
        let type = (contentType ?? "").trimmingCharacters(in: .whitespaces)
        let mediaType =
            type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        let file: ByteBuffer
        switch mediaType {
        case "multipart/form-data":
            guard let boundary = boundary(in: type) else {
                throw .invalid("the multipart/form-data Content-Type has no boundary parameter")
            }
            file = try filePart(of: body, boundary: boundary)
        case "text/csv", "application/csv", "text/plain":
            file = body
        case "":
            throw .invalid("send the CSV as multipart/form-data with a part named 'file' (Content-Type is missing)")
        default:
            throw .invalid(
                "send the CSV as multipart/form-data with a part named 'file' (got Content-Type \(mediaType))"
            )
        }
        guard file.readableBytes <= maxFileBytes else { throw .tooLarge(limit: maxFileBytes) }
        return Array(file.readableBytesView)
    }

    /// The `boundary` parameter of a Content-Type (quotes removed); nil when missing, empty or too long.
    static func boundary(in contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            var value = pair[1]
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            return (1...200).contains(value.count) ? value : nil
        }
        return nil
    }

    /// The body of the first part named `file`.
    static func filePart(of body: ByteBuffer, boundary: String) throws(Failure) -> ByteBuffer {
        guard let file = try parts(of: body, boundary: boundary).firstPart(named: "file") else {
            throw .missingFilePart
        }
        return file.body
    }

    /// Every part of a multipart body, in order.
    static func parts(of body: ByteBuffer, boundary: String) throws(Failure) -> [MultipartPart] {
        let parser = MultipartParser(boundary: boundary)
        var parts: [MultipartPart] = []
        var headers = HTTPHeaders()
        var partBody = ByteBuffer()
        parser.onHeader = { name, value in headers.replaceOrAdd(name: name, value: value) }
        parser.onBody = { chunk in partBody.writeBuffer(&chunk) }
        parser.onPartComplete = {
            parts.append(MultipartPart(headers: headers, body: partBody))
            headers = HTTPHeaders()
            partBody = ByteBuffer()
        }
        do {
            try parser.execute(body)
        } catch {
            throw .invalid("the multipart/form-data body is malformed (\(error))")
        }
        return parts
    }
}
