/// The few SGR styles the shell uses. Applied only when colour is on.
public enum ANSIStyle: String, Sendable {
    case bold = "\u{1B}[1m"
    case dim = "\u{1B}[2m"
    case red = "\u{1B}[31m"
    case green = "\u{1B}[32m"
    case yellow = "\u{1B}[33m"
    case cyan = "\u{1B}[36m"
    case reset = "\u{1B}[0m"

    /// `text` wrapped in this style when `enabled`, else `text` unchanged.
    public func apply(_ text: String, enabled: Bool) -> String {
        enabled && !text.isEmpty ? rawValue + text + ANSIStyle.reset.rawValue : text
    }
}
