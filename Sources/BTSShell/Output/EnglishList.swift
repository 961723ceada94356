/// Words joined as a sentence lists them: `a`, `a or b`, `a, b or c` (or with `and`).
package enum EnglishList {
    package static func joined(_ words: [String], _ conjunction: String = "or") -> String {
        guard let last = words.last else { return "" }
        guard words.count > 1 else { return last }
        return words.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}
