import BooksTrackContract

/// Values by rate-limit class: the contract's classes in a fixed array (a look-up is an index),
/// a server's own classes in a dictionary. The ledger looks classes up several times a request,
/// and an index costs nothing where a dictionary key is hashed at every look-up.
struct RateLimitTable<Value: Sendable>: Sendable {
    private var known = [Value?](repeating: nil, count: BudgetClass.allCases.count)
    private var others: [String: Value] = [:]

    subscript(key: RateLimitClass) -> Value? {
        get {
            switch key {
            case .known(let budgetClass): return known[budgetClass.ordinal]
            case .other(let name): return others[name]
            }
        }
        set {
            switch key {
            case .known(let budgetClass): known[budgetClass.ordinal] = newValue
            case .other(let name): others[name] = newValue
            }
        }
    }

    /// Every class with a value: the contract's in `allCases` order, then the others.
    var entries: [(RateLimitClass, Value)] {
        var entries: [(RateLimitClass, Value)] = []
        for (budgetClass, value) in zip(BudgetClass.allCases, known) {
            if let value { entries.append((.known(budgetClass), value)) }
        }
        for (name, value) in others { entries.append((.other(name), value)) }
        return entries
    }
}
