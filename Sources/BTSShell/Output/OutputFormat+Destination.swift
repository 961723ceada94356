extension OutputFormat {
    /// The one rule of the output format, for every destination of stdout: the format chosen
    /// explicitly (a command's `--output`, a file's extension, the `output` setting or `bts
    /// --output`) wins; else a terminal gets a table and anything else — a pipe inside a bts line
    /// (`search dune | jq …`) or out to the shell (`bts -c 'search dune' | jq …`), a file — gets JSON.
    /// Text results (`help`, `history`, `set`) follow it too: JSON (a string, a list, an object) in
    /// a pipe, as every result is.
    static func forDestination(isTerminal: Bool, chosen: OutputFormat?) -> OutputFormat {
        chosen ?? (isTerminal ? .table : .json)
    }
}
