import Synchronization

/// The live fault rules of a running server. Tests change them through `RunningServer.faults`;
/// there is no HTTP endpoint for this. Every method is thread-safe.
///
/// When fault injection was not enabled in the configuration the injector is inert: `set` and
/// `add` are ignored and `decide` never returns a fault.
package final class FaultInjector: Sendable {
    /// Whether fault injection is enabled for this server (fixed at start).
    package let isEnabled: Bool

    private struct State {
        var rules: [FaultRule] = []
        /// Matching requests seen per rule index, for `times`.
        var hits: [Int] = []
    }

    private let state: Mutex<State>

    init(enabled: Bool, rules: [FaultRule]) {
        self.isEnabled = enabled
        self.state = Mutex(
            State(rules: enabled ? rules : [], hits: Array(repeating: 0, count: enabled ? rules.count : 0))
        )
    }

    /// The rules in force.
    package var rules: [FaultRule] { state.withLock { $0.rules } }

    /// Replaces every rule and resets the "first N" counters.
    package func set(_ rules: [FaultRule]) {
        guard isEnabled else { return }
        state.withLock {
            $0.rules = rules
            $0.hits = Array(repeating: 0, count: rules.count)
        }
    }

    /// Adds one rule.
    package func add(_ rule: FaultRule) {
        guard isEnabled else { return }
        state.withLock {
            $0.rules.append(rule)
            $0.hits.append(0)
        }
    }

    /// Removes every rule.
    package func clear() { set([]) }

    /// The faults to apply to one request, in rule order: any latencies, then at most one terminal
    /// action (the first matching terminal rule whose "first N" budget is not used up).
    func decide(method: String, path: String) -> [FaultAction] {
        guard isEnabled else { return [] }
        return state.withLock { state in
            var actions: [FaultAction] = []
            var terminalChosen = false
            for index in state.rules.indices {
                let rule = state.rules[index]
                guard rule.matches(method: method, path: path) else { continue }
                if rule.action.isTerminal && terminalChosen { continue }
                if let times = rule.times {
                    guard state.hits[index] < times else { continue }
                    state.hits[index] += 1
                }
                if rule.action.isTerminal { terminalChosen = true }
                actions.append(rule.action)
            }
            return actions
        }
    }
}
