import BTSLanguage

extension Shell {
    /// Every diagnostic of the whole-script check of `text` with this session's aliases (an
    /// editor's view: nothing runs; ``ScriptChecker``).
    package func diagnostics(of text: String, name: String) -> [Diagnostic] {
        checker.diagnostics(of: text, name: name)
    }
}
