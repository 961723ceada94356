import CEditLine
import Foundation

extension EditorCore {
    /// Runs the completion provider on the current buffer and applies its answer.
    func complete() -> UInt8 {
        guard let provider = completionProvider, let info = el_wline(el)?.pointee,
            let buffer = info.buffer, let cursor = info.cursor, let lastchar = info.lastchar
        else { return UInt8(CC_REFRESH_BEEP) }
        let length = lastchar - buffer
        let cursorOffset = cursor - buffer
        let line = WideString.decode(buffer, count: length)
        let scalars = line.unicodeScalars
        let cursorIndex =
            scalars.index(scalars.startIndex, offsetBy: cursorOffset, limitedBy: scalars.endIndex)
            ?? scalars.endIndex
        let request = CompletionRequest(line: line, cursor: cursorIndex)
        let completion = provider(request)
        let edit = CompletionEdit.decide(request: request, completion: completion)
        if completion.candidates.isEmpty { return UInt8(CC_REFRESH_BEEP) }
        if let replacement = edit.replacement {
            let range = completion.replacementRange
            let lower = scalars.distance(from: scalars.startIndex, to: range.lowerBound)
            let upper = scalars.distance(from: scalars.startIndex, to: range.upperBound)
            _ = el_cursor(el, Int32(clamping: upper - cursorOffset))
            if upper > lower { el_deletestr(el, Int32(clamping: upper - lower)) }
            _ = withWideString(replacement) { el_winsertstr(el, $0) }
        }
        guard !edit.listing.isEmpty else {
            return UInt8(edit.replacement == nil ? CC_REFRESH_BEEP : CC_REFRESH)
        }
        showListing(edit.listing)
        return UInt8(CC_REDISPLAY)
    }

    /// Prints `items` in columns below the edited line; libedit then redraws prompt and line.
    private func showListing(_ items: [String]) {
        let width = columns
        let limit = 200
        var lines = CompletionText.columns(Array(items.prefix(limit)), width: width)
        if items.count > limit { lines.append("… \(items.count - limit) more") }
        // Move from the cursor's row to below the last row of the input.
        var rowsBelow = 0
        if let info = el_wline(el)?.pointee, let buffer = info.buffer, let cursor = info.cursor,
            let lastchar = info.lastchar
        {
            let before = WideString.decode(buffer, count: cursor - buffer)
            let all = WideString.decode(buffer, count: lastchar - buffer)
            let promptWidth = CompletionText.displayWidth(promptText)
            let cursorRow = (promptWidth + CompletionText.displayWidth(before)) / width
            let lastRow = (promptWidth + CompletionText.displayWidth(all)) / width
            rowsBelow = max(0, lastRow - cursorRow)
        }
        var text = String(repeating: "\n", count: rowsBelow) + "\r\n"
        for line in lines { text += line + "\r\n" }
        write(text)
    }
}
