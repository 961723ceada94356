// Fuzz target: the command language's lexer, parser and formatter (BTSLanguage). Any text must
// parse to commands or diagnostics, never crash; every diagnostic points inside the source. A
// script that parses formats to a script that parses to the same statements (ranges aside), and
// formatting that again changes nothing. (`Parser.parse` runs the lexer, and `Parser.isComplete`
// is the same parse: neither is run a second time.)
func fuzzOne(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    let source = SourceFile(name: "fuzz", text: text)
    let result = Parser.parse(source)
    for diagnostic in result.diagnostics {
        invariant(
            diagnostic.range.offset >= 0 && diagnostic.range.end <= text.utf8.count,
            "diagnostic range \(diagnostic.range) outside \(text.utf8.count) bytes"
        )
    }
    let rendered = DiagnosticRenderer(colored: false).render(result.diagnostics, in: source)
    // (Its UTF-8 is read 8 bytes at a time: the check was a tenth of the run a scalar at a time.)
    invariant(!TerminalText.containsWork(rendered, exceptLineFeeds: true), "a diagnostic printed a control character")
    guard !result.hasErrors else { return }
    guard case .success(let formatted) = ScriptFormatter.format(source) else {
        invariant(false, "a script without errors was not formatted")
        return
    }
    let again = Parser.parse(SourceFile(name: "fuzz", text: formatted))
    invariant(!again.hasErrors, "the formatted script has errors: \(formatted.debugDescription)")
    invariant(
        shape(again.script.statements) == shape(result.script.statements),
        "formatting changed the script's meaning: \(text.debugDescription) → \(formatted.debugDescription)"
    )
    guard case .success(let twice) = ScriptFormatter.format(SourceFile(name: "fuzz", text: formatted)) else { return }
    invariant(twice == formatted, "formatting is not idempotent: \(formatted.debugDescription)")
}

/// The statements without their source ranges: what runs.
private func shape(_ statements: [Statement]) -> [String] {
    statements.flatMap { statement -> [String] in
        switch statement {
        case .command(let command): return [shape(command)]
        case .forLoop(let loop):
            let items: String
            switch loop.items {
            case .words(let words): items = "words " + words.map(\.sourceForm).joined(separator: " ")
            case .lines(let file): items = "lines " + file.sourceForm
            case .split(let words): items = "split " + words.map(\.sourceForm).joined(separator: " ")
            }
            return ["for \(loop.variable) in \(items) {"] + shape(loop.body) + ["}"]
        case .whileLoop(let loop): return ["while " + shape(loop.condition) + " {"] + shape(loop.body) + ["}"]
        case .conditional(let conditional):
            return conditional.branches.flatMap { ["if " + shape($0.condition) + " {"] + shape($0.body) + ["}"] }
                + (conditional.elseBody.map { ["else {"] + shape($0) + ["}"] } ?? [])
        case .loopControl(let control): return [control.kind.rawValue]
        }
    }
}

private func shape(_ command: Command) -> String {
    var parts =
        [command.name.sourceForm]
        + command.arguments.map { argument in
            switch argument.kind {
            case .positional: return "p:" + argument.word.sourceForm + (argument.word.isQuoted ? "'" : "")
            case .option(let option): return "o:" + option.spelling + "=" + (option.value?.sourceForm ?? "")
            case .endOfOptions: return "--"
            }
        }
    switch command.redirection?.kind {
    case .write(let file)?: parts.append("> " + file.sourceForm)
    case .append(let file)?: parts.append(">> " + file.sourceForm)
    case .pipe(let pipeline)?:
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        parts.append("| " + String(pipeline.drop(while: blank).reversed().drop(while: blank).reversed()))
    case nil: break
    }
    return parts.joined(separator: " ␟ ")
}
