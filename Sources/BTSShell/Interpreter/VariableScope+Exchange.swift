import BTSLanguage
import BooksTrackClient
import BooksTrackContract

extension VariableScope {
    /// `$_http`: the last HTTP exchange (the client's ``HTTPExchange``) as data, `${_http.status}`,
    /// `${_http.headers.content-type}`. Its fields are stated here once; help and completion read them.
    enum Exchange {
        /// The variable's name (reserved: ``Parser/exchangeName``).
        static let name = Parser.exchangeName

        /// One field of `$_http`, in the order help and completion list them.
        enum Field: String, CaseIterable, Sendable {
            case status, durationMs, cache, method, url, headers

            /// What the field holds (help's words).
            var summary: String {
                switch self {
                case .status: return "the answer's status code"
                case .durationMs: return "milliseconds from sending to the end of the body (from the cache: to find it)"
                case .cache:
                    return "the response cache's part: " + CacheOutcome.allCases.map(\.rawValue).joined(separator: ", ")
                case .method: return "the request's method"
                case .url: return "the request's URL, secrets masked"
                case .headers: return "the response's headers by lower-case name (headers.content-type), secrets masked"
                }
            }
        }

        /// The exchange as the object `$_http` reads.
        static func value(of exchange: HTTPExchange) -> JSONValue {
            var headers: [String: JSONValue] = [:]
            for field in exchange.headers {
                let key = field.name.lowercased()
                // A repeated header reads as its values joined, as HTTP combines them (RFC 9110 §5.3).
                if case .string(let earlier)? = headers[key] {
                    headers[key] = .string(earlier + ", " + field.value)
                } else {
                    headers[key] = .string(field.value)
                }
            }
            return .object(
                Dictionary(
                    uniqueKeysWithValues: Field.allCases.map { field -> (String, JSONValue) in
                        switch field {
                        case .status: return (field.rawValue, .number(Double(exchange.status)))
                        case .durationMs: return (field.rawValue, .number(milliseconds(exchange.duration)))
                        case .cache: return (field.rawValue, .string(exchange.cache.rawValue))
                        case .method: return (field.rawValue, .string(exchange.method))
                        case .url: return (field.rawValue, .string(exchange.url))
                        case .headers: return (field.rawValue, .object(headers))
                        }
                    }
                )
            )
        }

        /// A duration in milliseconds, to the microsecond.
        static func milliseconds(_ duration: Duration) -> Double {
            let (seconds, attoseconds) = duration.components
            let microseconds = Double(seconds) * 1_000_000 + (Double(attoseconds) / 1e12).rounded()
            return microseconds / 1_000
        }

        /// Help's words for the variable and its fields.
        static var synopsis: String {
            "${\(name).FIELD} the last HTTP exchange ("
                + Field.allCases.map { field in
                    "\(field.rawValue): \(field.summary)"
                }.joined(separator: "; ") + "), left as it was by a command that made no request"
        }
    }
}
