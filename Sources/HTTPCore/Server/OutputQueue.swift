import Glibc

/// A connection's unsent output: small pieces (heads, small bodies, chunk framing) are copied
/// into an owned tail buffer; large bodies are queued by reference (an array is a shared,
/// copy-on-write buffer), so a 5 MB cached answer sent to 100 clients exists once. Written with
/// one `send` or a gathering `sendmsg`.
///
/// `ownedUnsent` counts the bytes this connection holds on its own (its copies and its produced
/// chunks); shared segments (from `EncodedBody`s, counted where they live) are not in it.
struct OutputQueue {
    private struct Segment {
        var bytes: [UInt8]
        let shared: Bool
    }

    private var segments: [Segment] = []
    /// Index of the first segment with unsent bytes, and how much of it is sent.
    private var first = 0
    private var firstOffset = 0
    /// The last segment is owned and may take more small appends.
    private var tailOpen = false
    /// A drained owned buffer kept (empty, with its capacity) for the next response's head.
    private var spare: [UInt8] = []
    private(set) var unsent = 0
    private(set) var ownedUnsent = 0

    /// Bodies at most this long are copied into the tail; longer ones are queued by reference.
    static let copyLimit = 16 * 1024
    /// An owned buffer kept for reuse after a full drain only when no larger than this.
    static let keepCapacity = 64 * 1024

    var isEmpty: Bool { unsent == 0 }

    /// Appends bytes to the owned tail (for heads and framing, written by `ResponseWriter`).
    mutating func withTail<T>(_ body: (inout [UInt8]) -> T) -> T {
        if !tailOpen {
            segments.append(Segment(bytes: spare, shared: false))
            spare = []
            tailOpen = true
        }
        let i = segments.count - 1
        let before = segments[i].bytes.count
        let result = body(&segments[i].bytes)
        let added = segments[i].bytes.count - before
        unsent += added
        ownedUnsent += added
        return result
    }

    mutating func append(_ bytes: [UInt8]) {
        withTail { $0.append(contentsOf: bytes) }
    }

    /// Queues a body: copied when small, by reference when large. `shared` bodies are not
    /// counted as this connection's own bytes.
    mutating func appendBody(_ bytes: [UInt8], shared: Bool) {
        guard !bytes.isEmpty else { return }
        if bytes.count <= OutputQueue.copyLimit {
            append(bytes)
            return
        }
        segments.append(Segment(bytes: bytes, shared: shared))
        tailOpen = false
        unsent += bytes.count
        if !shared { ownedUnsent += bytes.count }
    }

    enum WriteResult {
        /// Everything is written.
        case drained
        /// The socket is full; some output remains.
        case wouldBlock
        /// The peer is gone (or another error): close.
        case failed
    }

    /// Writes as much as the socket takes.
    mutating func write(to fd: Int32) -> WriteResult {
        while unsent > 0 {
            let n: Int
            if segments.count - first == 1 {
                n = segments[first].bytes.withUnsafeBytes { raw in
                    Socket.write(fd, raw.baseAddress! + firstOffset, raw.count - firstOffset)
                }
            } else {
                n = gatherWrite(fd)
            }
            if n > 0 {
                consume(n)
                continue
            }
            return n == 0 ? .wouldBlock : .failed
        }
        reset()
        return .drained
    }

    /// Drops everything unsent (the connection is closing).
    mutating func discard() {
        segments = []
        spare = []
        first = 0
        firstOffset = 0
        tailOpen = false
        unsent = 0
        ownedUnsent = 0
    }

    private func gatherWrite(_ fd: Int32) -> Int {
        let count = min(segments.count - first, 64)
        return withUnsafeTemporaryAllocation(of: iovec.self, capacity: count) { iov in
            fillAndSend(fd, iov, 0, count)
        }
    }

    /// Pins segment `k`'s bytes for the duration of the nested calls, fills its iovec, recurses;
    /// the innermost call sends them all.
    private func fillAndSend(_ fd: Int32, _ iov: UnsafeMutableBufferPointer<iovec>, _ k: Int, _ count: Int) -> Int {
        if k == count { return Socket.write(fd, iov) }
        return segments[first + k].bytes.withUnsafeBytes { raw in
            let skip = k == 0 ? firstOffset : 0
            iov[k] = iovec(iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + skip), iov_len: raw.count - skip)
            return fillAndSend(fd, iov, k + 1, count)
        }
    }

    private mutating func consume(_ n: Int) {
        var left = n
        unsent -= n
        while left > 0 {
            let shared = segments[first].shared
            let remaining = segments[first].bytes.count - firstOffset
            let taken = min(left, remaining)
            if !shared { ownedUnsent -= taken }
            left -= taken
            if taken == remaining {
                if first == segments.count - 1 { tailOpen = false }
                // Release the buffer now (a large body must not outlive its sending); keep a
                // small owned one for reuse.
                let capacity = segments[first].bytes.capacity
                if !shared, capacity <= OutputQueue.keepCapacity, spare.capacity < capacity {
                    spare = segments[first].bytes
                    segments[first].bytes = []
                    spare.removeAll(keepingCapacity: true)
                } else {
                    segments[first].bytes = []
                }
                first += 1
                firstOffset = 0
            } else {
                firstOffset += taken
            }
        }
        if first > 32, first * 2 > segments.count {
            segments.removeFirst(first)
            first = 0
        }
    }

    private mutating func reset() {
        segments.removeAll(keepingCapacity: segments.capacity <= 8)
        first = 0
        firstOffset = 0
        tailOpen = false
        unsent = 0
        ownedUnsent = 0
    }
}
