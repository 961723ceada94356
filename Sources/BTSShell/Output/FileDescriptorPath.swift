/// A path that names one of this process's open descriptors: `/dev/stdin`, `/dev/stdout`,
/// `/dev/stderr`, `/dev/fd/N` (what `bts <(…)` and `--report-json >(…)` get), `/proc/self/fd/N`.
/// Such a path is the stream the caller opened — a pipe, a terminal, a file it redirected — and is
/// read or written through that descriptor, never replaced (renaming over `/dev/stdout` would put a
/// file where the link was; following its link reaches `pipe:[…]`, which is no path).
enum FileDescriptorPath {
    /// The descriptor `path` names, or nil.
    static func descriptor(of path: String) -> Int32? {
        switch path {
        case "/dev/stdin": return 0
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default: break
        }
        for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
            let number = path.dropFirst(prefix.count)
            guard !number.isEmpty, number.count <= 9, number.allSatisfy({ ("0"..."9").contains($0) }),
                let value = Int32(number)
            else {
                return nil
            }
            return value
        }
        return nil
    }
}
