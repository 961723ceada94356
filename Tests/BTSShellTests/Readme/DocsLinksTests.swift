import Foundation
import Testing

/// The README is a front door and `docs/` holds the rest: every relative link of theirs
/// resolves, every `docs/….md` a source file, test or script names exists, and the README stays short.
@Suite(.onWorkThreads) struct DocsLinksTests {
    static let root = ReadmeReferenceTests.repositoryURL

    static func markdownPages() throws -> [URL] {
        let docs = root.appendingPathComponent("docs")
        let pages = try FileManager.default.contentsOfDirectory(atPath: docs.path)
            .filter { $0.hasSuffix(".md") }.sorted().map { docs.appendingPathComponent($0) }
        return [root.appendingPathComponent("README.md")] + pages
    }

    /// The targets of `[text](target)` links that are not web addresses or in-page anchors.
    static func relativeLinks(in text: String) -> [String] {
        let pattern = /\]\(([^)\s]+)\)/
        return text.matches(of: pattern).map { String($0.output.1) }
            .filter {
                !$0.hasPrefix("http://") && !$0.hasPrefix("https://") && !$0.hasPrefix("#") && !$0.hasPrefix("mailto:")
            }
            .map { $0.split(separator: "#", maxSplits: 1).first.map(String.init) ?? $0 }
    }

    @Test func everyRelativeLinkResolves() throws {
        var broken: [String] = []
        for page in try Self.markdownPages() {
            let text = try String(contentsOf: page, encoding: .utf8)
            for link in Self.relativeLinks(in: text) {
                let target = page.deletingLastPathComponent().appendingPathComponent(link).standardizedFileURL
                if !FileManager.default.fileExists(atPath: target.path) {
                    broken.append("\(page.lastPathComponent): \(link)")
                }
            }
        }
        #expect(broken.isEmpty, "broken links: \(broken)")
    }

    @Test func theLinkCheckerSeesLinks() {
        let links = Self.relativeLinks(in: "see [a](guide/a.md#x), [b](https://x.org), [c](#top) and [d](../e.md)")
        #expect(links == ["guide/a.md", "../e.md"])
    }

    @Test func everyCitedDocsPageExists() throws {
        var missing: Set<String> = []
        let pattern = /docs\/([A-Za-z0-9_-]+\.md)/
        for folder in ["Sources", "Tests", "scripts", "Fuzz"] {
            let base = Self.root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let file as URL in walker where ["swift", "sh", "md", ""].contains(file.pathExtension) {
                guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
                for match in text.matches(of: pattern) {
                    let name = String(match.output.1)
                    if !FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("docs/\(name)").path) {
                        missing.insert("\(file.lastPathComponent) cites docs/\(name)")
                    }
                }
            }
        }
        #expect(missing.isEmpty, "cited docs pages that do not exist: \(missing.sorted())")
    }

    /// The workspace's founding documents lie beside the repository, not in it: what the project says
    /// of them is in docs/ (contract.md, usage.md, …), and comments cite those pages.
    @Test func nothingCitesAFileOutsideTheRepository() throws {
        let outside = ["CONTRACT" + ".md", "SHELL" + ".md"]
        var citing: [String] = []
        for folder in ["Sources", "Tests", "scripts", "Fuzz", "docs"] {
            let base = Self.root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let file as URL in walker where ["swift", "md", "sh", ""].contains(file.pathExtension) {
                guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
                if outside.contains(where: { text.contains($0) }) { citing.append(file.lastPathComponent) }
            }
        }
        #expect(citing.isEmpty, "cite docs/ instead: \(citing.sorted())")
    }

    @Test func theReadmeIsAFrontDoor() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 300, "README.md has \(lines) lines; the reference belongs in docs/")
        #expect(text.contains("scripts/bts") && text.contains("scripts/test"), "the README names its two commands")
    }
}
