import Testing

@testable import BTSShell

/// The welcome line fits the terminal: whole where it fits, its hints dropped (last first) where
/// not, the version and backend always kept.
@Suite struct WelcomeLineTests {
    static let version = "0.1.0 (commit 863ebbf841c8)"

    @Test func wholeWhereItFitsOrWhenTheWidthIsUnknown() {
        let whole = "bts \(Self.version) · backend embedded · type 'help' · Ctrl-D quits"
        #expect(Shell.welcomeLine(version: Self.version, backend: "embedded", columns: 80) == whole)
        #expect(whole.count <= 80)
        #expect(
            Shell.welcomeLine(version: Self.version, backend: "127.0.0.1:18777")
                == "bts \(Self.version) · backend 127.0.0.1:18777 · type 'help' · Ctrl-D quits"
        )
    }

    @Test func hintsGoLastFirstWhereItDoesNotFit() {
        let server = Shell.welcomeLine(version: Self.version, backend: "127.0.0.1:18777", columns: 80)
        #expect(server == "bts \(Self.version) · backend 127.0.0.1:18777 · type 'help'")
        let long = Shell.welcomeLine(version: Self.version, backend: "books.example.com:8443/api/v1", columns: 80)
        #expect(long == "bts \(Self.version) · backend books.example.com:8443/api/v1")
        // Never less than the version and the backend, however narrow.
        #expect(
            Shell.welcomeLine(version: Self.version, backend: "embedded", columns: 10)
                == "bts \(Self.version) · backend embedded"
        )
        for columns in 20...120 {
            let line = Shell.welcomeLine(version: Self.version, backend: "127.0.0.1:18777", columns: columns)
            #expect(line.count <= columns || line == "bts \(Self.version) · backend 127.0.0.1:18777")
        }
    }
}
