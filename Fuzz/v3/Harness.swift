import Foundation

// Fuzz target: what the client reads from a v3 server (BooksTrackContract + BooksTrackClient/API/
// JobResults*.swift + the SSE parser). The first byte selects the body's route (and status); the
// rest is the body:
// - problem details and every other error shape, at an error status: never a success, a sentence
//   that is never empty, retry hints in range, at most 20 field errors;
// - the 2xx bodies of the v3 routes (accepted, enrich, search page, results in each pipeline);
// - an SSE stream of a v3 job: each event decoded as the watcher does, a `completed` event's
//   results read as the job's results.
func fuzzOne(_ bytes: [UInt8]) {
    let selector = Int(bytes.first ?? 0)
    let body = Data(bytes.dropFirst())
    switch selector % 4 {
    case 0: errorBody(body, status: [400, 401, 403, 404, 409, 413, 422, 429, 500, 503][selector / 4 % 10])
    case 1: successBody(body, status: [200, 201, 202][selector / 4 % 3])
    case 2: stream(Array(body))
    default: results(body, pipeline: [Pipeline.csvImport, .batchEnrichment, .bookshelfScan][selector / 4 % 3])
    }
}

func errorBody(_ body: Data, status: Int) {
    let decoded = ResponseDecoding.decode(JSONValue.self, from: body, status: status)
    if case .success = decoded { invariant(false, "an error status \(status) decoded as success") }
    guard let info = decoded.errorInfo else { return invariant(false, "an error status gave no error") }
    invariant(info.httpStatus == status, "the error lost its status")
    invariant(info.fieldErrors.count <= 20, "\(info.fieldErrors.count) field errors kept")
    if let ms = info.retryAfterMs, info.isProblemDetails {
        invariant((0...86_400_000).contains(ms), "retryAfterMs \(ms)")
    }
    if let sentence = info.problemSentence { invariant(!sentence.isEmpty, "an empty problem sentence") }
    _ = info.userMessage
    _ = info.retryAfterSeconds
    _ = ResponseDecoding.decode(V3JobAccepted.self, from: body, status: status)
}

func successBody(_ body: Data, status: Int) {
    _ = ResponseDecoding.decode(V3JobAccepted.self, from: body, status: status).errorInfo
    _ = ResponseDecoding.decode(V3EnrichResult.self, from: body, status: status).errorInfo
    if let page = ResponseDecoding.decode(V3SearchPage.self, from: body, status: status).value {
        invariant(page.books.count <= V3Limits.searchPage.upperBound, "\(page.books.count) books on one page")
        _ = page.books.map(SearchResultItem.init)
    }
    _ = ResponseDecoding.decode(SearchResults.self, from: body, status: status)
    _ = ResponseDecoding.decode(JobStatus.self, from: body, status: status)
    _ = ResponseDecoding.decode(CancelResponse.self, from: body, status: status)
    _ = ResponseDecoding.decode(Capabilities.self, from: body, status: status)
}

func results(_ body: Data, pipeline: Pipeline) {
    guard let value = ResponseDecoding.decode(V3JobResultsBody.self, from: body, status: 200).value else { return }
    let requested = ["9780441172719", "0441172717", "", "x"]
    let read = JobResults(v3: value.results, pipeline: pipeline, requested: requested)
    _ = read.isEmpty
    if case .batch(let rows) = read {
        // Each ISBN asked for is either found or listed as not found.
        for isbn in requested {
            let wanted = ISBN(isbn)?.isbn13
            let listed = rows.contains {
                $0.isbn == isbn || (wanted != nil && $0.isbn.flatMap(ISBN.init)?.isbn13 == wanted)
            }
            invariant(listed, "a batch lost the ISBN '\(isbn)' asked for")
        }
    }
    _ = try? JSONCoding.decoder().decode(JobResults.self, from: body)
}

func stream(_ bytes: [UInt8]) {
    var parser = SSEParser(surfacesComments: true, maximumLineLength: 4096, maximumEventLength: 16384)
    let items = parser.feedItems(bytes)
    parser.finish()
    for case .event(let event) in items {
        switch JobStreamEvent.decode(eventName: event.type, data: event.data) {
        case .state(let payload): _ = payload.status.rawValue
        case .timeout(let payload): _ = payload.lastStatus
        case .error(let payload): _ = payload.message
        case .unknown(let name, _, _): invariant(!name.isEmpty, "an event without a name")
        }
        // The watcher keeps a `completed` event's results (BooksTrackAPI+Watch.swift v3Results).
        if event.type == "completed",
            let value = try? JSONCoding.decoder().decode(JSONValue.self, from: Data(event.data.utf8)),
            let found = value["results"] ?? value["books"]
        {
            for pipeline in [Pipeline.csvImport, .batchEnrichment, .bookshelfScan] {
                _ = JobResults(v3: found, pipeline: pipeline).isEmpty
            }
        }
    }
}
