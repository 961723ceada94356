import BTSLanguage
import BooksTrackClient
import BooksTrackContract
import Foundation

extension Shell {
    /// `enrich ISBN [--provider P]` (single) or `enrich ISBN ISBN… | --from FILE [--watch]` (batch job).
    func runEnrich(_ command: ResolvedCommand, _ context: SourceContext) async throws -> CommandOutput? {
        let words = command.values("ISBN")
        let watch = command.flag("watch")
        if words.count == 1, command.options["from"] == nil, !watch {
            let isbn = try validatedISBN(words[0].text ?? "", range: words[0].word.range)
            let provider = command.optionString("provider").flatMap(EnrichProvider.init(rawValue:))
            let response = try await call(budget: .enrich, command: "enrich") { api in
                try await api.enrich(isbn: isbn.value, provider: provider == .auto ? nil : provider)
            }
            return ResultViews.enriched(response.value)
        }
        var isbns: [String] = []
        var source: String
        if let from = command.options["from"], let path = from.value?.text {
            let url = resolvePath(path, in: context)
            isbns = try readISBNList(url, range: from.value?.word.range)
            source = path
        } else {
            for word in words { isbns.append(try validatedISBN(word.text ?? "", range: word.word.range).value) }
            source = "\(isbns.count) ISBN\(isbns.count == 1 ? "" : "s")"
        }
        let jobID = UUID().uuidString.lowercased()
        let books = isbns.map { BatchBook(title: "", isbn: $0) }
        let response = try await call(budget: .batch, gate: "enrich-batch", command: "enrich") { api in
            try await api.batchEnrich(books: books, jobID: jobID)
        }
        let accepted = response.value
        let record = SessionJob(id: accepted.jobId, kind: .batchEnrichment, token: accepted.authToken, startedAt: Date(),
                                totalCount: accepted.totalCount, processedCount: 0, status: "initialized", source: source)
        jobs.append(record)
        if watch { return try await watchJob(record.id, record: record) }
        note("started batch enrichment job \(record.id) (\(accepted.totalCount) books); 'watch' follows it")
        return CommandOutput(value: record.json, view: .record(fields: ["jobId", "kind", "status", "totalCount", "source"].map { RecordField($0) }))
    }

    /// Reads `--from FILE`: one ISBN per line; blank lines and `#` comments ignored.
    func readISBNList(_ url: URL, range: SourceRange?) throws(ShellError) -> [String] {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ShellError(.usage, "cannot read '\(url.path)': no such file or not readable", range: range)
        }
        var isbns: [String] = []
        for (number, rawLine) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = rawLine
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { continue }
            do {
                isbns.append(try ISBN(parsing: text).value)
            } catch {
                throw ShellError(.usage, "\(url.lastPathComponent):\(number + 1): '\(text)': \(ErrorCode.invalidISBN.userMessage()): \(error.message)",
                                 range: range, code: ErrorCode.invalidISBN.rawValue)
            }
        }
        guard !isbns.isEmpty else { throw ShellError(.usage, "'\(url.path)' holds no ISBN", range: range) }
        guard isbns.count <= 100 else {
            throw ShellError(.usage, "'\(url.path)' holds \(isbns.count) ISBNs; a batch takes at most 100", range: range)
        }
        return isbns
    }

    /// A path relative to the running script's directory (or the working directory).
    func resolvePath(_ path: String, in context: SourceContext) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
        if path.hasPrefix("~/") {
            let home = options.environment["HOME"] ?? NSHomeDirectory()
            return URL(fileURLWithPath: home).appendingPathComponent(String(path.dropFirst(2)))
        }
        return context.directory.appendingPathComponent(path).standardizedFileURL
    }

    /// `import FILE.csv [--watch]`: checked locally first (exists, readable, ≤ 8 MB, a header with
    /// at least 2 columns and a data row), then uploaded.
    func runImport(_ command: ResolvedCommand, _ context: SourceContext) async throws -> CommandOutput? {
        let word = command.values("FILE").first
        let path = command.string("FILE") ?? ""
        let url = resolvePath(path, in: context)
        try CSVPreflight.check(url, shownAs: path, range: word?.word.range)
        let response = try await call(budget: .import, gate: "import", command: "import") { api in
            try await api.importCSV(fileAt: url)
        }
        let accepted = response.value
        let record = SessionJob(id: accepted.jobId, kind: .csvImport, token: accepted.authToken, startedAt: Date(),
                                status: "initialized", source: url.lastPathComponent)
        jobs.append(record)
        if command.flag("watch") { return try await watchJob(record.id, record: record) }
        note("started import job \(record.id); 'watch' follows it")
        return CommandOutput(value: record.json, view: .record(fields: ["jobId", "kind", "status", "source"].map { RecordField($0) }))
    }

    /// `watch [JOB|last]`.
    func runWatch(_ command: ResolvedCommand) async throws -> CommandOutput? {
        let (id, record) = try job(command.string("JOB"))
        return try await watchJob(id, record: record)
    }

    /// Follows a job: a progress bar redrawn in place on a terminal's stderr, one JSON object per
    /// event on stdout when stdout is not a terminal; Ctrl-C detaches (the job keeps running).
    /// Ends with the results summary and error rows.
    func watchJob(_ id: String, record: SessionJob?) async throws -> CommandOutput {
        let api = try await backend().api
        let pipeline = record?.pipeline ?? .csvImport
        let bar = options.terminal.stderrIsTerminal && !settings.quiet
        let events = !options.terminal.stdoutIsTerminal
        let line = ProgressLine()
        let clock = ContinuousClock()
        let started = clock.now
        var results: JobResults?
        var outcome: JobWatchOutcome?
        var drawn = false
        do {
            for try await event in api.watch(jobID: id, pipeline: pipeline, token: record?.token) {
                switch event {
                case .channel(let channel):
                    if events { out(JSONValue.record([("event", "channel".json), ("jobId", id.json), ("channel", channel.rawValue.json)]).compactJSON + "\n") }
                case .progress(let update):
                    updateJob(id, status: update.status.rawValue, processed: update.processedCount, total: update.totalCount)
                    if events {
                        out(JSONValue.record([
                            ("event", "progress".json), ("jobId", id.json), ("status", update.status.rawValue.json),
                            ("progress", update.fraction.json), ("processedCount", update.processedCount.json),
                            ("totalCount", update.totalCount.json),
                        ]).compactJSON + "\n")
                    }
                    if bar {
                        let elapsed = clock.now - started
                        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                        let text = line.render(fraction: update.fraction, processed: update.processedCount,
                                               total: update.totalCount, elapsed: seconds, status: update.status.rawValue)
                        sink.write("\r\u{1B}[K" + text, to: .standardError)
                        drawn = true
                    }
                case .reconnecting(let after, let reason):
                    if events { out(JSONValue.record([("event", "reconnecting".json), ("jobId", id.json), ("reason", reason.json)]).compactJSON + "\n") }
                    if !bar { note("watch: \(reason); reconnecting in \(after)") }
                case .results(let fetched):
                    results = fetched
                case .finished(let end):
                    outcome = end
                }
            }
        } catch {
            if !Task.isCancelled { throw error }
        }
        if drawn { sink.write("\r\u{1B}[K", to: .standardError) }
        if Task.isCancelled || outcome == .detached {
            note("detached from job \(id); it keeps running on the server ('watch \(id)' follows it again)")
            throw ShellError(.interrupted, "interrupted")
        }
        switch outcome {
        case .completed?:
            updateJob(id, status: "completed")
            guard let results else { throw ShellError(.failure, "job \(id) completed but sent no results") }
            return ResultViews.jobResults(results, jobID: id)
        case .resultsUnavailable(let message)?:
            updateJob(id, status: "completed")
            throw ShellError(.failure, "job \(id) completed but its results are unavailable: \(message)")
        case .failed(let code, let message, _)?:
            updateJob(id, status: "failed")
            throw ShellError(.failure, "job \(id) failed: \([code, message].compactMap { $0 }.joined(separator: ": "))",
                             code: code ?? "JOB_FAILED")
        case .canceled?:
            updateJob(id, status: "canceled")
            throw ShellError(.failure, "job \(id) was canceled", code: "JOB_CANCELED")
        case .notFound(let message)?:
            throw ShellError(.failure, message ?? "job \(id) not found", code: ErrorCode.notFound.rawValue)
        case .unauthorized?:
            throw ShellError(.failure, "the server refused the job's token for \(id)", code: ErrorCode.unauthorized.rawValue)
        case .unreachable(let reason)?:
            throw ShellError(.network, "lost the server while watching job \(id): \(reason)", code: ErrorCode.networkError.rawValue)
        case .detached?, nil:
            throw ShellError(.failure, "the progress stream of job \(id) ended without a final status")
        }
    }

    /// `status JOB`.
    func runStatus(_ command: ResolvedCommand) async throws -> CommandOutput? {
        let (id, _) = try job(command.string("JOB"))
        let response = try await call(budget: .jobs, command: "status") { api in try await api.jobStatus(id) }
        let status = response.value
        updateJob(id, status: status.status.rawValue, processed: status.processedCount, total: status.totalCount)
        return ResultViews.jobStatus(status)
    }

    /// `results JOB`.
    func runResults(_ command: ResolvedCommand) async throws -> CommandOutput? {
        let (id, record) = try job(command.string("JOB"))
        let pipeline = record?.pipeline ?? .csvImport
        let response = try await call(budget: .jobs, command: "results") { api in
            try await api.jobResults(id, pipeline: pipeline)
        }
        return ResultViews.jobResults(response.value, jobID: id)
    }

    /// `cancel JOB`: uses the token kept when the job was started.
    func runCancel(_ command: ResolvedCommand) async throws -> CommandOutput? {
        let (id, record) = try job(command.string("JOB"))
        guard let token = record?.token else {
            throw ShellError(.failure, "cannot cancel job \(id): its token is known only to the session that started it",
                             code: ErrorCode.unauthorized.rawValue)
        }
        let response = try await call(budget: .jobs, gate: "cancel", command: "cancel") { api in
            try await api.cancelJob(id, token: token)
        }
        let cancel = response.value
        updateJob(id, status: cancel.status.rawValue)
        let value = JSONValue.record([("jobId", cancel.jobId.json), ("status", cancel.status.rawValue.json),
                                      ("message", cancel.message.json)])
        return CommandOutput(value: value, view: .record(fields: ["jobId", "status", "message"].map { RecordField($0) }))
    }
}
