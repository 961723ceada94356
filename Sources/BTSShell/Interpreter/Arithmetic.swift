/// `set NAME A OP B`: integer arithmetic on two words, as a script needs it to count (`set i $i + 1`).
/// Pure; every failure is a sentence for the user. Results stay within the integers JSON numbers
/// hold exactly (±2^53), so a count read back with `$i` is the number that was computed.
enum Arithmetic {
    enum Operator: String, CaseIterable, Sendable {
        case add = "+"
        case subtract = "-"
        case multiply = "*"
        case divide = "/"
        case remainder = "%"
    }

    /// The largest magnitude a result may have: 2^53, the last integer a JSON number holds exactly.
    static let bound: Int64 = 9_007_199_254_740_992

    /// The operator an unquoted word names, if any.
    static func op(_ text: String) -> Operator? { Operator(rawValue: text) }

    /// `A OP B` over integers written in decimal (`-3`, `+4`, `12`); `/` truncates toward zero and `%`
    /// takes the sign of A, as in sh.
    static func evaluate(_ left: String, _ op: Operator, _ right: String) -> Result<Int64, Failure> {
        guard let a = integer(left) else { return .failure(.notAnInteger(left)) }
        guard let b = integer(right) else { return .failure(.notAnInteger(right)) }
        let (value, overflow): (Int64, Bool)
        switch op {
        case .add: (value, overflow) = a.addingReportingOverflow(b)
        case .subtract: (value, overflow) = a.subtractingReportingOverflow(b)
        case .multiply: (value, overflow) = a.multipliedReportingOverflow(by: b)
        case .divide, .remainder:
            guard b != 0 else { return .failure(.divisionByZero(op)) }
            (value, overflow) =
                op == .divide ? a.dividedReportingOverflow(by: b) : a.remainderReportingOverflow(dividingBy: b)
        }
        guard !overflow, value.magnitude <= bound.magnitude else { return .failure(.outOfRange) }
        return .success(value)
    }

    private static func integer(_ text: String) -> Int64? {
        guard let value = Int64(text), value.magnitude <= bound.magnitude
        else { return nil }
        return value
    }

    enum Failure: Error, Equatable, Sendable {
        case notAnInteger(String)
        case divisionByZero(Operator)
        case outOfRange

        var message: String {
            switch self {
            case .notAnInteger(let text):
                let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
                return "'\(shown)' is not an integer (arithmetic in 'set' works on whole numbers up to 2^53)"
            case .divisionByZero(let op): return "'\(op.rawValue)' by zero"
            case .outOfRange: return "the result is beyond 2^53, the largest integer a number holds exactly"
            }
        }
    }
}
