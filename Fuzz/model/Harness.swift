import Foundation

// Fuzz target: the sentence model's files as bts reads them (BooksTrackEmbedding). The first byte
// chooses the file, the rest is its content:
// - even: a safetensors file (`SafeTensors.tensors(in:)`): it throws `malformed`, or every tensor it
//   returns lies inside the bytes, after the header, 4-byte aligned, exactly as long as its shape says;
// - odd: a vocabulary (`Vocabulary(bytes:)`): each non-empty line's id is its first line's number,
//   and the longest line is the longest line.
func fuzzOne(_ bytes: [UInt8]) {
    guard let selector = bytes.first else { return }
    let content = Array(bytes.dropFirst())
    if selector % 2 == 0 {
        checkSafeTensors(content)
    } else {
        checkVocabulary(content)
    }
}

func checkSafeTensors(_ content: [UInt8]) {
    content.withUnsafeBytes { raw in
        let tensors: [String: SafeTensors.Tensor]
        do throws(SafeTensors.LoadError) {
            tensors = try SafeTensors.tensors(in: raw)
        } catch {
            if case .malformed = error { return }
            invariant(false, "an error other than malformed: \(error)")
            return
        }
        let headerEnd = 8 + (0..<8).reduce(0) { $0 | Int(content[$1]) << (8 * $1) }
        for (name, tensor) in tensors {
            let count = tensor.shape.reduce(1, *)
            invariant(tensor.offset >= headerEnd, "\(name) starts inside the header")
            invariant(tensor.offset % 4 == 0, "\(name) is not 4-byte aligned")
            invariant(tensor.offset + 4 * count <= content.count, "\(name) ends past the file")
        }
    }
}

func checkVocabulary(_ content: [UInt8]) {
    let vocabulary = Vocabulary(bytes: content)
    let lines = content.split(separator: 0x0A, omittingEmptySubsequences: false)
    var first: [ArraySlice<UInt8>: Int] = [:]
    for (number, line) in lines.enumerated() {
        let token = line.last == 0x0D ? line.dropLast() : line
        guard !token.isEmpty else { continue }
        if first[token] == nil { first[token] = number }
    }
    for (token, number) in first {
        invariant(
            vocabulary.id(token) == Int32(number),
            "line \(number)'s token has id \(String(describing: vocabulary.id(token)))"
        )
    }
    invariant(vocabulary.longestLine == (lines.map(\.count).max() ?? 0), "longest line \(vocabulary.longestLine)")
}
