import Testing
@testable import BTSLanguage

@Suite struct SuggestTests {
    @Test func distances() {
        #expect(Suggest.distance("limt", "limit") == 1)
        #expect(Suggest.distance("titel", "title") == 1)
        #expect(Suggest.distance("serach", "search") == 1)
        #expect(Suggest.distance("", "abc") == 3)
        #expect(Suggest.distance("abc", "") == 3)
        #expect(Suggest.distance("kitten", "sitting") == 3)
        #expect(Suggest.distance("LIMIT", "limit") == 0)
        #expect(Suggest.distance("ca", "abc") == 3)
    }

    @Test func closest() {
        let options = ["title", "author", "limit", "output"]
        #expect(Suggest.closest(to: "limt", among: options) == "limit")
        #expect(Suggest.closest(to: "autor", among: options) == "author")
        #expect(Suggest.closest(to: "outptu", among: options) == "output")
        #expect(Suggest.closest(to: "xyz", among: options) == nil)
        #expect(Suggest.closest(to: "", among: options) == nil)
        #expect(Suggest.closest(to: "a", among: ["b", "ab"]) == nil)
        #expect(Suggest.closest(to: "auth", among: options) == "author")
        #expect(Suggest.closest(to: "serch", among: ["search", "semantic", "set"]) == "search")
        #expect(Suggest.closest(to: "se", among: ["search", "semantic", "set"]) == "set")
        #expect(Suggest.closest(to: "lim", among: options) == "limit")
    }
}
