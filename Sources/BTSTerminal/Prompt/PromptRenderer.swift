import BTSTerminalText
import Foundation

/// The prompts of the interactive shell:
///
/// - left: `bts:<backend>> ` where backend is `embedded`, a profile name (`local`, `production`,
///   `staging`, or one of the config file), or the server's host (`host:port` off the default port);
/// - right: the tightest rate-limit budget when it is low (`semantic 1/5 ↻42s`), else nothing;
/// - continuation: `...> ` right-aligned under the left prompt, shown while a quote or a
///   trailing `\` leaves the input unfinished.
///
/// Colour (ANSI SGR) only when asked for; the line editor brackets escape sequences so libedit
/// does not count them as width.
package enum PromptRenderer {
    /// The prompts for one read.
    package struct Rendered: Sendable, Hashable {
        package var left: String
        package var right: String?
        package var continuation: String

        /// The line editor's form.
        package var linePrompt: LinePrompt {
            LinePrompt(left, continuation: continuation, right: right)
        }
    }

    /// Budgets with at most this fraction left are shown (half spent).
    package static let defaultLowThreshold = 0.5

    static let bold = ANSIStyle.bold.rawValue
    static let cyan = ANSIStyle.cyan.rawValue
    static let yellow = ANSIStyle.yellow.rawValue
    static let red = ANSIStyle.red.rawValue
    static let dim = ANSIStyle.dim.rawValue
    static let reset = ANSIStyle.reset.rawValue

    /// Renders the prompts for `backend` (see ``backendName(url:profile:)``), the tightest
    /// `budget` (nil: none known), coloured when `colour` is true.
    package static func render(
        backend: String,
        budget: PromptBudget?,
        colour: Bool,
        lowThreshold: Double = defaultLowThreshold
    ) -> Rendered {
        let name = sanitise(backend)
        let plainLeft = "bts:\(name)> "
        let left = colour ? "\(bold)bts\(reset):\(cyan)\(name)\(reset)> " : plainLeft
        var right: String?
        if let budget, budget.isLow(threshold: lowThreshold) {
            let text = sanitise(budget.text)
            right = colour ? (budget.isSpent ? red : yellow) + text + reset : text
        }
        return Rendered(
            left: left,
            right: right,
            continuation: continuation(marker: blockMarker, backend: backend, colour: colour)
        )
    }

    /// The continuation marker of an open block or a trailing `\`.
    package static let blockMarker = "...> "

    /// A continuation prompt: `marker` (`...> `, or `'> ` for an open quote) right-aligned under
    /// the left prompt for `backend`, dimmed when `colour` is true.
    package static func continuation(marker: String, backend: String, colour: Bool) -> String {
        let width = CompletionText.displayWidth("bts:\(sanitise(backend))> ")
        let continuation = String(repeating: " ", count: max(0, width - CompletionText.displayWidth(marker))) + marker
        guard colour else { return continuation }
        // The reset goes before the marker's last blank: libedit needs a visible character after
        // an escape (see PromptEscapes), and the marker must keep the left prompt's width.
        return dim + continuation.dropLast() + reset + " "
    }

    /// The backend's name for the prompt: `embedded` when there is no URL; the profile name
    /// when one was used; a built-in profile's name when the URL is one of `builtIn` (base URL,
    /// lower-cased without a trailing `/`, → name; the shell's `BackendProfile.builtInNamesByURL`);
    /// else the host, with the port when it is not the scheme's default.
    package static func backendName(url: URL?, profile: String? = nil, builtIn: [String: String] = [:]) -> String {
        guard let url else { return "embedded" }
        if let profile, !profile.isEmpty, !profile.contains("://") { return profile }
        let normalised = url.absoluteString.hasSuffix("/") ? String(url.absoluteString.dropLast()) : url.absoluteString
        if let known = builtIn[normalised.lowercased()] { return known }
        guard let host = url.host, !host.isEmpty else { return "remote" }
        let scheme = url.scheme?.lowercased()
        if let port = url.port, !(scheme == "http" && port == 80), !(scheme == "https" && port == 443) {
            return "\(host):\(port)"
        }
        return host
    }

    /// Controls a server or config could smuggle in made visible and inert: C0 and DEL as control
    /// pictures, C1 (a one-byte CSI, U+009B, on terminals that take 8-bit controls) and the
    /// bidirectional overrides and isolates (which reorder what the prompt shows) as U+FFFD.
    static func sanitise(_ text: String) -> String {
        DisplayWidth.printable(text: text)
    }
}
