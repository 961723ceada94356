import Foundation
import Synchronization

/// OpenBLAS's `cblas_sgemm`, loaded with `dlopen` when the encoder is first built: `bts` has no
/// link-time dependency on libopenblas, so a process that never embeds a query neither loads it
/// nor starts its thread pool. `$BTS_OPENBLAS` names another library file (default
/// `libopenblas.so.0`, Debian's libopenblas0, which `scripts/setup` installs).
package struct OpenBLAS: Sendable {
    /// CBLAS's `cblas_sgemm(order, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)`.
    typealias SGEMM =
        @convention(c) (
            Int32, Int32, Int32, Int32, Int32, Int32, Float, UnsafePointer<Float>?, Int32,
            UnsafePointer<Float>?, Int32, Float, UnsafeMutablePointer<Float>?, Int32
        ) -> Void

    /// CBLAS's enum values (cblas.h).
    static let rowMajor: Int32 = 101
    static let noTranspose: Int32 = 111
    static let transpose: Int32 = 112

    package static let defaultLibrary = "libopenblas.so.0"
    package static let libraryVariable = "BTS_OPENBLAS"

    let sgemm: SGEMM

    private static let loaded = Mutex<[String: OpenBLAS]>([:])

    /// The library named by `$BTS_OPENBLAS` or `libopenblas.so.0`, loaded once per name. OpenBLAS
    /// runs on one thread: a query's matrices are small (at most 128 rows), and its worker threads
    /// spin while they wait (on 2 shared cores they doubled the CPU time of embedding the books).
    /// OpenBLAS reads `OPENBLAS_NUM_THREADS` when it loads and starts that many threads less one,
    /// so it is set to 1 before `dlopen` unless the user set it.
    package static func load(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Result<OpenBLAS, ModelUnavailable> {
        let name = libraryName(environment: environment)
        return loaded.withLock { cache in
            if let blas = cache[name] { return .success(blas) }
            if getenv("OPENBLAS_NUM_THREADS") == nil { setenv("OPENBLAS_NUM_THREADS", "1", 0) }
            // Lazy, and its own symbols first: its many symbol relocations (DYNAMIC_ARCH's kernel
            // tables) then find each symbol in the library itself instead of after the other
            // libraries bts loads, and its PLT slots are bound at first call, which makes the
            // dlopen cheaper (docs/meaning.md).
            guard let handle = dlopen(name, RTLD_LAZY | RTLD_LOCAL | RTLD_DEEPBIND) else {
                return .failure(.blasMissing(library: name, reason: Self.lastError()))
            }
            guard let symbol = dlsym(handle, "cblas_sgemm") else {
                let reason = Self.lastError()
                dlclose(handle)
                return .failure(.blasMissing(library: name, reason: reason))
            }
            if let setThreads = dlsym(handle, "openblas_set_num_threads") {
                unsafeBitCast(setThreads, to: (@convention(c) (Int32) -> Void).self)(1)
            }
            let blas = OpenBLAS(sgemm: unsafeBitCast(symbol, to: SGEMM.self))
            cache[name] = blas
            return .success(blas)
        }
    }

    /// `$BTS_OPENBLAS`, else `libopenblas.so.0`.
    static func libraryName(environment: [String: String]) -> String {
        environment[libraryVariable].flatMap { $0.isEmpty ? nil : $0 } ?? defaultLibrary
    }

    private static func lastError() -> String {
        dlerror().map { String(cString: $0) } ?? "unknown error"
    }

    /// `c = alpha · a · op(b) + beta · c`, row-major; `a` is m × k, `op(b)` k × n (`b` stored n × k
    /// when `transposeB`), `c` m × n.
    @inline(__always)
    func multiply(
        m: Int,
        n: Int,
        k: Int,
        alpha: Float = 1,
        _ a: UnsafePointer<Float>?,
        lda: Int,
        _ b: UnsafePointer<Float>?,
        ldb: Int,
        transposeB: Bool,
        beta: Float,
        _ c: UnsafeMutablePointer<Float>?,
        ldc: Int
    ) {
        sgemm(
            Self.rowMajor,
            Self.noTranspose,
            transposeB ? Self.transpose : Self.noTranspose,
            Int32(m),
            Int32(n),
            Int32(k),
            alpha,
            a,
            Int32(lda),
            b,
            Int32(ldb),
            beta,
            c,
            Int32(ldc)
        )
    }
}
