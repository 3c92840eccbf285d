/// A response: status, headers and a body that is bytes, a shared pre-encoded body, a pulled
/// chunked stream or a server-sent-event stream. The server adds `Date`, `Server`, `X-Request-Id` and the framing
/// (`Content-Length` or `Transfer-Encoding: chunked`); framing headers set here are replaced.
public struct HTTPResponse: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: Body
    /// Opt-in for the ETag middleware: a strong ETag from a hash of the identity body, and
    /// `If-None-Match` → 304. `immutable()` sets it.
    public var generatesETag: Bool = false
    /// Set false to keep the gzip middleware away from this response.
    public var allowsCompression: Bool = true
    /// Set by ``replayable(while:)``: the answer may be replayed while this holds.
    public internal(set) var replayCondition: (@Sendable () -> Bool)?

    public enum Body: Sendable {
        /// A complete body, sent with `Content-Length`. Large arrays are sent by reference, not
        /// copied into the connection's buffer.
        case bytes([UInt8])
        /// A body encoded once and shared (identity, gzip variant, ETag): sent with
        /// `Content-Length`; the gzip middleware selects the variant (`selectsGzip`).
        case encoded(EncodedBody)
        /// A chunked stream: the server calls the producer on the worker pool whenever the
        /// connection has room in its output window; nil ends the stream. Back-pressure comes
        /// for free: a slow client means fewer calls, and a stalled one holds at most its window.
        case pull(BodyProducer)
        /// A server-sent-event stream: the setup closure receives the `EventStream` once the
        /// headers are queued.
        case eventStream(@Sendable (EventStream) -> Void)

        /// The bytes sent for `.bytes` and `.encoded` bodies (the gzip variant when selected);
        /// empty for streams.
        public func wireBytes(selectsGzip: Bool) -> [UInt8] {
            switch self {
            case .bytes(let b): return b
            case .encoded(let e): return selectsGzip ? (e.gzip ?? e.identity) : e.identity
            case .pull, .eventStream: return []
            }
        }

        /// The byte count of the identity representation when it is known up front.
        public var knownLength: Int? {
            switch self {
            case .bytes(let b): return b.count
            case .encoded(let e): return e.identity.count
            case .pull, .eventStream: return nil
            }
        }
    }

    /// For `.encoded` bodies: send the gzip variant (set by the gzip middleware along with
    /// `Content-Encoding: gzip`).
    public var selectsGzip = false

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A shared pre-encoded body, with its content type.
    public init(status: HTTPStatus = .ok, encoded: EncodedBody) {
        self.init(status: status, headers: ["Content-Type": encoded.contentType], body: .encoded(encoded))
    }

    /// The bytes that go on the wire for `.bytes` and `.encoded` bodies (empty for streams).
    public var bodyBytes: [UInt8] { body.wireBytes(selectsGzip: selectsGzip) }

    /// `Cache-Control: public, max-age=31536000, immutable` and a strong ETag: for answers that
    /// never change (fixed-date queries).
    public func immutable() -> HTTPResponse {
        var r = self
        r.headers.replaceOrAdd(name: "Cache-Control", value: "public, max-age=31536000, immutable")
        r.generatesETag = true
        return r
    }

    /// `Cache-Control: public, max-age=…` and a strong ETag.
    public func cacheable(maxAge seconds: Int) -> HTTPResponse {
        var r = self
        r.headers.replaceOrAdd(name: "Cache-Control", value: "public, max-age=\(seconds)")
        r.generatesETag = true
        return r
    }

    /// `Cache-Control: no-store` (answers about `now`).
    public func noStore() -> HTTPResponse {
        var r = self
        r.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        return r
    }

    /// Adds `token` to `Vary` (once): for answers negotiated on a request header, e.g. `Accept`.
    public func varying(on token: String) -> HTTPResponse {
        var r = self
        addVary(token, to: &r.headers)
        return r
    }

    public func withHeader(_ name: String, _ value: String) -> HTTPResponse {
        var r = self
        r.headers.replaceOrAdd(name: name, value: value)
        return r
    }
}

/// The producer of a `.pull` body. Called sequentially (one call at a time, on worker-pool
/// threads); return the next chunk, nil at the end (empty chunks are skipped), or throw to abort
/// the response (the connection is closed without the terminating chunk so the client sees the
/// truncation). Chunks of tens of kilobytes suit the connection's output window.
public struct BodyProducer: Sendable {
    let next: @Sendable () throws -> [UInt8]?
    /// Memory the producer keeps between chunks for as long as the body is sent (a streaming
    /// deflater's state, say): the connection charges it to the server's response memory.
    public let retainedBytes: Int

    public init(retaining retainedBytes: Int = 0, _ next: @escaping @Sendable () throws -> [UInt8]?) {
        self.next = next
        self.retainedBytes = retainedBytes
    }

    /// A producer over mutable state: `BodyProducer(state: 0) { i in … i += 1 … }`.
    public init<State: Sendable>(state: State, retaining retainedBytes: Int = 0, next: @escaping @Sendable (inout State) throws -> [UInt8]?) {
        let box = ProducerBox(state)
        self.next = { try next(&box.state) }
        self.retainedBytes = retainedBytes
    }

    /// A producer over the chunks of a sequence.
    public init<S: Sequence & Sendable>(chunks: S) where S.Element == [UInt8] {
        let box = IteratorBox(chunks.makeIterator())
        self.next = { box.iterator.next() }
        retainedBytes = 0
    }

    /// Pulls the next chunk (for middleware that wraps producers).
    public func nextChunk() throws -> [UInt8]? { try next() }
}

/// Producer state lives here; the server only calls a producer from one queue at a time.
private final class ProducerBox<State>: @unchecked Sendable {
    var state: State
    init(_ state: State) { self.state = state }
}

private final class IteratorBox<I: IteratorProtocol>: @unchecked Sendable {
    var iterator: I
    init(_ iterator: I) { self.iterator = iterator }
}

/// Adds `token` to `Vary` unless it is already listed.
package func addVary(_ token: String, to headers: inout HTTPHeaders) {
    if headers.containsToken(token, in: "vary") || headers.containsToken("*", in: "vary") { return }
    if let existing = headers["vary"], !existing.isEmpty {
        headers.replaceOrAdd(name: "Vary", value: existing + ", " + token)
    } else {
        headers.replaceOrAdd(name: "Vary", value: token)
    }
}
