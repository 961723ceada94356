import BooksTrackClient
import BooksTrackContract
import Testing

/// The ledger's key is the contract's class; names bts does not know stay possible.
@Suite("RateLimitClass")
struct RateLimitClassTests {
    @Test func contractNamesAreTheContractClasses() {
        for budgetClass in BudgetClass.allCases {
            let name = RateLimitClass(rawValue: budgetClass.rawValue)
            #expect(name == .known(budgetClass))
            #expect(name.rawValue == budgetClass.rawValue)
        }
        #expect(RateLimitClass.jobs == "jobs")
    }

    @Test func otherNamesAreKeptAsSent() {
        let burst = RateLimitClass(rawValue: "burst")
        #expect(burst == .other("burst"))
        #expect(burst.description == "burst")
        #expect(RateLimitClass(rawValue: "Search") == .other("Search"))
        #expect(burst < .global)
    }

    @Test func documentedLimitsComeFromBudgetClass() {
        let limits = RateLimitClass.documentedLimits
        #expect(limits.count == BudgetClass.allCases.count)
        for budgetClass in BudgetClass.allCases {
            let limit = limits[.known(budgetClass)]
            #expect(limit?.requests == budgetClass.defaultLimit)
            #expect(limit?.window == .seconds(budgetClass.defaultWindowSeconds))
        }
    }

    /// `POST /api/token/refresh` is budgeted as `jobs` (the class its request spec takes), as the server limits it.
    @Test func tokenRefreshIsJobs() {
        #expect(BooksTrackAPI.rateLimitClass(method: "POST", path: "/api/token/refresh") == .jobs)
    }
}
