/// Why the server could not start.
package struct LocalServerError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}
