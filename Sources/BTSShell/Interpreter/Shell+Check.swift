import BTSLanguage
import Foundation

extension Shell {
    /// `bts check FILE`: the whole-script check of a file without running anything (no request is
    /// made): every error is reported; the status is 0 when there is none, else 2.
    public func checkFile(_ path: String) -> Int32 {
        let text: String
        do throws(ScriptFile.Failure) {
            text = try ScriptFile.read(path)
        } catch {
            report(ShellError(.usage, error.sentence(path, "cannot read script")), in: nil, interactive: false)
            return ExitStatus.usage.rawValue
        }
        return checkText(text, name: path)
    }

    /// The same check of `text` named `name` (`bts check -`: stdin).
    public func checkText(_ text: String, name: String) -> Int32 {
        let checked = check(Parser.parse(SourceFile(name: name, text: text)))
        guard checked.diagnostics.containsErrors else { return ExitStatus.ok.rawValue }
        report(ShellError(diagnostics: checked.diagnostics), in: checked.source, interactive: false)
        return ExitStatus.usage.rawValue
    }

    /// Reports an error as the shell does (for the executable's own commands: `bts fmt`).
    public func reportFailure(_ error: ShellError, in source: SourceFile?) {
        report(error, in: source, interactive: false)
    }
}

extension Shell {
    /// Every diagnostic of the whole-script check of `text` (an editor's view: nothing runs).
    public func diagnostics(of text: String, name: String) -> [Diagnostic] {
        check(Parser.parse(SourceFile(name: name, text: text))).diagnostics
    }
}

/// What a script defines, as the check knows it (for an editor: completion and symbols).
public enum ScriptDefinitions {
    /// The alias `command` defines (`alias NAME TEXT`), if any.
    public static func alias(by command: Command) -> String? { AliasCommand.definedName(by: command) }
    /// The variable `command` assigns (`set NAME VALUE`), if any.
    public static func variable(by command: Command) -> String? { SetCommand.assignedVariable(by: command) }
}
