// Fuzz target: the server's CSV import parser (BooksTrackServer/Jobs/CSVImportParser, parsing by
// CSV.swift). Any bytes give a table or a structure error; never a crash; rows within the limit.
func fuzzOne(_ bytes: [UInt8]) {
    switch CSVImportParser.parse(bytes, maxRows: 50) {
    case .success(let table):
        invariant(table.rows.count <= 50, "more rows than the limit")
        invariant(table.headers.count >= 2, "a table with fewer than 2 columns")
    case .failure(let error):
        invariant(!error.message.isEmpty, "an empty error message")
    }
}
