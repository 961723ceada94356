import BooksTrackContract

/// An answer the disk cache gave because the server could not be reached: how old it is, said on
/// stderr, and carried in the command's JSON. Pure.
enum OfflineAnswer {
    /// The command's JSON object with `answeredBy: "cache"` and `cacheAgeSeconds` when one of its
    /// answers came from the disk cache offline, `age` old (as a library answer carries
    /// `answeredBy: "library"`); anything else as it is.
    static func annotating(_ output: CommandOutput, age: Duration?) -> CommandOutput {
        guard let age, case .object = output.value, output.value["answeredBy"] == nil else { return output }
        var annotated = output
        annotated.value = output.value.adding("answeredBy", "cache".json)
            .adding("cacheAgeSeconds", Int(age.components.seconds).json)
        return annotated
    }

    /// `45 s`, `12 min`, `3 h`, `2 d`.
    static func ageText(_ age: Duration) -> String {
        let seconds = Int(age.components.seconds)
        switch seconds {
        case ..<60: return "\(seconds) s"
        case ..<3600: return "\(seconds / 60) min"
        case ..<86_400: return "\(seconds / 3600) h"
        default: return "\(seconds / 86_400) d"
        }
    }
}
