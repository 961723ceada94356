import BooksTrackContract
import Foundation

/// The rate-limit class the client's ledger keys on: one of the contract's classes
/// (`BudgetClass`, docs/contract.md §7), or a class name a server sends in `X-RateLimit-Class` that
/// bts does not know. The names, routes and documented budgets are stated once, on `BudgetClass`.
package enum RateLimitClass: Hashable, Sendable, Comparable, RawRepresentable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// A class of the contract.
    case known(BudgetClass)
    /// A server's own class name, not in the contract.
    case other(String)

    /// Creates a class from its name: a contract class when the name is one.
    package init(rawValue: String) {
        self = BudgetClass(rawValue: rawValue).map { .known($0) } ?? .other(rawValue)
    }
    /// Creates a class from a string literal.
    package init(stringLiteral value: String) { self.init(rawValue: value) }
    /// The contract's class.
    package init(_ budgetClass: BudgetClass) { self = .known(budgetClass) }

    /// The class name as shown to the user (`"semantic"`).
    package var rawValue: String {
        switch self {
        case .known(let budgetClass): return budgetClass.rawValue
        case .other(let name): return name
        }
    }
    /// The class name.
    package var description: String { rawValue }
    /// Orders classes by name (stable output).
    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    package static let search = Self.known(.search)
    package static let semantic = Self.known(.semantic)
    package static let similar = Self.known(.similar)
    package static let enrich = Self.known(.enrich)
    package static let batch = Self.known(.batch)
    package static let `import` = Self.known(.import)
    package static let scan = Self.known(.scan)
    package static let jobs = Self.known(.jobs)
    package static let global = Self.known(.global)

    /// The documented limits of docs/contract.md §7 (from `BudgetClass`): requests per window.
    package static var documentedLimits: [RateLimitClass: (requests: Int, window: Duration)] {
        Dictionary(
            uniqueKeysWithValues: BudgetClass.allCases.map {
                (.known($0), (requests: $0.defaultLimit, window: Duration.seconds($0.defaultWindowSeconds)))
            }
        )
    }
}
