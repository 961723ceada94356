import BTSTerminal

extension ScriptFile {
    /// Where the first byte that is not UTF-8 is in a stream's line (commands piped to bts, as in
    /// `bts < script.bts`), placed as in a file: the line and byte offset in the whole stream (a
    /// leading byte-order mark counts in the offset), the column on its line (the mark counts in none).
    static func place(in line: UndecodableLine) -> Place {
        let mark = line.number == 1 && line.bytes.starts(with: byteOrderMarkBytes)
        var place = place(ofInvalid: line.bytes[(mark ? byteOrderMarkBytes.count : 0)...])
        place.line += line.number - 1
        place.offset += line.offset
        return place
    }
}

extension ShellError {
    /// The refusal of a stream's line that is not UTF-8, in the words a script file's gets:
    /// "NAME:LINE:COLUMN: not UTF-8 at byte OFFSET (0xNN); scripts are UTF-8 text".
    static func notUTF8(_ line: UndecodableLine, in name: String) -> ShellError {
        ShellError(.usage, ScriptFile.Failure.notUTF8(ScriptFile.place(in: line)).sentence(name))
    }
}
