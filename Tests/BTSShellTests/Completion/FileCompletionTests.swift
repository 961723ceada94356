import BTSShell
import Foundation
import Testing

@Suite("Completion engine: file paths")
struct FileCompletionTests {
    let engine = CompletionFixtures.engine(CompletionFixtures.fileContext())

    @Test("import offers .csv files (any case) and directories; source offers .bts")
    func extensions() {
        #expect(engine.answer("import ").candidates == ["Library\\ Export.CSV", "data/", "library.csv"])
        #expect(engine.answer("import ").display == ["Library Export.CSV", "data/", "library.csv"])
        #expect(engine.tab("import lib") == "import library.csv ")
        #expect(engine.answer("source ").candidates == ["data/", "setup.bts"])
        #expect(engine.tab("source s") == "source setup.bts ")
        #expect(engine.tab("import --watch l") == "import --watch library.csv ")
    }

    @Test("--from takes any file")
    func fromAnyFile() {
        #expect(engine.answer("enrich --from ").candidates.count == 6)
        #expect(engine.tab("enrich --from isb") == "enrich --from isbns.txt ")
        #expect(engine.tab("enrich --from no") == "enrich --from notes.md ")
        #expect(engine.tab("enrich -f no") == "enrich -f notes.md ")
        #expect(engine.tab("enrich --from=no") == "enrich --from=notes.md ")
    }

    @Test("a directory completes with a slash and no space, then its contents")
    func directories() {
        #expect(engine.tab("import da") == "import data/")
        #expect(engine.tab("import data/") == "import data/big.csv ")
    }

    @Test("hidden files only when the typed name starts with a dot")
    func hidden() {
        #expect(!engine.answer("import ").candidates.contains(".hidden.csv"))
        #expect(engine.answer("import .").candidates == [".config/", ".hidden.csv"])
    }

    @Test("~ expands to the home directory and stays as typed; blanks are escaped or kept in quotes")
    func homeAndQuoting() {
        #expect(engine.tab("import ~") == "import ~/")
        #expect(engine.answer("import ~/").candidates == ["~/My\\ Books/", "~/books.csv"])
        #expect(engine.tab("import ~/My") == "import ~/My\\ Books/")
        #expect(engine.tab("import ~/My\\ Books/") == "import ~/My\\ Books/a\\ b.csv ")
        #expect(engine.tab("import \"~/My") == "import \"~/My Books/")
        #expect(engine.tab("import \"~/My Books/a") == "import \"~/My Books/a b.csv\" ")
        #expect(engine.tab("import '~/My Books/a") == "import '~/My Books/a b.csv' ")
        #expect(engine.tab("import Lib") == "import Library\\ Export.CSV ")
    }

    @Test("an unreadable directory gives nothing")
    func unreadable() {
        #expect(engine.answer("import /nonexistent/x").candidates.isEmpty)
        #expect(engine.answer("import ~nobody/x").candidates.isEmpty)
    }

    @Test("the real file system: a temp dir with a CSV, a script and a directory with a blank")
    func realFileSystem() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("bts-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("sub dir"),
            withIntermediateDirectories: true
        )
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("isbn\n".utf8).write(to: root.appendingPathComponent("shelf.csv"))
        try Data("echo hi\n".utf8).write(to: root.appendingPathComponent("run.bts"))
        try Data().write(to: root.appendingPathComponent("sub dir/inner.csv"))
        var context = CompletionContext()
        context.currentDirectory = root.path
        let engine = CompletionEngine(context: context)
        #expect(engine.tab("import sh") == "import shelf.csv ")
        #expect(engine.tab("import su") == "import sub\\ dir/")
        #expect(engine.tab("import sub\\ dir/") == "import sub\\ dir/inner.csv ")
        #expect(engine.tab("source r") == "source run.bts ")
        #expect(engine.tab("import \(root.path)/sh") == "import \(root.path)/shelf.csv ")
    }
}
