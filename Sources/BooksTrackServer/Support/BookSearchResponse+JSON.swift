import BooksTrackContract
import NIOCore

extension BookSearchResponse {
    /// This response as the contract's encoder writes it (the same keys, string escapes and number
    /// text; keys in declaration order; absent optionals left out), by hand: the generic encoder's
    /// first use would slow every embedded one-shot lookup. `EncodedEnvelopeTests`
    /// holds it to the encoder's JSON over real catalog results.
    func encodedJSON() -> EncodedJSON {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(128 + works.count * 900)
        var members = JSONMembers()
        members.key("works", &buffer)
        JSONMembers.array(works, &buffer) { $0.write(to: &$1) }
        members.key("editions", &buffer)
        JSONMembers.array(editions, &buffer) { $0.write(to: &$1) }
        members.key("authors", &buffer)
        JSONMembers.array(authors, &buffer) { $0.write(to: &$1) }
        members.int("resultCount", resultCount, &buffer)
        members.int("totalResults", totalResults, &buffer)
        members.string("correctedQuery", correctedQuery, &buffer)
        members.close(&buffer)
        return EncodedJSON(bytes: buffer)
    }
}

extension WorkDTO {
    fileprivate func write(to buffer: inout ByteBuffer) {
        var members = JSONMembers()
        members.string("title", title, &buffer)
        members.strings("subjectTags", subjectTags, &buffer)
        members.strings("goodreadsWorkIDs", goodreadsWorkIDs, &buffer)
        members.strings("amazonASINs", amazonASINs, &buffer)
        members.strings("librarythingIDs", librarythingIDs, &buffer)
        members.strings("googleBooksVolumeIDs", googleBooksVolumeIDs, &buffer)
        members.int("isbndbQuality", isbndbQuality, &buffer)
        members.string("reviewStatus", reviewStatus.rawValue, &buffer)
        members.string("originalLanguage", originalLanguage, &buffer)
        members.int("firstPublicationYear", firstPublicationYear, &buffer)
        members.string("description", description, &buffer)
        members.string("coverImageURL", coverImageURL, &buffer)
        members.bool("synthetic", synthetic, &buffer)
        members.string("primaryProvider", primaryProvider, &buffer)
        members.strings("contributors", contributors, &buffer)
        members.string("openLibraryWorkID", openLibraryWorkID, &buffer)
        members.string("goodreadsID", goodreadsID, &buffer)
        if let searchLinks {
            members.key("searchLinks", &buffer)
            var links = JSONMembers()
            links.string("googleBooks", searchLinks.googleBooks, &buffer)
            links.string("openLibrary", searchLinks.openLibrary, &buffer)
            links.string("amazon", searchLinks.amazon, &buffer)
            links.close(&buffer)
        }
        members.strings("authors", authors, &buffer)
        members.close(&buffer)
    }
}

extension EditionDTO {
    fileprivate func write(to buffer: inout ByteBuffer) {
        var members = JSONMembers()
        members.strings("isbns", isbns, &buffer)
        members.string("format", format.rawValue, &buffer)
        members.strings("amazonASINs", amazonASINs, &buffer)
        members.strings("googleBooksVolumeIDs", googleBooksVolumeIDs, &buffer)
        members.strings("librarythingIDs", librarythingIDs, &buffer)
        members.int("isbndbQuality", isbndbQuality, &buffer)
        members.string("isbn", isbn, &buffer)
        members.string("title", title, &buffer)
        members.string("publisher", publisher, &buffer)
        members.string("publicationDate", publicationDate, &buffer)
        members.int("pageCount", pageCount, &buffer)
        members.string("coverImageURL", coverImageURL, &buffer)
        members.string("editionTitle", editionTitle, &buffer)
        members.string("editionDescription", editionDescription, &buffer)
        members.string("language", language, &buffer)
        members.strings("authors", authors, &buffer)
        members.close(&buffer)
    }
}

extension AuthorDTO {
    fileprivate func write(to buffer: inout ByteBuffer) {
        var members = JSONMembers()
        members.string("name", name, &buffer)
        members.string("gender", gender.rawValue, &buffer)
        members.string("culturalRegion", culturalRegion, &buffer)
        members.string("nationality", nationality, &buffer)
        members.int("birthYear", birthYear, &buffer)
        members.int("deathYear", deathYear, &buffer)
        members.int("bookCount", bookCount, &buffer)
        members.close(&buffer)
    }
}

/// The members of one JSON object written into a buffer: `{` before the first, `,` between, `}`
/// at `close`; a `nil` value leaves its member out, as the encoder does for an absent optional.
struct JSONMembers {
    private var first = true

    mutating func key(_ name: StaticString, _ buffer: inout ByteBuffer) {
        buffer.writeInteger(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
        first = false
        buffer.writeInteger(UInt8(ascii: "\""))
        buffer.writeStaticString(name)
        buffer.writeStaticString("\":")
    }

    mutating func string(_ name: StaticString, _ value: String?, _ buffer: inout ByteBuffer) {
        guard let value else { return }
        key(name, &buffer)
        JSONText.writeString(value, to: &buffer)
    }

    mutating func strings(_ name: StaticString, _ value: [String]?, _ buffer: inout ByteBuffer) {
        guard let value else { return }
        key(name, &buffer)
        JSONText.writeStrings(value, to: &buffer)
    }

    mutating func int(_ name: StaticString, _ value: Int?, _ buffer: inout ByteBuffer) {
        guard let value else { return }
        key(name, &buffer)
        buffer.writeString(String(value))
    }

    mutating func bool(_ name: StaticString, _ value: Bool?, _ buffer: inout ByteBuffer) {
        guard let value else { return }
        key(name, &buffer)
        buffer.writeStaticString(value ? "true" : "false")
    }

    func close(_ buffer: inout ByteBuffer) {
        if first { buffer.writeInteger(UInt8(ascii: "{")) }
        buffer.writeInteger(UInt8(ascii: "}"))
    }

    /// A JSON array of `elements`, each written by `write`.
    static func array<Element>(
        _ elements: [Element],
        _ buffer: inout ByteBuffer,
        _ write: (Element, inout ByteBuffer) -> Void
    ) {
        buffer.writeInteger(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
            write(element, &buffer)
        }
        buffer.writeInteger(UInt8(ascii: "]"))
    }
}
