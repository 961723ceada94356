/// The rate-limit budgets the embedded backend keeps (`--limits`). It runs in the reader's own
/// process on the reader's machine, so by default it keeps none; `production` rehearses
/// production's budgets (docs/contract.md §7), waits and exit 5 included.
package enum EmbeddedLimits: String, CaseIterable, Sendable {
    case none
    case production
}
