import BTSShell
import BooksTrackContract
import BooksTrackServer

extension ShellError {
    /// A start-up failure of `bts serve` as data: exit status 3 for the socket (as any network
    /// failure), 1 for its files.
    init(_ failure: ServerStartError) {
        switch failure.kind {
        case .socket: self.init(.network, failure.message, code: .serverSocket)
        case .files: self.init(.failure, failure.message, code: .serverFiles)
        }
    }
}

extension ErrorCode {
    /// `bts serve` could not listen on its host and port.
    static let serverSocket: ErrorCode = "SERVER_SOCKET"
    /// `bts serve` could not use its catalog or jobs store.
    static let serverFiles: ErrorCode = "SERVER_FILES"
}
