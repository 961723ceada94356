import BooksTrackContract

extension ShellError {
    /// What `$_` holds after a command failed with this error: `{"error": {"code", "message",
    /// "status"}, "body": …}`, the body being the server's answer when there was one.
    var result: JSONValue {
        .record([
            (
                "error",
                .record([
                    ("code", code.rawValue.json), ("message", message.json),
                    ("status", Int(status.rawValue).json),
                ])
            ),
            ("body", answer),
        ])
    }
}
