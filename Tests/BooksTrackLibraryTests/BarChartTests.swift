import BooksTrackLibrary
import Testing

@Suite(.onWorkThreads) struct BarChartTests {
    @Test func scalesToTheWidthLeft() {
        let lines = BarChart.render([("2019", 4), ("2020", 8), ("2021", 2)], width: 20)
        // label 4 + space + bar + space + count 1 → 13 columns of bar for the largest.
        #expect(lines == ["2019 ██████▌ 4", "2020 █████████████ 8", "2021 ███▎ 2"])
        #expect(lines.allSatisfy { $0.count <= 20 })
    }

    @Test func asciiAndZeroAndSlivers() {
        let lines = BarChart.render([("read", 100), ("paused", 0), ("to-read", 1)], width: 30, style: .ascii)
        #expect(lines[0] == "read    " + String(repeating: "#", count: 18) + " 100")
        #expect(lines[1] == "paused  0")
        #expect(lines[2] == "to-read # 1", "a non-zero value shows at least one cell")
        let blocks = BarChart.render([("a", 1000), ("b", 1)], width: 12)
        #expect(blocks[1] == "b ▏ 1")
    }

    @Test func neverWiderThanAsked() {
        let rows = [("currently-reading", 12345), ("did-not-finish", 3), ("x", 0)]
        for width in 0...60 {
            let lines = BarChart.render(rows, width: width)
            #expect(lines.count == 3)
            // Fits whenever there is room for a 1-column label, a bar and the widest count (5 digits).
            if width >= 9 { #expect(lines.allSatisfy { $0.count <= width }, "\(width): \(lines)") }
        }
        let narrow = BarChart.render(rows, width: 12)
        #expect(narrow[0] == "cur… █ 12345", "\(narrow)")
        #expect(BarChart.render([(String, Int)](), width: 40).isEmpty)
    }

    @Test func rendersLibraryStats() {
        let counts = [LibraryStats.Count("1★", 0), LibraryStats.Count("5★", 3)]
        #expect(BarChart.render(counts, width: 10) == ["1★ 0", "5★ █████ 3"])
    }
}
