// Fuzz target: the command language's lexer and parser (BTSLanguage). Any text must parse to
// commands or diagnostics, never crash; every diagnostic points inside the source. (`Parser.parse`
// runs the lexer, and `Parser.isComplete` is the same parse: neither is run a second time.)
func fuzzOne(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    let source = SourceFile(name: "fuzz", text: text)
    let result = Parser.parse(source)
    for diagnostic in result.diagnostics {
        invariant(diagnostic.range.offset >= 0 && diagnostic.range.end <= text.utf8.count,
                  "diagnostic range \(diagnostic.range) outside \(text.utf8.count) bytes")
    }
    let rendered = DiagnosticRenderer(colored: false).render(result.diagnostics, in: source)
    // (Its UTF-8 is read 8 bytes at a time: the check was a tenth of the run a scalar at a time.)
    invariant(!TerminalText.containsWork(rendered, exceptLineFeeds: true), "a diagnostic printed a control character")
}
