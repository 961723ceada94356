// BooksTrackContract — the wire types shared by the bts client and the local server
// (docs/contract.md §1–7).
//
// Where to start:
// - Stand-in (server) side: `Envelope.success(_:metadata:)` / `FailureEnvelope.failure(_:metadata:)`,
//   `APIErrorBody`, `ResponseMetadata`, `ErrorCode.httpStatus`, the DTOs of each endpoint, and
//   `JSONCoding.encoder()`. Optional fields are omitted, never null; a failure writes `"data": null`.
// - Client side: `ResponseDecoding.decode(_:from:status:)` → `DecodedResponse` (success, normalized
//   `APIErrorInfo`, `.notJSON` for proxy pages/empty bodies, `.undecodable` with the coding path).
//   Decode into the normalized types to accept both the stand-in and production shapes:
//   `SearchResults`, `SimilarResults`, `Capabilities`, `WeeklyRecommendations`, `JobStatus`,
//   `ImportAccepted`, `BatchJobAccepted`, and `JobStreamEvent.decode(eventName:data:)` for SSE.
// - Shared data: `ISBN`, `BudgetClass` (rate-limit classes), `WSCloseCode`, `SearchMode`.
