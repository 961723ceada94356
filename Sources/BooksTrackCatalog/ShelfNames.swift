import Foundation

/// Which goodbooks-10k shelf names (`tags.csv`) carry meaning, and which spellings are one shelf.
///
/// Three treatments, each stated here once:
/// - **Dropped by rule** (`isGeneric`): shelves about the reader, not the book — reading status
///   (`to-read`, `currently-reading`, `read`, `re-read`, `re-reading`, `dnf`, `did-not-finish`, `abandoned`,
///   `default`), years and challenges (any name with a year 1900–2099: `read-in-2016`,
///   `2015-reads`), ownership and wishes (`owned`, `books-i-own`, `my-library`, `wish-list`,
///   `to-buy`, `on-my-shelf`), how the copy came (`arc`, `netgalley`, `first-reads`, `giveaways`),
///   formats (`kindle`, `ebook`, `audiobook`, `audible`, `nook`, `paperback`), and favourites and
///   star ratings (`favorites`, `all-time-favourites`, `5-stars`).
/// - **Faded by IDF** (kept, weighted down by how many books carry them): broad shelves such as
///   `fiction`, `novels`, `books`, `adult`, `literature`, `english`, `library-books`, `series`.
///   Inverse document frequency makes a shelf on most books nearly weightless without a list.
/// - **Merged** (`key` and `synonyms`): case, width (NFKC: `Ｆａｖｏｒｉｔｅｓ`), diacritics
///   (`clàssics`), and `-`/`_`/space/`.` separators are ignored (`sci-fi` = `scifi`,
///   `non-fiction` = `nonfiction`); `synonyms` joins clear spelling variants (`science-fiction`,
///   `distopia`, `ya`); the cleaner also joins a plural with its singular when both exist
///   (`vampires` and `vampire`, `mysteries` and `mystery`).
package enum ShelfNames {
    /// Explicit variants, by `key` (separators removed) → the shelf's shown name.
    static let synonyms: [String: String] = {
        let groups: [String: [String]] = [
            "science-fiction": ["scifi", "sciencefiction", "sf", "scifiction"],
            "young-adult": [
                "ya", "youngadult", "yafiction", "youngadultfiction", "yalit", "yaliterature", "teen",
                "teenfiction", "youngadults",
            ],
            "dystopian": [
                "dystopia", "dystopian", "dystopias", "distopia", "distopian", "dystopianfiction",
                "dystopiannovels", "dystopianfuture", "distopias",
            ],
            "childrens": [
                "children", "childrens", "childrensbooks", "kids", "kidsbooks", "childrensliterature",
                "childrensfiction", "childrenbooks", "juvenile", "juvenilefiction",
            ],
            "classics": [
                "classic", "classics", "classicliterature", "classicnovels", "clasicos", "classici",
                "classiques", "klassiker", "classicos",
            ],
            "historical-fiction": [
                "historicalfiction", "histfic", "historicalnovels", "historicalnovel", "histfiction",
            ],
            "nonfiction": ["nonfiction", "nonfic"],
            "graphic-novels": ["graphicnovel", "graphicnovels"],
            "humor": ["humor", "humour", "funny", "comedy"],
            "memoir": ["memoir", "memoirs"],
            "biography": ["biography", "biographies", "bio", "biographical"],
            "post-apocalyptic": ["postapocalyptic", "apocalyptic", "apocalypse", "postapocalypse", "postapoc"],
            "fairy-tales": ["fairytales", "fairytale", "fairytaleretellings", "fairytaleretelling"],
            "lgbt": ["lgbt", "lgbtq", "glbt", "queer", "lgbtqia", "lgbtq+", "gay"],
            "fantasy": ["fantasy", "fantasia", "fantastique", "fantasie"],
            "mystery": ["mystery", "mysteries", "misterio", "mystery-thriller-suspense"],
            "thriller": ["thriller", "thrillers", "suspense-thriller"],
            "romance": ["romance", "romances", "romantic"],
            "poetry": ["poetry", "poems", "poesia", "poesie"],
            "horror": ["horror", "terror"],
            "self-help": ["selfhelp", "selfimprovement", "personaldevelopment"],
        ]
        var map: [String: String] = [:]
        for (name, variants) in groups {
            map[key(name)] = name
            for variant in variants { map[key(variant)] = name }
        }
        return map
    }()

    /// The raw name in comparable form: NFKC, lower-case, diacritics folded, words joined by `-`.
    package static func normalized(_ raw: String) -> String {
        let folded = raw.precomposedStringWithCompatibilityMapping
            .folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var out = ""
        var pendingDash = false
        for ch in folded {
            if ch == "-" || ch == "_" || ch == " " || ch == "." || ch == "\t" {
                pendingDash = !out.isEmpty
            } else {
                if pendingDash { out.append("-") }
                pendingDash = false
                out.append(ch)
            }
        }
        return out
    }

    /// What names compare by: the normalized name without separators (`sci-fi` → `scifi`).
    package static func key(_ name: String) -> String {
        normalized(name).filter { $0 != "-" }
    }

    /// Whether a normalized name is about the reader rather than the book (dropped by rule).
    package static func isGeneric(_ name: String) -> Bool {
        if name.isEmpty || !name.contains(where: \.isLetter) { return true }
        if genericNames.contains(name) { return true }
        if genericPrefixes.contains(where: name.hasPrefix) { return true }
        if genericParts.contains(where: name.contains) { return true }
        return containsYear(name) || isStarRating(name)
    }

    static let genericNames: Set<String> = [
        "read", "re-read", "reread", "dnf", "default", "abandoned", "owned", "own", "owned-books", "i-own",
        "books-i-own", "library", "home-library", "wishlist", "wish-list", "kindle", "ebook", "ebooks", "e-book",
        "e-books", "audiobook", "audiobooks", "audio", "audible", "nook", "paperback", "hardcover", "tbr",
        "did-not-finish", "unfinished", "finished", "borrowed", "bought", "gave-up", "on-hold", "have", "shelfari",
        "arc", "arcs", "netgalley", "first-reads", "giveaway", "giveaways", "goodreads-giveaway", "won",
    ]
    static let genericPrefixes = [
        "to-read", "to-buy", "to-reread", "to-re-read", "currently", "read-in", "read-", "my-", "own-", "owned-",
        "i-own", "books-i", "wish", "kindle", "audio", "ebook", "e-book", "did-not", "dnf", "tbr", "default",
        "couldn-t", "could-not", "on-my-", "not-finished", "never-finished", "re-read", "reread",
    ]
    static let genericParts = ["favorite", "favourite", "fave", "fav-", "favs"]

    static func containsYear(_ name: String) -> Bool {
        let digits = Array(name.utf8)
        var run = 0
        for (i, byte) in digits.enumerated() {
            run = (byte >= 0x30 && byte <= 0x39) ? run + 1 : 0
            if run == 4 {
                let year = Int(String(decoding: digits[(i - 3)...i], as: UTF8.self)) ?? 0
                let next = i + 1 < digits.count ? digits[i + 1] : 0
                if (1900...2099).contains(year), !(next >= 0x30 && next <= 0x39) { return true }
            }
        }
        return false
    }

    /// `5-stars`, `4-star`, `five-stars`, `5stars`.
    static func isStarRating(_ name: String) -> Bool {
        guard name.hasSuffix("star") || name.hasSuffix("stars") else { return false }
        let head = name.replacingOccurrences(of: "stars", with: "").replacingOccurrences(of: "star", with: "")
            .trimmingCharacters(in: CharacterSet(charactersIn: "-"))
        return head.allSatisfy(\.isNumber) || ["one", "two", "three", "four", "five"].contains(head)
    }

    /// The shelf a raw name belongs to, as (comparable key, explicit shown name if a synonym), or
    /// nil when the name is dropped by rule.
    static func classify(_ raw: String) -> (key: String, shown: String?)? {
        let name = normalized(raw)
        guard !isGeneric(name) else { return nil }
        let key = name.filter { $0 != "-" }
        guard !key.isEmpty else { return nil }
        if let shown = synonyms[key] { return (ShelfNames.key(shown), shown) }
        return (key, nil)
    }
}
