/// Answers kept for replay on one event loop, and confined to it (no locks): Replay.swift says
/// what may be replayed, docs/http.md "Replayed answers" why.
///
/// A fixed number of slots, addressed by a seeded hash of the target and the key headers'
/// values, each probed over four neighbours. A new answer takes a free slot or evicts the first
/// of them, and the bytes the entries hold are bounded: a flood of distinct targets costs the
/// slots and `byteLimit`, nothing more. Looking up allocates nothing.
final class ReplayMemo {
    struct Entry {
        let hash: Int
        let target: String
        /// The key headers' values (nil: absent), in `keyHeaders` order.
        let keyValues: [String?]
        let route: String
        let path: String
        let status: HTTPStatus
        /// The response's own header lines as `ResponseWriter.appendFields` writes them,
        /// without `X-Request-Id` (each replay writes its own).
        let fields: [UInt8]
        /// The body as the chain left it: an `.encoded` body stays alive (and counted by its
        /// memory ledger) for as long as the entry holds it.
        let body: HTTPResponse.Body
        let selectsGzip: Bool
        let condition: @Sendable () -> Bool
        let actions: [@Sendable (ReplayedExchange) -> Void]

        var bodyBytes: [UInt8] { body.wireBytes(selectsGzip: selectsGzip) }

        var sharedBody: Bool {
            if case .encoded = body { return true }
            return false
        }

        /// What the entry holds, for `byteLimit`: its body (shared or not), head and key.
        var heldBytes: Int { bodyBytes.count + fields.count + target.utf8.count + 128 }
    }

    /// Lower-case names of the request headers that are part of the key.
    let keyHeaders: [String]
    let byteLimit: Int
    /// The largest body kept.
    static let maxBodyBytes = 256 * 1024
    private var slots: [Entry?]
    private let mask: Int
    private(set) var heldBytes = 0
    private(set) var count = 0

    init(keyHeaders: [String], slots: Int, byteLimit: Int) {
        self.keyHeaders = keyHeaders
        var n = 8
        while n < slots { n <<= 1 }
        self.slots = Array(repeating: nil, count: n)
        mask = n - 1
        self.byteLimit = byteLimit
    }

    var capacity: Int { slots.count }

    /// The key's hash, or nil when the request cannot be replayed: a key header sent twice.
    func hash(_ request: HTTPRequest) -> Int? {
        var h = Hasher()
        h.combine(request.target)
        for name in keyHeaders {
            var value: String?
            for f in request.headers where asciiCaseInsensitiveEquals(f.name, name) {
                if value != nil { return nil }
                value = f.value
            }
            h.combine(value)
        }
        return h.finalize()
    }

    private func matches(_ e: Entry, _ hash: Int, _ request: HTTPRequest) -> Bool {
        guard e.hash == hash, e.target == request.target else { return false }
        for (i, name) in keyHeaders.enumerated() where request.headers[name] != e.keyValues[i] { return false }
        return true
    }

    /// The slot holding an answer for `request` (same target and key header values).
    func find(_ request: HTTPRequest) -> (slot: Int, entry: Entry)? {
        guard count > 0, let hash = hash(request) else { return nil }
        for k in 0..<4 {
            let i = (hash &+ k) & mask
            if let e = slots[i], matches(e, hash, request) { return (i, e) }
        }
        return nil
    }

    func remove(slot i: Int) {
        if let old = slots[i] {
            heldBytes -= old.heldBytes
            count -= 1
            slots[i] = nil
        }
    }

    /// Keeps `response` (as the chain made it for `request`) for replay. Returns false when it
    /// cannot be kept: a streamed or large body, a key header sent twice.
    @discardableResult
    func insert(_ response: HTTPResponse, for request: HTTPRequest, route: String, actions: [@Sendable (ReplayedExchange) -> Void]) -> Bool {
        guard let condition = response.replayCondition, let hash = hash(request) else { return false }
        switch response.body {
        case .bytes, .encoded: break
        case .pull, .eventStream: return false
        }
        var fields: [UInt8] = []
        ResponseWriter.appendFields(response.headers, to: &fields, writingRequestId: false)
        let entry = Entry(
            hash: hash, target: request.target, keyValues: keyHeaders.map { request.headers[$0] }, route: route, path: request.path,
            status: response.status, fields: fields, body: response.body, selectsGzip: response.selectsGzip,
            condition: condition, actions: actions
        )
        let size = entry.heldBytes
        guard entry.bodyBytes.count <= Self.maxBodyBytes, size <= byteLimit else { return false }
        // The same key's slot, else a free one, else the first probed is evicted.
        var target = hash & mask
        var free: Int?
        for k in 0..<4 {
            let i = (hash &+ k) & mask
            if let e = slots[i] {
                if matches(e, hash, request) { free = i; break }
            } else if free == nil {
                free = i
            }
        }
        if let free { target = free }
        remove(slot: target)
        // Over the byte limit: evict neighbours in slot order until the entry fits.
        var victim = (target &+ 1) & mask
        while heldBytes + size > byteLimit, victim != target {
            remove(slot: victim)
            victim = (victim &+ 1) & mask
        }
        slots[target] = entry
        heldBytes += size
        count += 1
        return true
    }
}
