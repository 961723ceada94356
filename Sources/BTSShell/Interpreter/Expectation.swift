import BooksTrackContract
import BooksTrackSupport
import Foundation

/// The pure semantics of `expect` (no I/O), so they can be tested directly.
///
/// The atoms of a condition (operators and keywords are unquoted words; quote them to use them as values):
/// ```
/// VALUE                      true when VALUE is non-empty and not false/0/null
/// A (== | != | < | <= | > | >=) B
/// A contains B               substring; element of an array; key of an object
/// A matches REGEX            Swift regular expression, unanchored
/// exists ${path}             the path resolves (to anything but null)
/// count ${path} OP N         number of elements (array/object) or characters (string)
/// ```
/// combined with `not`, `and`, `or` and parentheses (``Condition``). `<`, `<=`, `>`, `>=` compare
/// numbers; `==` and `!=` compare numbers when both sides are numbers and text otherwise.
package enum Expectation {
    /// The words of a condition other than its operators: `not`, `and`, `or` combine conditions,
    /// `exists` and `count` read a path.
    package enum Keyword: String, Sendable, CaseIterable {
        case not, and, or, exists, count
    }

    /// The words that group a condition's parts (each an unquoted word of its own).
    package enum Parenthesis: String, Sendable, CaseIterable {
        case open = "("
        case close = ")"
    }

    package enum Operator: String, Sendable, CaseIterable {
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
        case contains
        case matches
    }

    /// Why an expression cannot be evaluated at all (a usage error, exit 2).
    package struct Invalid: Error, Sendable, Hashable {
        package var message: String
    }

    /// A number, when the value is one or is text that reads as one.
    package static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .number(let number): return number
        case .string(let text):
            guard let number = Double(text.trimmingCharacters(in: .whitespaces)), number.isFinite else { return nil }
            return number
        default: return nil
        }
    }

    /// Whether a single value counts as true.
    package static func isTruthy(_ value: JSONValue) -> Bool {
        switch value {
        case .null: return false
        case .bool(let flag): return flag
        case .number(let number): return number != 0
        case .string(let text):
            let lowered = text.lowercased()
            return !text.isEmpty && lowered != "false" && lowered != "0"
        case .array(let elements): return !elements.isEmpty
        case .object(let members): return !members.isEmpty
        }
    }

    /// Elements of an array or object, characters of a string, else nil.
    package static func count(_ value: JSONValue) -> Int? {
        switch value {
        case .array(let elements): return elements.count
        case .object(let members): return members.count
        case .string(let text): return text.count
        case .null: return 0
        default: return nil
        }
    }

    /// Evaluates `left OP right`.
    package static func evaluate(_ left: JSONValue, _ op: Operator, _ right: JSONValue) -> Result<Bool, Invalid> {
        let leftNumber = number(left)
        let rightNumber = number(right)
        switch op {
        case .equal, .notEqual:
            let equal: Bool
            if let leftNumber, let rightNumber {
                equal = leftNumber == rightNumber
            } else {
                equal = left.interpolationText == right.interpolationText
            }
            return .success(op == .equal ? equal : !equal)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let a = leftNumber, let b = rightNumber else {
                let bad = leftNumber == nil ? left : right
                return .failure(
                    Invalid(
                        message:
                            "'\(op.rawValue)' compares numbers, but \(bad.compactJSON) is not a number"
                    )
                )
            }
            switch op {
            case .less: return .success(a < b)
            case .lessOrEqual: return .success(a <= b)
            case .greater: return .success(a > b)
            default: return .success(a >= b)
            }
        case .contains:
            let needle = right.interpolationText
            switch left {
            case .array(let elements):
                return .success(
                    elements.contains { element in
                        if let a = number(element), let b = number(right) { return a == b }
                        return element.interpolationText == needle
                    }
                )
            case .object(let members): return .success(members[needle] != nil)
            default: return .success(left.interpolationText.contains(needle))
            }
        case .matches:
            let pattern = right.interpolationText
            // A linear-time engine with a work budget that Ctrl-C interrupts (see BoundedRegex).
            let regex: BoundedRegex
            do throws(BoundedRegex.Failure) {
                regex = try BoundedRegex(pattern)
            } catch {
                return .failure(Invalid(message: "invalid regular expression '\(pattern)': \(error.message)"))
            }
            do throws(BoundedRegex.Failure) {
                return .success(try regex.firstMatchExists(in: left.interpolationText))
            } catch {
                return .failure(Invalid(message: "'matches' stopped: \(error.message)"))
            }
        }
    }
}
