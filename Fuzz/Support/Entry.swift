// The entry point shared by every fuzz target. Built two ways by scripts/fuzz:
// - with libFuzzer (`swiftc -sanitize=fuzzer`): libFuzzer calls LLVMFuzzerTestOneInput;
// - as a deterministic loop (FUZZ_LOOP defined) where libFuzzer does not link: `main` mutates the
//   seed corpus with a seeded PRNG and calls the same function.

@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    fuzzOne(bytes)
    return 0
}

/// Fails the run (libFuzzer records the input as a crash) when an invariant does not hold.
func invariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant violated: \(message())") }
}
