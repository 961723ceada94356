extension JSONValue {
    /// Text written around each kind of token, e.g. a terminal's colours (``none``: nothing).
    package struct TokenMarks: Sendable, Hashable {
        /// What opens a marked token, and what closes it.
        package struct Mark: Sendable, Hashable {
            package var open: String
            package var close: String

            package init(open: String, close: String) {
                self.open = open
                self.close = close
            }
        }

        package var key: Mark?
        package var string: Mark?
        package var number: Mark?
        package var boolean: Mark?
        package var null: Mark?

        package init(
            key: Mark? = nil,
            string: Mark? = nil,
            number: Mark? = nil,
            boolean: Mark? = nil,
            null: Mark? = nil
        ) {
            self.key = key
            self.string = string
            self.number = number
            self.boolean = boolean
            self.null = null
        }

        /// No marks: plain JSON.
        package static let none = TokenMarks()
    }

    /// The value as JSON text with sorted keys: on one line when `indent` is nil, else a member or
    /// an element a line, indented by `indent` a level (`": "` after a key); strings escaped as
    /// `escaping` says, numbers as ``format(_:)`` writes them, each token between its `marks`.
    ///
    /// Written as UTF-8 bytes into one buffer (appending to a `String` piece by piece pays
    /// `String`'s growth checks at every piece).
    package func jsonText(
        indent: String? = nil,
        escaping: JSONString.Escaping = .contract,
        marks: TokenMarks = .none
    ) -> String {
        var writer = Writer(indent: indent.map { Array($0.utf8) }, escaping: escaping, marks: marks)
        writer.output.reserveCapacity(512)
        writer.write(self, level: 0)
        return String(decoding: writer.output, as: UTF8.self)
    }

    /// A number as JSON writes it: integral values without a fraction (below 2^53), others as
    /// Swift's shortest round-trip text; `null` for NaN and infinities, which JSON cannot hold.
    package static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value.rounded() == value, abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return String(value)
    }

    private struct Writer {
        let indent: [UInt8]?
        let escaping: JSONString.Escaping
        let marks: TokenMarks
        var output: [UInt8] = []

        init(indent: [UInt8]?, escaping: JSONString.Escaping, marks: TokenMarks) {
            self.indent = indent
            self.escaping = escaping
            self.marks = marks
        }

        mutating func write(_ value: JSONValue, level: Int) {
            switch value {
            case .null: marked(marks.null) { $0.output.append(contentsOf: "null".utf8) }
            case .bool(let flag): marked(marks.boolean) { $0.output.append(contentsOf: (flag ? "true" : "false").utf8) }
            case .number(let number):
                marked(marks.number) { $0.output.append(contentsOf: JSONValue.format(number).utf8) }
            case .string(let text): marked(marks.string) { $0.string(text) }
            case .array(let elements):
                if elements.isEmpty {
                    output.append(contentsOf: "[]".utf8)
                    return
                }
                output.append(UInt8(ascii: "["))
                for (index, element) in elements.enumerated() {
                    if index > 0 { output.append(UInt8(ascii: ",")) }
                    newline(level + 1)
                    write(element, level: level + 1)
                }
                newline(level)
                output.append(UInt8(ascii: "]"))
            case .object(let members):
                if members.isEmpty {
                    output.append(contentsOf: "{}".utf8)
                    return
                }
                output.append(UInt8(ascii: "{"))
                // The members sorted as pairs: no second hash lookup per key.
                for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                    if index > 0 { output.append(UInt8(ascii: ",")) }
                    newline(level + 1)
                    marked(marks.key) { $0.string(member.key) }
                    output.append(UInt8(ascii: ":"))
                    if indent != nil { output.append(UInt8(ascii: " ")) }
                    write(member.value, level: level + 1)
                }
                newline(level)
                output.append(UInt8(ascii: "}"))
            }
        }

        private mutating func newline(_ depth: Int) {
            guard let indent else { return }
            output.append(UInt8(ascii: "\n"))
            for _ in 0..<depth { output.append(contentsOf: indent) }
        }

        private mutating func string(_ text: String) {
            let escaping = self.escaping
            JSONString.append(text, escaping, to: &output)
        }

        /// `body` between `mark`'s open and close (no mark: `body` alone).
        private mutating func marked(_ mark: TokenMarks.Mark?, _ body: (inout Writer) -> Void) {
            guard let mark else { return body(&self) }
            output.append(contentsOf: mark.open.utf8)
            body(&self)
            output.append(contentsOf: mark.close.utf8)
        }
    }
}
