import BTSShell
import Foundation
import Testing

/// One XDG rule for every location of bts (config, caches, state, history, the library): it used to
/// be three helpers with three behaviours (a relative HOME taken as is by two, refused by the third).
@Suite struct XDGPathsTests {
    static let variables = ["XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME"]

    func path(_ url: URL?) -> String? {
        url.map { $0.path.hasSuffix("/") ? String($0.path.dropLast()) : $0.path }
    }

    /// Absolute variables win; relative ones are ignored, for every location alike.
    @Test(arguments: [
        (
            [
                "XDG_CONFIG_HOME": "/x/config", "XDG_CACHE_HOME": "/x/cache", "XDG_STATE_HOME": "/x/state",
                "XDG_DATA_HOME": "/x/data", "HOME": "/h",
            ],
            ["/x/config/bts/config.toml", "/x/cache/bts", "/x/state/bts/history", "/x/data/bts/library.sqlite"]
        ),
        (
            ["XDG_CONFIG_HOME": "c", "XDG_CACHE_HOME": "k", "XDG_STATE_HOME": "s", "XDG_DATA_HOME": "d", "HOME": "/h"],
            [
                "/h/.config/bts/config.toml", "/h/.cache/bts", "/h/.local/state/bts/history",
                "/h/.local/share/bts/library.sqlite",
            ]
        ),
    ])
    func absoluteVariablesWinThenHome(_ environment: [String: String], _ expected: [String]) {
        let paths = XDGPaths(environment: environment)
        #expect([paths.configFile, paths.cacheDirectory, paths.historyFile, paths.libraryFile].map(path) == expected)
    }

    @Test(arguments: XDGPathsTests.variables)
    func aRelativeOrMissingHomeIsNoHome(_ variable: String) {
        // HOME must be absolute; else the passwd entry's home; else no location.
        #expect(
            path(XDGPaths.directory(variable, fallback: "f", environment: ["HOME": "rel"], passwdHome: { "/pw" }))
                == "/pw/f"
        )
        #expect(path(XDGPaths.directory(variable, fallback: "f", environment: [:], passwdHome: { "/pw" })) == "/pw/f")
        #expect(XDGPaths.directory(variable, fallback: "f", environment: ["HOME": ""], passwdHome: { nil }) == nil)
        #expect(
            XDGPaths.directory(variable, fallback: "f", environment: [variable: "rel"], passwdHome: { "also-rel" })
                == nil
        )
        #expect(
            path(XDGPaths.directory(variable, fallback: "f", environment: [variable: "/v"], passwdHome: { nil }))
                == "/v"
        )
    }
}
