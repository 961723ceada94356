import BooksTrackContract

extension BooksTrackAPI {
    /// Joins the identical in-flight GET, or leads it: the leader runs the request in its own task
    /// (a task of its own per request would cost every lookup a task's creation) and every joiner
    /// gets the same result. A cancelled joiner leaves at once and the request goes on; a
    /// cancelled leader ends its request, and its joiners start again (one of them leading a new
    /// request).
    func shared(
        key: String,
        spec: RequestSpec,
        url: String,
        onRetry: (@Sendable (RetryProgress) -> Void)?
    ) async throws(BooksTrackError) -> CallOutcome {
        while true {
            if let existing = flights[key], existing.acceptsJoiners {
                statistics.coalesced += 1
                nextWaiterID += 1
                let waiterID = nextWaiterID
                do {
                    // The continuation's body may run off the actor, even after the request ended:
                    // the flight keeps its result for late joiners (FlightStateMachine).
                    var outcome = try await withTaskCancellationHandler {
                        try await withCheckedThrowingContinuation { (continuation: Flight.Waiter) in
                            existing.join(id: waiterID, continuation, isCancelled: Task.isCancelled)
                        }
                    } onCancel: {
                        existing.leave(id: waiterID)
                    }
                    outcome.coalesced = true
                    return outcome
                } catch let error as BooksTrackError {
                    throw error
                } catch is Flight.Abandoned {
                    statistics.coalesced -= 1
                    continue
                } catch {
                    throw BooksTrackError.cancelled(url: SecretMasking.maskURL(url))
                }
            }
            let flight = Flight()
            flights[key] = flight
            let result: Result<CallOutcome, BooksTrackError>
            do throws(BooksTrackError) {
                result = .success(try await runWithRetries(spec, url: url, onRetry: onRetry))
            } catch {
                result = .failure(error)
            }
            if flights[key] === flight { flights[key] = nil }
            if case .failure(let error) = result, error.isCancellation {
                flight.abandon()
            } else {
                flight.finish(result)
            }
            return try result.get()
        }
    }
}
