/// Writes a file that holds private data (an export with the user's notes) through ``UserFile``:
/// mode 0600 when new, an existing file (or a symbolic link's target) replaced whole and keeping only
/// its owner's bits. A name that is not a regular file — a directory, a FIFO, a device — is refused:
/// replacing it with a regular file (`Data.write(options: .atomic)` did, `/dev/full` included, as
/// root) loses it.
enum PrivateFile {
    enum Failure: Error, Equatable {
        /// The name is a directory, a FIFO, a device or a socket.
        case notARegularFile(kind: String)
        /// The system or the file's mode refused (`reason` names why).
        case cannotWrite(reason: String)
    }

    static let options = UserFile.Options(isPrivate: true)

    /// Replaces (or creates) the file at `path` with `bytes`.
    static func replace(_ path: String, with bytes: [UInt8]) throws(Failure) {
        do throws(UserFile.Failure) {
            try UserFile.write(bytes, to: path, options)
        } catch .directory {
            throw .notARegularFile(kind: "a directory")
        } catch .notRegular(let kind) {
            throw .notARegularFile(kind: kind)
        } catch {
            throw .cannotWrite(reason: error.reason)
        }
    }
}
