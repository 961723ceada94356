import CEditLine
import Foundation

#if canImport(Glibc)
import Glibc
#endif

// C callbacks libedit calls on the editor thread. Each finds its `EditorCore` through
// EL_CLIENTDATA (an unretained pointer; the core outlives its EditLine).

private func core(_ el: OpaquePointer?) -> EditorCore? {
    guard let el, let data = bts_el_get_clientdata(el) else { return nil }
    return Unmanaged<EditorCore>.fromOpaque(data).takeUnretainedValue()
}

nonisolated(unsafe) private let emptyPrompt: UnsafeMutablePointer<wchar_t> = {
    let pointer = UnsafeMutablePointer<wchar_t>.allocate(capacity: 1)
    pointer.initialize(to: 0)
    return pointer
}()

func editorPrompt(_ el: OpaquePointer?) -> UnsafeMutablePointer<wchar_t>? {
    core(el)?.promptPointer ?? emptyPrompt
}

func editorRightPrompt(_ el: OpaquePointer?) -> UnsafeMutablePointer<wchar_t>? {
    core(el)?.rightPromptPointer ?? emptyPrompt
}

/// EL_GETCFN: waits for a key on the terminal or a wake-up (abort, resize), decoding UTF-8
/// itself. Returns 1 with a character, 0 at end of input, -1 on error.
func editorReadCharacter(_ el: OpaquePointer?, _ out: UnsafeMutablePointer<wchar_t>?) -> Int32 {
    guard let core = core(el), let out else { return -1 }
    while true {
        if core.wakeup.isAborted(sequence: core.readSequence) {
            out.pointee = EditorCore.abortKey
            return 1
        }
        if core.wakeup.takeResize() {
            if let el { el_resize(el) }
            out.pointee = EditorCore.redisplayKey
            return 1
        }
        var fds = [
            pollfd(fd: core.inputFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: core.wakeup.readFD, events: Int16(POLLIN), revents: 0),
        ]
        // With a live right prompt (a budget's countdown), wake once a second to redraw it.
        let timeout: Int32 = core.liveRight == nil ? -1 : 1_000
        let ready = poll(&fds, nfds_t(core.wakeup.readFD >= 0 ? 2 : 1), timeout)
        if ready < 0 {
            if errno == EINTR { continue }
            return -1
        }
        if ready == 0 {
            if core.refreshRightPrompt() {
                out.pointee = EditorCore.redisplayKey
                return 1
            }
            continue
        }
        if fds[1].revents != 0 { core.wakeup.drain() }
        if fds[0].revents == 0 { continue }
        switch readScalar(fd: core.inputFD) {
        case .scalar(let value):
            out.pointee = wchar_t(bitPattern: value)
            return 1
        case .again:
            continue
        case .end:
            return 0
        case .failure:
            return -1
        }
    }
}

private enum ReadOutcome {
    case scalar(UInt32)
    case again, end, failure
}

/// Reads one UTF-8 encoded scalar from `fd` (invalid bytes become U+FFFD).
private func readScalar(fd: Int32) -> ReadOutcome {
    var lead: UInt8 = 0
    let count = read(fd, &lead, 1)
    if count == 0 { return .end }
    if count < 0 { return (errno == EINTR || errno == EAGAIN) ? .again : .failure }
    let length: Int
    switch lead {
    case 0x00...0x7F: return .scalar(UInt32(lead))
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return .scalar(0xFFFD)
    }
    var bytes: [UInt8] = [lead]
    while bytes.count < length {
        var next: UInt8 = 0
        let got = read(fd, &next, 1)
        if got < 0, errno == EINTR || errno == EAGAIN { continue }
        guard got == 1, next & 0xC0 == 0x80 else { return .scalar(0xFFFD) }
        bytes.append(next)
    }
    let decoded = String(decoding: bytes, as: UTF8.self).unicodeScalars
    guard decoded.count == 1, let scalar = decoded.first else { return .scalar(0xFFFD) }
    return .scalar(scalar.value)
}

/// Ctrl-C: keep the typed text visible with "^C", end the read, report `.interrupted`.
func editorInterrupt(_ el: OpaquePointer?, _ key: Int32) -> UInt8 {
    guard let el, let core = core(el) else { return UInt8(CC_ERROR) }
    core.endReason = .interrupt
    _ = el_cursor(el, Int32.max / 2)
    _ = withWideString("^C") { el_winsertstr(el, $0) }
    withWideString("\n") { el_wpush(el, $0) }
    return UInt8(CC_REFRESH)
}

/// Cancellation: end the read without echo (the pushed newline moves to a fresh line).
func editorAbort(_ el: OpaquePointer?, _ key: Int32) -> UInt8 {
    guard let el, let core = core(el) else { return UInt8(CC_ERROR) }
    core.endReason = .abort
    _ = el_cursor(el, Int32.max / 2)
    withWideString("\n") { el_wpush(el, $0) }
    return UInt8(CC_REFRESH)
}

/// After a resize: redraw prompt and line.
func editorRedisplay(_ el: OpaquePointer?, _ key: Int32) -> UInt8 {
    UInt8(CC_REDISPLAY)
}

/// Ctrl-X Ctrl-E: edit the line in `$EDITOR`, then run it.
func editorEditExternally(_ el: OpaquePointer?, _ key: Int32) -> UInt8 {
    guard let el, let core = core(el) else { return UInt8(CC_ERROR) }
    return core.editExternally()
}

/// TAB: ask the completion provider, edit the buffer, list candidates below the line.
func editorComplete(_ el: OpaquePointer?, _ key: Int32) -> UInt8 {
    guard let el, let core = core(el) else { return UInt8(CC_ERROR) }
    return core.complete()
}
