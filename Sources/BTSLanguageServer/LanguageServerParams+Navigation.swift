extension LanguageServerParams {
    /// `textDocument/references`' `context.includeDeclaration` (false when missing or not a boolean).
    struct ReferencesRequest: Decodable {
        var includeDeclaration: Bool

        enum CodingKeys: String, CodingKey { case context }
        enum ContextKeys: String, CodingKey { case includeDeclaration }

        init(from decoder: any Decoder) {
            let fields = try? decoder.container(keyedBy: CodingKeys.self)
            let context = try? fields?.nestedContainer(keyedBy: ContextKeys.self, forKey: .context)
            includeDeclaration = (try? context?.decode(Bool.self, forKey: .includeDeclaration)) ?? false
        }
    }

    /// `textDocument/rename`'s `newName` (nil when missing or not a string).
    struct RenameRequest: Decodable {
        var newName: String?

        enum CodingKeys: String, CodingKey { case newName }

        init(from decoder: any Decoder) {
            let fields = try? decoder.container(keyedBy: CodingKeys.self)
            newName = try? fields?.decode(String.self, forKey: .newName)
        }
    }
}
