// Open enumerations: RawRepresentable structs so values this build does not know still decode.

/// An edition's `format` (`Hardcover|Paperback|E-book|Audiobook|Mass Market|Other`); unknown values (production sends `"Unknown"`) decode as-is.
package struct EditionFormat: OpenStringEnum {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }

    package static let hardcover: EditionFormat = "Hardcover"
    package static let paperback: EditionFormat = "Paperback"
    package static let ebook: EditionFormat = "E-book"
    package static let audiobook: EditionFormat = "Audiobook"
    package static let massMarket: EditionFormat = "Mass Market"
    package static let other: EditionFormat = "Other"

    /// The documented values.
    package static let known: [EditionFormat] = [.hardcover, .paperback, .ebook, .audiobook, .massMarket, .other]
    /// True for a documented value.
    package var isKnown: Bool { Self.known.contains(self) }
}

/// A work's `reviewStatus` (`verified|needsReview|userEdited`); unknown values decode as-is.
package struct ReviewStatus: OpenStringEnum {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }

    package static let verified: ReviewStatus = "verified"
    package static let needsReview: ReviewStatus = "needsReview"
    package static let userEdited: ReviewStatus = "userEdited"

    /// The documented values.
    package static let known: [ReviewStatus] = [.verified, .needsReview, .userEdited]
    /// True for a documented value.
    package var isKnown: Bool { Self.known.contains(self) }
}

/// An author's `gender` (`Female|Male|Non-binary|Other|Unknown`); unknown values decode as-is.
package struct AuthorGender: OpenStringEnum {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }

    package static let female: AuthorGender = "Female"
    package static let male: AuthorGender = "Male"
    package static let nonBinary: AuthorGender = "Non-binary"
    package static let other: AuthorGender = "Other"
    package static let unknown: AuthorGender = "Unknown"

    /// The documented values.
    package static let known: [AuthorGender] = [.female, .male, .nonBinary, .other, .unknown]
    /// True for a documented value.
    package var isKnown: Bool { Self.known.contains(self) }
}
