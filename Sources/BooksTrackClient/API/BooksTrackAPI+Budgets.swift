import BooksTrackContract
import Foundation

/// The answer of the pre-flight budget check.
package enum Admission: Sendable, Hashable {
    /// Send now.
    case proceed
    /// The budget is spent: wait this long (show a countdown) or fail with exit 5.
    case wait(Duration)
}

extension BooksTrackAPI {
    /// The budget of one rate-limit class, as learned from headers (or seeded from capabilities).
    package func budget(for rateLimitClass: RateLimitClass) -> RateLimitBudget {
        ledger.budget(for: rateLimitClass)
    }

    /// The class closest to exhaustion (for the prompt), or `nil` when every known budget is full.
    package func tightestBudget(includeFull: Bool = false) -> RateLimitStatus? {
        ledger.tightest(includeFull: includeFull)
    }

    /// Every class with what is known about it (for `limits`).
    package func budgets() -> [(RateLimitClass, RateLimitBudget)] {
        let classes: [RateLimitClass] = [.search, .semantic, .similar, .enrich, .batch, .import, .jobs, .global]
        return classes.map { ($0, ledger.budget(for: $0)) }
    }

    /// Pre-flight check before a call of `rateLimitClass`: `.wait(d)` when the budget is known to
    /// be spent (or the class is blocked after a 429), else `.proceed`.
    package func admission(for rateLimitClass: RateLimitClass) -> Admission {
        switch ledger.decision(for: rateLimitClass) {
        case .wait(let duration) where duration > .zero: return .wait(duration)
        default: return .proceed
        }
    }

    /// The class a request to `method path` is budgeted under before its answer (`nil`: unlimited):
    /// the contract's classifier. Every request spec takes its class from here.
    package nonisolated static func rateLimitClass(
        method: String,
        path: String,
        mode: String? = nil,
        query q: String? = nil
    ) -> RateLimitClass? {
        BudgetClass.classify(method: method, path: path, mode: mode, query: q).map(RateLimitClass.known)
    }
}
