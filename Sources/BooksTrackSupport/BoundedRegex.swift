/// The regular expressions of `expect … matches`: a Thompson-NFA (Pike VM) engine, so matching
/// takes time linear in the subject for a given pattern — `(a*)*b` cannot freeze the shell the way
/// a backtracking engine such as Swift `Regex` can. The work is also bounded by a
/// step budget and stops when the task is cancelled (Ctrl-C, SIGTERM).
///
/// Supported: literals, `.`, `[…]` classes (ranges, negation, `\d\w\s` inside), `\d \D \w \W \s \S`,
/// `\b \B`, `^ $ \A \z`, groups `( )` `(?: )` `(?<name> )`, `|`, `* + ? {n} {n,} {n,m}` (lazy and
/// possessive suffixes accepted: they do not change whether a match exists), `(?i)` / `(?i: )`
/// (case-insensitive for the whole pattern). Backreferences and lookaround are refused with a
/// plain message: they need backtracking. Matching is per Unicode scalar.
package struct BoundedRegex: Sendable {
    /// Why a pattern was refused or a match abandoned.
    package struct Failure: Error, Sendable, Equatable {
        package var message: String
    }

    /// The largest compiled program (counted repetitions are expanded).
    package static let maxProgramSize = 20_000
    /// Work allowed for one match (thread steps); beyond it the match is abandoned.
    package static let defaultStepBudget = 200_000_000

    enum Instruction: Sendable, Equatable {
        case scalar(Unicode.Scalar)
        case any
        case set(CharSet)
        case split(Int, Int)
        case jump(Int)
        case lineStart, lineEnd, textStart, textEnd
        case wordBoundary(Bool)
        case match
    }

    struct CharSet: Sendable, Equatable {
        var ranges: [ClosedRange<UInt32>] = []
        var classes: [ClassKind] = []
        var negated = false

        func contains(_ scalar: Unicode.Scalar, caseless: Bool) -> Bool {
            var hit = test(scalar)
            if !hit, caseless {
                for variant in BoundedRegex.caseVariants(scalar) where variant != scalar && test(variant) {
                    hit = true
                    break
                }
            }
            return hit != negated
        }

        private func test(_ scalar: Unicode.Scalar) -> Bool {
            ranges.contains { $0.contains(scalar.value) } || classes.contains { $0.contains(scalar) }
        }
    }

    enum ClassKind: Sendable, Equatable {
        case digit(Bool)
        case word(Bool)
        case space(Bool)

        func contains(_ scalar: Unicode.Scalar) -> Bool {
            switch self {
            case .digit(let positive): return BoundedRegex.isDigit(scalar) == positive
            case .word(let positive): return BoundedRegex.isWord(scalar) == positive
            case .space(let positive): return scalar.properties.isWhitespace == positive
            }
        }
    }

    let program: [Instruction]
    let caseless: Bool

    /// Compiles `pattern`.
    package init(_ pattern: String) throws(Failure) {
        var parser = Parser(Array(pattern.unicodeScalars))
        let node = try parser.parseWhole()
        var compiler = Compiler()
        try compiler.emit(node)
        compiler.program.append(.match)
        program = compiler.program
        caseless = parser.caseless
    }

    /// Whether the pattern matches anywhere in `subject`.
    package func firstMatchExists(
        in subject: String,
        stepBudget: Int = BoundedRegex.defaultStepBudget,
        isCancelled: () -> Bool = { Task.isCancelled }
    ) throws(Failure) -> Bool {
        let text = Array(subject.unicodeScalars)
        let count = program.count
        var current = ThreadList(capacity: count)
        var next = ThreadList(capacity: count)
        var steps = 0
        for position in 0...text.count {
            if position & 1023 == 0, isCancelled() { throw Failure(message: "the match was interrupted") }
            // Unanchored: a new thread starts at every position.
            if try addThread(&current, 0, at: position, text, &steps, stepBudget) { return true }
            next.clear()
            let scalar: Unicode.Scalar? = position < text.count ? text[position] : nil
            for index in current.dense.prefix(current.count) {
                steps += 1
                guard let scalar else { continue }
                let advances: Bool
                switch program[index] {
                case .scalar(let expected): advances = equal(expected, scalar)
                case .any: advances = scalar != "\n"
                case .set(let set): advances = set.contains(scalar, caseless: caseless)
                default: advances = false
                }
                if advances, try addThread(&next, index + 1, at: position + 1, text, &steps, stepBudget) { return true }
            }
            if steps > stepBudget { throw Failure(message: "the pattern needs too much work on this value") }
            swap(&current, &next)
            if scalar == nil { break }
        }
        return false
    }

    /// Follows jumps, splits and assertions from `pc`; true when `match` is reached.
    private func addThread(
        _ list: inout ThreadList,
        _ start: Int,
        at position: Int,
        _ text: [Unicode.Scalar],
        _ steps: inout Int,
        _ budget: Int
    ) throws(Failure) -> Bool {
        var stack = [start]
        while let pc = stack.popLast() {
            guard !list.contains(pc) else { continue }
            list.insert(pc)
            steps += 1
            switch program[pc] {
            case .match: return true
            case .jump(let target): stack.append(target)
            case .split(let first, let second):
                stack.append(second)
                stack.append(first)
            case .lineStart:
                if position == 0 || text[position - 1] == "\n" { stack.append(pc + 1) }
            case .lineEnd:
                if position == text.count || text[position] == "\n" { stack.append(pc + 1) }
            case .textStart:
                if position == 0 { stack.append(pc + 1) }
            case .textEnd:
                if position == text.count { stack.append(pc + 1) }
            case .wordBoundary(let wanted):
                let before = position > 0 && Self.isWord(text[position - 1])
                let after = position < text.count && Self.isWord(text[position])
                if (before != after) == wanted { stack.append(pc + 1) }
            case .scalar, .any, .set:
                break
            }
        }
        if steps > budget { throw Failure(message: "the pattern needs too much work on this value") }
        return false
    }

    private func equal(_ expected: Unicode.Scalar, _ scalar: Unicode.Scalar) -> Bool {
        if expected == scalar { return true }
        guard caseless else { return false }
        return Self.caseVariants(scalar).contains(expected)
    }

    static func caseVariants(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        let upper = scalar.properties.uppercaseMapping.unicodeScalars
        var result: [Unicode.Scalar] = [scalar]
        if lower.count == 1, let first = lower.first { result.append(first) }
        if upper.count == 1, let first = upper.first { result.append(first) }
        return result
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.numericType == .decimal }

    static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic || isDigit(scalar)
    }

    /// A sparse set of program counters (constant-time clear).
    struct ThreadList {
        var dense: [Int]
        var sparse: [Int]
        var count = 0

        init(capacity: Int) {
            dense = Array(repeating: 0, count: capacity)
            sparse = Array(repeating: 0, count: capacity)
        }

        func contains(_ pc: Int) -> Bool {
            let slot = sparse[pc]
            return slot < count && dense[slot] == pc
        }

        mutating func insert(_ pc: Int) {
            sparse[pc] = count
            dense[count] = pc
            count += 1
        }

        mutating func clear() { count = 0 }
    }
}

extension BoundedRegex {
    indirect enum Node: Sendable {
        case empty
        case scalar(Unicode.Scalar)
        case any
        case set(CharSet)
        case assertion(Instruction)
        case concat([Node])
        case alternation([Node])
        case repeated(Node, min: Int, max: Int?)
    }

    struct Parser {
        let scalars: [Unicode.Scalar]
        var index = 0
        var caseless = false
        var depth = 0

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        mutating func parseWhole() throws(Failure) -> Node {
            let node = try parseAlternation()
            if index < scalars.count { throw Failure(message: "unbalanced ')' at offset \(index)") }
            return node
        }

        mutating func parseAlternation() throws(Failure) -> Node {
            var branches = [try parseConcat()]
            while peek == "|" {
                index += 1
                branches.append(try parseConcat())
            }
            return branches.count == 1 ? branches[0] : .alternation(branches)
        }

        mutating func parseConcat() throws(Failure) -> Node {
            var items: [Node] = []
            while let scalar = peek, scalar != "|", scalar != ")" {
                var atom = try parseAtom()
                while let quantifier = try parseQuantifier() {
                    atom = .repeated(atom, min: quantifier.min, max: quantifier.max)
                }
                items.append(atom)
            }
            return items.count == 1 ? items[0] : .concat(items)
        }

        mutating func parseQuantifier() throws(Failure) -> (min: Int, max: Int?)? {
            guard let scalar = peek else { return nil }
            var result: (min: Int, max: Int?)
            switch scalar {
            case "*":
                result = (0, nil)
                index += 1
            case "+":
                result = (1, nil)
                index += 1
            case "?":
                result = (0, 1)
                index += 1
            case "{":
                guard let counted = parseCounted() else { return nil }
                result = counted
            default: return nil
            }
            if peek == "?" || peek == "+" { index += 1 }  // lazy / possessive: same match existence
            return result
        }

        /// `{n}`, `{n,}`, `{n,m}`; anything else leaves `{` a literal.
        mutating func parseCounted() -> (min: Int, max: Int?)? {
            let start = index
            index += 1
            func number() -> Int? {
                var digits = ""
                while let s = peek, ("0"..."9").contains(s) {
                    digits.unicodeScalars.append(s)
                    index += 1
                }
                return digits.isEmpty ? nil : Int(digits.prefix(6))
            }
            guard let low = number() else {
                index = start
                return nil
            }
            var high: Int? = low
            if peek == "," {
                index += 1
                high = number()
            }
            guard peek == "}", high.map({ $0 >= low }) ?? true else {
                index = start
                return nil
            }
            index += 1
            return (low, high)
        }

        mutating func parseAtom() throws(Failure) -> Node {
            guard let scalar = peek else { return .empty }
            index += 1
            switch scalar {
            case ".": return .any
            case "^": return .assertion(.lineStart)
            case "$": return .assertion(.lineEnd)
            case "(": return try parseGroup()
            case "[": return .set(try parseSet())
            case "\\": return try parseEscape(inSet: false)
            case "*", "+", "?": throw Failure(message: "'\(scalar)' at offset \(index - 1) has nothing to repeat")
            default: return .scalar(scalar)
            }
        }

        mutating func parseGroup() throws(Failure) -> Node {
            depth += 1
            defer { depth -= 1 }
            if depth > 200 { throw Failure(message: "groups are nested too deeply") }
            if peek == "?" {
                index += 1
                guard let kind = peek else { throw Failure(message: "unterminated group") }
                switch kind {
                case ":":
                    index += 1
                case "<" where index + 1 < scalars.count && scalars[index + 1] != "=" && scalars[index + 1] != "!":
                    while let s = peek, s != ">" { index += 1 }
                    guard peek == ">" else { throw Failure(message: "unterminated group name") }
                    index += 1
                case "=", "!", "<":
                    throw Failure(message: "lookaround is not supported (it needs a backtracking engine)")
                default:
                    // Inline flags: (?i) or (?i: … ); only i is understood.
                    var flags = ""
                    while let s = peek, s != ")", s != ":" {
                        flags.unicodeScalars.append(s)
                        index += 1
                    }
                    guard flags.allSatisfy({ "imsx-".contains($0) }),
                        flags.contains("i") || flags.isEmpty || flags == "-i"
                    else {
                        throw Failure(message: "unsupported group flags '(?\(flags)'")
                    }
                    if flags.contains("i"), !flags.hasPrefix("-") { caseless = true }
                    if peek == ")" {
                        index += 1
                        return .empty
                    }
                    index += 1  // ':'
                }
            }
            let inner = try parseAlternation()
            guard peek == ")" else { throw Failure(message: "missing ')'") }
            index += 1
            return inner
        }

        mutating func parseSet() throws(Failure) -> CharSet {
            var set = CharSet()
            if peek == "^" {
                set.negated = true
                index += 1
            }
            var first = true
            while true {
                guard let scalar = peek else { throw Failure(message: "missing ']'") }
                if scalar == "]", !first {
                    index += 1
                    return set
                }
                first = false
                index += 1
                var low: Unicode.Scalar
                if scalar == "\\" {
                    switch try parseEscape(inSet: true) {
                    case .scalar(let s): low = s
                    case .set(let inner):
                        set.classes.append(contentsOf: inner.classes)
                        continue
                    default: continue
                    }
                } else if scalar == "[", peek == ":" {
                    throw Failure(message: "POSIX classes like [:alpha:] are not supported")
                } else {
                    low = scalar
                }
                if peek == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
                    index += 1
                    guard var high = peek else { throw Failure(message: "missing ']'") }
                    index += 1
                    if high == "\\" {
                        guard case .scalar(let s) = try parseEscape(inSet: true) else {
                            throw Failure(message: "a class like \\d cannot end a range")
                        }
                        high = s
                    }
                    guard low.value <= high.value else { throw Failure(message: "range out of order in [...]") }
                    set.ranges.append(low.value...high.value)
                } else {
                    set.ranges.append(low.value...low.value)
                }
            }
        }

        mutating func parseEscape(inSet: Bool) throws(Failure) -> Node {
            guard let scalar = peek else { throw Failure(message: "the pattern ends with '\\'") }
            index += 1
            func cls(_ kind: ClassKind) -> Node { .set(CharSet(classes: [kind])) }
            switch scalar {
            case "d": return cls(.digit(true))
            case "D": return cls(.digit(false))
            case "w": return cls(.word(true))
            case "W": return cls(.word(false))
            case "s": return cls(.space(true))
            case "S": return cls(.space(false))
            case "n": return .scalar("\n")
            case "t": return .scalar("\t")
            case "r": return .scalar("\r")
            case "b" where !inSet: return .assertion(.wordBoundary(true))
            case "B" where !inSet: return .assertion(.wordBoundary(false))
            case "A" where !inSet: return .assertion(.textStart)
            case "z" where !inSet, "Z" where !inSet: return .assertion(.textEnd)
            case "1"..."9", "k":
                throw Failure(message: "backreferences are not supported (they need a backtracking engine)")
            default:
                if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                    throw Failure(message: "unsupported escape '\\\(scalar)'")
                }
                return .scalar(scalar)
            }
        }
    }

    struct Compiler {
        var program: [Instruction] = []
        /// Nodes emitted so far. A repeated body that emits nothing (`(?i)+++…`) keeps the program
        /// small while each `+` emits its body twice: the size cap alone let that take 2^n time.
        var emitted = 0

        mutating func append(_ instruction: Instruction) throws(Failure) {
            guard program.count < BoundedRegex.maxProgramSize else {
                throw Failure(
                    message: "the pattern is too large (over \(BoundedRegex.maxProgramSize) steps once expanded)"
                )
            }
            program.append(instruction)
        }

        mutating func emit(_ node: Node) throws(Failure) {
            emitted += 1
            guard emitted <= BoundedRegex.maxProgramSize * 8 else {
                throw Failure(
                    message: "the pattern is too large (over \(BoundedRegex.maxProgramSize) steps once expanded)"
                )
            }
            switch node {
            case .empty: break
            case .scalar(let s): try append(.scalar(s))
            case .any: try append(.any)
            case .set(let set): try append(.set(set))
            case .assertion(let instruction): try append(instruction)
            case .concat(let items): for item in items { try emit(item) }
            case .alternation(let branches):
                var jumps: [Int] = []
                for (offset, branch) in branches.enumerated() {
                    if offset < branches.count - 1 {
                        let split = program.count
                        try append(.split(0, 0))
                        try emit(branch)
                        jumps.append(program.count)
                        try append(.jump(0))
                        program[split] = .split(split + 1, program.count)
                    } else {
                        try emit(branch)
                    }
                }
                for jump in jumps { program[jump] = .jump(program.count) }
            case .repeated(let inner, let min, let max):
                for _ in 0..<min { try emit(inner) }
                if let max {
                    var splits: [Int] = []
                    for _ in min..<max {
                        splits.append(program.count)
                        try append(.split(0, 0))
                        try emit(inner)
                    }
                    for split in splits { program[split] = .split(split + 1, program.count) }
                } else {
                    let loop = program.count
                    try append(.split(0, 0))
                    let before = program.count
                    try emit(inner)
                    if program.count == before {
                        // An empty-matching body repeated: nothing to loop over.
                        program.removeLast()
                        return
                    }
                    try append(.jump(loop))
                    program[loop] = .split(loop + 1, program.count)
                }
            }
        }
    }
}
