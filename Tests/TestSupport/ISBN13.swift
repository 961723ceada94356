/// A valid ISBN-13 from its first twelve digits (`stem`): the stem plus its check digit.
package func makeISBN13(_ stem: String) -> String {
    var sum = 0
    for (index, character) in stem.enumerated() {
        let digit = Int(String(character)) ?? 0
        sum += index % 2 == 0 ? digit : digit * 3
    }
    return stem + String((10 - sum % 10) % 10)
}
