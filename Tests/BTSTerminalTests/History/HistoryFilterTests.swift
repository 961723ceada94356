import BTSTerminal
import Testing

@Suite("HistoryFilter")
struct HistoryFilterTests {
    @Test(
        "built-in secret markers are refused",
        arguments: [
            "set header Authorization: Basic abc",
            "curl -H 'bearer abc'",
            "connect https://api.example.com/?token=abc",
            "connect prod --token abc",
            "set password hunter2",
            "connect https://alice:pw@api.example.com",
            "connect https://tokenonly@api.example.com/v1",
            "set api_key 123",
            "set x-api-key 123",
        ]
    )
    func refusesSecrets(line: String) {
        #expect(!HistoryFilter.builtIn.allows(line))
    }

    @Test(
        "ordinary lines are allowed",
        arguments: [
            "search dune",
            "connect https://api.example.com/v1",
            "search title \"tokens of love\"",
            "echo user@example.com",
            "connect https://api.example.com/path@v2",
        ]
    )
    func allowsOrdinary(line: String) {
        #expect(HistoryFilter.builtIn.allows(line))
    }

    @Test("leading space, blank, over-long and caller-flagged lines are refused")
    func otherRules() {
        let filter = HistoryFilter(isSensitive: { $0.contains("private") }, maximumLength: 10)
        #expect(!filter.allows(" jobs"))
        #expect(!filter.allows(""))
        #expect(!filter.allows("\t  "))
        #expect(!filter.allows("12345678901"))
        #expect(!filter.allows("private"))
        #expect(filter.allows("jobs"))
    }
}
