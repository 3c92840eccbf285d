import Synchronization

/// The bytes the server holds for responses, against `HTTPServerConfiguration.responseMemoryLimit`:
/// every live `EncodedBody` (cached or being sent; each counted once however many connections
/// send it) plus the bytes connections hold on their own for clients that are not keeping up.
/// Past the limit new offloaded work is refused with 503 and stalled readers are closed sooner.
final class ResponseMemory: Sendable {
    let limit: Int
    let ledger: MemoryLedger
    private let connectionBytes = Atomic<Int>(0)

    init(limit: Int, ledger: MemoryLedger) {
        self.limit = max(1 << 20, limit)
        self.ledger = ledger
    }

    /// Owned unsent bytes of connections (reported when they change while a client lags).
    func adjust(by delta: Int) {
        if delta != 0 { connectionBytes.add(delta, ordering: .relaxed) }
    }

    var connectionsHeld: Int { connectionBytes.load(ordering: .relaxed) }
    var used: Int { ledger.bytes + connectionsHeld }
    var isOverLimit: Bool { used >= limit }
}
