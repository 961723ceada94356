import BooksTrackContract
import Testing

@testable import BooksTrackClient

/// The ledger's table keeps a value per class, the contract's and a server's own apart.
@Suite struct RateLimitTableTests {
    @Test func eachClassKeepsItsOwnValue() {
        var table = RateLimitTable<Int>()
        for (index, budgetClass) in BudgetClass.allCases.enumerated() { table[.known(budgetClass)] = index * 10 }
        table[.other("ai")] = 99
        table[.other("search")] = 77  // a server's own class of that name is not the contract's
        for (index, budgetClass) in BudgetClass.allCases.enumerated() {
            #expect(table[.known(budgetClass)] == index * 10)
        }
        #expect(table[.other("ai")] == 99)
        #expect(table[.other("search")] == 77)
        #expect(table[.other("nope")] == nil)
        table[.semantic] = nil
        #expect(table[.semantic] == nil)
        let entries = table.entries
        #expect(entries.count == BudgetClass.allCases.count - 1 + 2)
        #expect(entries.prefix(2).map(\.0) == [.search, .similar])
        #expect(Set(entries.suffix(2).map(\.0.rawValue)) == ["ai", "search"])
    }
}
