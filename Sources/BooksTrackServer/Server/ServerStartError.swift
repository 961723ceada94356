import Foundation
import GRDB
import NIOCore

/// Why `bts serve` could not start, in one plain sentence that says what to do (a busy port printed
/// NIO's `bind(descriptor:ptr:bytes:): Address already in use) (errno: 98)`, a file in the way of
/// the data directory `NSCocoaErrorDomain Code=516`, a damaged database `SQLite error 26 … while
/// executing …`).
package struct ServerStartError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed: the socket (bts's exit status 3, as a network failure) or a file (1).
    package enum Kind: Sendable, Hashable { case socket, files }

    package var kind: Kind
    package var message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { message }

    /// Binding `host:port` failed with `error`; nil when `error` is not about the socket.
    package static func binding(host: String, port: Int, _ error: any Error) -> ServerStartError? {
        if let address = error as? SocketAddressError, case .unknown = address {
            return ServerStartError(
                .socket,
                "cannot find the address of host '\(host)'; give --host an address of this machine such as 127.0.0.1"
            )
        }
        guard let io = error as? IOError else { return nil }
        switch io.errnoCode {
        case EADDRINUSE:
            return ServerStartError(
                .socket,
                "port \(port) is already in use on \(host); choose another with --port (--port 0 takes any free one)"
            )
        case EACCES, EPERM:
            return ServerStartError(
                .socket,
                "this user may not listen on port \(port); choose one above 1023 with --port"
            )
        case EADDRNOTAVAIL:
            return ServerStartError(.socket, "\(host) is not an address of this machine; choose another with --host")
        default:
            return ServerStartError(
                .socket,
                "cannot listen on \(host):\(port): \(String(cString: strerror(io.errnoCode)).lowercased())"
            )
        }
    }

    /// Opening `what` (the catalog, the jobs store) in `directory` failed with `error`.
    package static func opening(_ what: String, in directory: URL, _ error: any Error) -> ServerStartError {
        let path = directory.path
        if let database = error as? DatabaseError {
            switch database.resultCode {
            case .SQLITE_NOTADB, .SQLITE_CORRUPT:
                return ServerStartError(
                    .files,
                    "\(what) in \(path) is damaged or not a SQLite database; move the file aside and start again (it is made anew)"
                )
            case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN:
                return ServerStartError(
                    .files,
                    "cannot write \(what) in \(path); make the directory writable or choose another with --cache-dir"
                )
            case .SQLITE_FULL:
                return ServerStartError(.files, "the disk holding \(path) is full; free some space and start again")
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return ServerStartError(
                    .files,
                    "\(what) in \(path) is locked by another process; stop it or choose another directory with --cache-dir"
                )
            default:
                return ServerStartError(
                    .files,
                    "cannot open \(what) in \(path): \(database.message ?? "SQLite error \(database.resultCode.rawValue)")"
                )
            }
        }
        let cocoa = error as? CocoaError
        let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if cocoa?.code == .fileWriteFileExists || posix?.code == Int(EEXIST) || posix?.code == Int(ENOTDIR) {
            return ServerStartError(
                .files,
                "cannot use \(path) for \(what): a file is in the way of the directory; remove it or choose another with --cache-dir"
            )
        }
        if cocoa?.code == .fileWriteNoPermission || posix?.code == Int(EACCES) {
            return ServerStartError(
                .files,
                "cannot write \(what) in \(path): permission denied; make it writable or choose another with --cache-dir"
            )
        }
        if cocoa?.code == .fileWriteOutOfSpace || posix?.code == Int(ENOSPC) {
            return ServerStartError(.files, "the disk holding \(path) is full; free some space and start again")
        }
        if let already = error as? ServerStartError { return already }
        return ServerStartError(.files, "cannot open \(what) in \(path): \(error.localizedDescription)")
    }
}
