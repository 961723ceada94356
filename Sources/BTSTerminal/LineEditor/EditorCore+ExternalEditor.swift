import CEditLine
import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension EditorCore {
    /// Ctrl-X Ctrl-E: the line goes into a temporary file opened in `$VISUAL`, `$EDITOR` or `vi`
    /// (the terminal in its normal mode meanwhile); when the editor exits with status 0 the
    /// file's text replaces the line and is run (as in bash). An empty file, or a failing editor,
    /// leaves the line as it was.
    func editExternally() -> UInt8 {
        guard let info = el_wline(el)?.pointee, let buffer = info.buffer, let lastchar = info.lastchar
        else { return UInt8(CC_REFRESH_BEEP) }
        let length = lastchar - buffer
        let line = WideString.decode(buffer, count: length)
        var template = Array((NSTemporaryDirectory() + "/bts-edit-XXXXXX.bts").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemps(base, 4)
        }
        guard descriptor >= 0 else { return UInt8(CC_REFRESH_BEEP) }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        let unwritten = DescriptorWriter.writeAll(Array((line + "\n").utf8), to: descriptor)
        Glibc.close(descriptor)
        // A file without the whole line would replace the line with a part of it.
        guard unwritten == nil else { return UInt8(CC_REFRESH_BEEP) }

        var raw = termios()
        let hadRaw = tcgetattr(inputFD, &raw) == 0
        if var cooked = cookedTerminal { tcsetattr(inputFD, TCSADRAIN, &cooked) }
        fputs("\n", output)
        fflush(output)
        let environment = ProcessInfo.processInfo.environment
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let status = ForegroundProcess.shell(editor + " \"$1\"", arguments: [path])?.wait() ?? 127
        if hadRaw { tcsetattr(inputFD, TCSADRAIN, &raw) }
        guard status == 0, let data = FileManager.default.contents(atPath: path) else {
            fputs("bts: the editor '\(editor)' exited with status \(status); the line is unchanged\n", output)
            fflush(output)
            return UInt8(CC_REDISPLAY)
        }
        var edited = String(decoding: data, as: UTF8.self)
        while let last = edited.last, last.isNewline || last == " " || last == "\t" { edited.removeLast() }
        guard !edited.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return UInt8(CC_REDISPLAY) }
        _ = el_cursor(el, Int32.max / 2)
        if length > 0 { el_deletestr(el, Int32(clamping: length)) }
        _ = withWideString(edited) { el_winsertstr(el, $0) }
        withWideString("\n") { el_wpush(el, $0) }
        return UInt8(CC_REDISPLAY)
    }
}
