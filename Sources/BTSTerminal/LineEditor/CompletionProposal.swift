/// The line being edited when TAB is pressed.
package struct CompletionRequest: Sendable, Equatable {
    /// The whole edit buffer (the current physical line).
    package let line: String
    /// The cursor position in `line`.
    package let cursor: String.Index

    package init(line: String, cursor: String.Index) {
        self.line = line
        self.cursor = cursor
    }

    /// The cursor as a UTF-8 byte offset into `line` (what a byte-offset lexer wants).
    package var cursorUTF8Offset: Int { line.utf8.distance(from: line.startIndex, to: cursor) }
}

/// What the completion provider proposes for a request.
package struct CompletionProposal: Sendable, Equatable {
    /// The part of `CompletionRequest.line` that a candidate replaces (usually the word
    /// under the cursor). Indices must be valid in the request's `line`.
    package var replacementRange: Range<String.Index>
    /// Full replacements for `replacementRange` (not suffixes).
    package var candidates: [String]
    /// What to show in the list instead of `candidates` (same count), e.g. "search  (title/ISBN)".
    package var display: [String]?
    /// Whether to add a space after a sole candidate (false for directories, "key=" etc.).
    package var appendSpace: Bool

    package init(
        replacementRange: Range<String.Index>,
        candidates: [String],
        display: [String]? = nil,
        appendSpace: Bool = true
    ) {
        self.replacementRange = replacementRange
        self.candidates = candidates
        self.display = display
        self.appendSpace = appendSpace
    }

    /// No completion.
    package static func none(for request: CompletionRequest) -> CompletionProposal {
        CompletionProposal(replacementRange: request.cursor..<request.cursor, candidates: [])
    }
}

/// Computes completions. Called on the editor thread while the user waits: it must be fast
/// and must never do network I/O (use cached data only).
package typealias CompletionProvider = @Sendable (CompletionRequest) -> CompletionProposal

/// How a TAB press changes the buffer: the pure decision, separate from libedit.
package struct CompletionEdit: Sendable, Equatable {
    /// Text to put in place of the replacement range, or nil to leave the buffer alone.
    package var replacement: String?
    /// Items to list below the line (empty: no list).
    package var listing: [String]

    /// Decides the edit for `completion` made on `request`:
    /// one candidate → insert it (plus a space if `appendSpace`); several → insert their longest
    /// common prefix when it extends the typed word, and list them; none → nothing.
    package static func decide(request: CompletionRequest, completion: CompletionProposal) -> CompletionEdit {
        let candidates = completion.candidates
        guard !candidates.isEmpty else { return CompletionEdit(replacement: nil, listing: []) }
        let range = completion.replacementRange
        guard range.lowerBound >= request.line.startIndex, range.upperBound <= request.line.endIndex,
            range.lowerBound <= range.upperBound
        else { return CompletionEdit(replacement: nil, listing: []) }
        let typed = String(request.line[range])
        if candidates.count == 1 {
            let sole = candidates[0] + (completion.appendSpace ? " " : "")
            return CompletionEdit(replacement: sole == typed ? nil : sole, listing: [])
        }
        let prefix = CompletionText.longestCommonPrefix(candidates)
        let extends = prefix.count >= typed.count && prefix != typed
        var shown = completion.display ?? candidates
        if shown.count != candidates.count { shown = candidates }
        return CompletionEdit(replacement: extends ? prefix : nil, listing: shown)
    }
}
