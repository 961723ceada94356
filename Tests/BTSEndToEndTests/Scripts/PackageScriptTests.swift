import Foundation
import TestSupport
import Testing

private let hasDpkgDeb = FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-deb")

/// `scripts/package` with the built binary (`BTS_BINARY`): the `.deb`'s control fields and file list,
/// the same tree in the `.tar.gz`, and the extracted package's `bts` running from where it was unpacked.
/// Nothing is installed on the machine: the package is only read and unpacked into a temporary directory.
@Suite("package script", .enabled(if: BTSBinary.isAvailable && hasDpkgDeb, "needs the bts binary and dpkg-deb"))
struct PackageScriptTests {
    static let packagedPaths = [
        "./usr/lib/bts/bts", "./usr/lib/bts/bts.build-info",
        "./usr/lib/bts/bts_BooksTrackCatalog.resources/Resources/catalog.tsv",
        "./usr/share/man/man1/bts.1.gz",
        "./usr/share/bash-completion/completions/bts", "./usr/share/zsh/vendor-completions/_bts",
        "./usr/share/fish/vendor_completions.d/bts.fish",
        "./usr/share/vim/vimfiles/syntax/bts.vim", "./usr/share/vim/vimfiles/ftdetect/bts.vim",
        "./usr/share/nvim/site/syntax/bts.vim", "./usr/share/nvim/site/ftdetect/bts.vim",
        "./usr/share/bts/editors/vscode/package.json", "./usr/share/bts/editors/vscode/syntaxes/bts.tmLanguage.json",
        "./usr/share/doc/bts/copyright",
    ]

    static func quoted(_ url: URL) -> String { "'" + url.path.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    @Test func buildsADebAndATarballOfTheSameTreeThatRunsUnpacked() throws {
        let binary = try #require(BTSBinary.path)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("bts-package-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let out = work.appendingPathComponent("out")
        let built = try InstallScriptTests.sh(
            "scripts/package --fast \(Self.quoted(out))",
            environment: ["BTS_BINARY": binary]
        )
        #expect(built.status == 0, "\(built.output)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path)
        let debName = try #require(names.first { $0.hasPrefix("bts_0.1.0") && $0.hasSuffix(".deb") }, "\(names)")
        let tarName = try #require(names.first { $0.hasPrefix("bts-0.1.0") && $0.hasSuffix(".tar.gz") }, "\(names)")
        let deb = out.appendingPathComponent(debName)

        // The control fields.
        let info = try InstallScriptTests.sh("dpkg-deb --info \(Self.quoted(deb))")
        #expect(info.status == 0, "\(info.output)")
        let fields = Dictionary(
            info.output.split(separator: "\n").compactMap { line -> (String, String)? in
                let text = line.trimmingCharacters(in: .whitespaces)
                guard let colon = text.firstIndex(of: ":"), !text[..<colon].contains(" ") else { return nil }
                return (String(text[..<colon]), text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            },
            uniquingKeysWith: { first, _ in first }
        )
        #expect(fields["Package"] == "bts")
        #expect(fields["Version"]?.hasPrefix("0.1.0") == true, "\(fields)")
        #expect(debName.contains(fields["Version"] ?? "?"), "\(debName)")
        #expect(fields["Architecture"]?.isEmpty == false)
        #expect(Int(fields["Installed-Size"] ?? "") ?? 0 > 1000, "\(fields)")
        let depends = fields["Depends"] ?? ""
        for library in ["libc6", "libedit2", "libsqlite3-0", "libzbar0"] {
            #expect(
                depends.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == library },
                "\(depends)"
            )
        }
        #expect(fields["Recommends"] == "libopenblas0")
        #expect(fields["Description"]?.isEmpty == false)

        // The file list: every path, bts on PATH as a link to the binary, owned by root.
        let contents = try InstallScriptTests.sh("dpkg-deb --contents \(Self.quoted(deb))")
        #expect(contents.status == 0, "\(contents.output)")
        let lines = contents.output.split(separator: "\n").map(String.init)
        let debPaths = Set(
            lines.compactMap { line -> String? in
                guard let start = line.range(of: " ./") else { return nil }
                let path = String(line[line.index(after: start.lowerBound)...])
                return path.components(separatedBy: " -> ").first
            }
        )
        for path in Self.packagedPaths { #expect(debPaths.contains(path), "\(path)") }
        #expect(lines.contains { $0.hasSuffix("./usr/bin/bts -> ../lib/bts/bts") }, "\(contents.output.prefix(600))")
        #expect(lines.allSatisfy { $0.contains("root/root") }, "\(contents.output.prefix(600))")

        // The tarball holds the same tree.
        let listed = try InstallScriptTests.sh("tar -tzf \(Self.quoted(out.appendingPathComponent(tarName)))")
        #expect(listed.status == 0)
        let tarPaths = Set(listed.output.split(separator: "\n").map { "./" + $0 })
        let debFiles = debPaths.filter { !$0.hasSuffix("/") && $0 != "./" }
        let tarFiles = tarPaths.filter { !$0.hasSuffix("/") }
        #expect(
            debFiles == tarFiles,
            "only in the .deb: \(debFiles.subtracting(tarFiles)); only in the tarball: \(tarFiles.subtracting(debFiles))"
        )

        // Unpacked, not installed: the binary is stripped, runs from there and names its version.
        let root = work.appendingPathComponent("root")
        let extracted = try InstallScriptTests.sh("dpkg-deb -x \(Self.quoted(deb)) \(Self.quoted(root))")
        #expect(extracted.status == 0, "\(extracted.output)")
        let sections = try InstallScriptTests.sh(
            "readelf -S \(Self.quoted(root.appendingPathComponent("usr/lib/bts/bts")))"
        )
        #expect(sections.output.contains(".text") && !sections.output.contains(".debug_info"))
        let home = work.appendingPathComponent("home")
        let scratch =
            "env -u BTS_API_URL HOME=\(Self.quoted(home)) XDG_CONFIG_HOME=\(Self.quoted(home.appendingPathComponent("config")))"
            + " XDG_STATE_HOME=\(Self.quoted(home.appendingPathComponent("state"))) XDG_DATA_HOME=\(Self.quoted(home.appendingPathComponent("data")))"
        let bts = Self.quoted(root.appendingPathComponent("usr/bin/bts"))
        let help = try InstallScriptTests.sh("\(scratch) \(bts) -c help")
        #expect(help.status == 0, "\(help.output)")
        #expect(help.output.contains("search") && help.output.contains("import"), "\(help.output.prefix(400))")
        let version = try InstallScriptTests.sh("\(scratch) \(bts) --version")
        #expect(version.output.hasPrefix("0.1.0 (commit "), "\(version.output)")
        let copyright = try String(
            contentsOf: root.appendingPathComponent("usr/share/doc/bts/copyright"),
            encoding: .utf8
        )
        #expect(copyright.hasPrefix("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"))
        #expect(copyright.contains("Zygmunt Zając") && copyright.contains("License: CC-BY-SA-4.0"))
    }
}
