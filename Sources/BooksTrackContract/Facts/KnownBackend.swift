/// The backends bts knows by name (the built-in profiles), and the port of the local stand-in:
/// the one home of these addresses. `bts serve`'s default port, the shell's built-in profiles,
/// their completion and the prompt's names for them derive from here.
package enum KnownBackend: String, CaseIterable, Sendable {
    case production
    case staging
    /// `bts serve` on this machine, at its default port.
    case local

    /// The port `bts serve` binds when `--port` is not given, and the `local` profile's.
    package static let localPort = 8787

    /// "production, staging, local": the built-in profiles' names for help texts.
    package static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The backend's base URL, as text.
    package var address: String {
        switch self {
        case .production: return "https://api.oooefam.net"
        case .staging: return "https://staging-api.oooefam.net"
        case .local: return "http://localhost:\(Self.localPort)"
        }
    }
}
