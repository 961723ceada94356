/// How a table's columns share the terminal's width: a pure function of each column's content
/// widths and role, tested without rendering.
package enum TableLayout {
    /// What a column asks of the layout.
    package struct Column: Sendable, Hashable {
        package enum Role: Sendable, Hashable {
            /// Never cut (an ISBN, a number).
            case fixed
            /// May be cut (authors).
            case flexible
            /// A sentence (a reason): cut after the title's share.
            case sentence
            /// The title: cut last.
            case primary
        }
        /// The widest cell (or the header): a column is never wider.
        package var natural: Int
        /// The typical cell's width (the 90th percentile, or the header): flexible columns shrink
        /// toward it before the title is cut.
        package var typical: Int
        /// The narrowest the column is cut to (6 columns or its header, when its content is wider).
        package var floor: Int
        package var role: Role

        package init(natural: Int, typical: Int, floor: Int, role: Role) {
            self.natural = natural
            self.typical = min(natural, typical)
            self.floor = min(natural, floor)
            self.role = role
        }

        /// A column measured from its header's and cells' display widths.
        package init(header: Int, cells: [Int], role: Role) {
            let sorted = cells.sorted()
            let widest = max(header, sorted.last ?? 0)
            // The 90th percentile by the lower rank: of eight cells the second widest, so one
            // outlier (fourteen authors) does not set the column's typical width.
            let percentile = sorted.isEmpty ? 0 : sorted[Int(Double(sorted.count - 1) * 0.9)]
            self.init(natural: widest, typical: max(header, percentile), floor: max(6, header), role: role)
        }
    }

    /// Columns separating two cells.
    package static let gap = 2

    /// A width every other flexible column keeps (or its typical width when narrower) before the
    /// title is cut below its share.
    package static let readableWidth = 16

    /// A width every other flexible column keeps (or its typical width when narrower) before the
    /// title is cut below its share's floor.
    package static let narrowWidth = 10

    /// The width the title keeps before a sentence column goes below its typical width: a third of
    /// the table, at least 24 columns, never more than its widest cell.
    package static func primaryShare(natural: Int, total: Int) -> Int {
        min(natural, max(24, total / 3))
    }

    /// Each column's width in a table `total` columns wide. Every column starts at its natural
    /// width; while the table is too wide, columns shrink in stages, each stage taking one column
    /// at a time from the column with the most to give above the stage's target:
    /// 1. flexible columns to their typical width, 2. sentences to theirs, 3. flexible columns to
    /// ``readableWidth``, 4. the title to its share (``primaryShare(natural:total:)``), 5. sentences
    /// to ``readableWidth``, 6. flexible columns and sentences to ``narrowWidth``, 7. the title to its
    /// floor, 8. every other cuttable column to its floor. So the title is never cut while another
    /// column is wider than its typical cell. Fixed columns are never cut; a table of fixed
    /// columns wider than `total` stays wider.
    package static func widths(_ columns: [Column], total: Int) -> [Int] {
        var widths = columns.map(\.natural)
        var excess = widths.reduce(0, +) + max(0, columns.count - 1) * gap - total
        guard excess > 0 else { return widths }
        let others: Set<Column.Role> = [.flexible, .sentence]
        let stages: [(Set<Column.Role>, (Column) -> Int)] = [
            ([.flexible], \.typical),
            ([.sentence], \.typical),
            ([.flexible], { min($0.typical, max($0.floor, readableWidth)) }),
            ([.primary], { max($0.floor, primaryShare(natural: $0.natural, total: total)) }),
            ([.sentence], { min($0.typical, max($0.floor, readableWidth)) }),
            (others, { min($0.typical, max($0.floor, narrowWidth)) }),
            ([.primary], \.floor),
            (others, \.floor),
        ]
        for (roles, target) in stages {
            let members = columns.indices.filter { roles.contains(columns[$0].role) }
            while excess > 0 {
                var pick: Int?
                var most = 0
                for index in members {
                    let slack = widths[index] - target(columns[index])
                    if slack > most {
                        most = slack
                        pick = index
                    }
                }
                guard let index = pick else { break }
                widths[index] -= 1
                excess -= 1
            }
            if excess <= 0 { break }
        }
        return widths
    }
}
