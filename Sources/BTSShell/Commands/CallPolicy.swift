import BooksTrackClient
import BooksTrackContract

/// What a command's API calls need and spend: the capability gate checked before each call, the
/// rate-limit budget admitted, and the name its spinner and a refusal show. The dispatcher sets
/// it from the command's type around `run` (Hummingbird's middleware idea), so a call site names
/// none of them; a command with a second kind of call derives it from its own
/// (`context.callPolicy.spending(.batch)`).
struct CallPolicy: Sendable, Hashable {
    var gate: CommandGate?
    var budget: RateLimitClass?
    var label: String

    init(gate: CommandGate?, budget: RateLimitClass?, label: String) {
        self.gate = gate
        self.budget = budget
        self.label = label
    }

    /// The policy of the types along a resolved path (`search`, then `title`): the innermost gate
    /// and budget declared; a gate scoped to some uses (`enrich`'s batch) is left to the command.
    init(route: [any ShellCommand.Type], label: String) {
        var (gate, budget): (CommandGate?, RateLimitClass?) = (nil, nil)
        for type in route {
            gate = type.gate ?? gate
            budget = type.budget ?? budget
        }
        self.init(gate: gate?.scope == nil ? gate : nil, budget: budget, label: label)
    }

    /// The same call spending `budget` instead.
    func spending(_ budget: RateLimitClass) -> CallPolicy {
        var policy = self
        policy.budget = budget
        return policy
    }

    /// The same call behind `gate` (nil: ungated).
    func gated(_ gate: CommandGate?) -> CallPolicy {
        var policy = self
        policy.gate = gate
        return policy
    }

    /// The same call shown as `label`.
    func labelled(_ label: String) -> CallPolicy {
        var policy = self
        policy.label = label
        return policy
    }
}
