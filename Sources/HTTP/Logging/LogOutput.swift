import Glibc
import Dispatch
import Foundation
import Synchronization

/// Where log lines go: a file descriptor (stdout by default) or memory (tests).
///
/// A descriptor output never makes its caller wait on `write(2)`: `write(line:)` appends the line
/// to a bounded buffer and one writer thread drains it, several lines per system call. While
/// lines keep coming the writer takes them every `coalescing` interval (10 ms: one `write` and
/// no thread wake-ups per request at 50,000 requests a second, where waking the writer for each
/// line cost the event loops a futex call and a context switch each), or at once when a quarter
/// of the buffer is pending; an idle writer is woken by the first line. When the buffer is full
/// (the terminal, pipe or collector cannot keep up) the line is dropped and counted
/// (`droppedLines`, exported as `log_lines_dropped_total`): an event loop never waits on its
/// access log. Lines are never split or interleaved, and `flush` writes what is pending at once.
public final class LogOutput: Sendable {
    private struct State {
        var pending: [UInt8] = []
        var captured: [String] = []
        var dropped = 0
        var written = 0
        var writerStarted = false
        /// The writer is between batches or asleep; a flush waiter watches `written`.
        var writing = false
        /// The writer found nothing to write and waits for a signal (not for its interval).
        var sleeping = false
        /// The writer was signalled because a quarter of the buffer is pending.
        var hurried = false
    }

    private let fd: Int32?
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    /// Signalled after every batch, for `flush`.
    private let progress = DispatchSemaphore(value: 0)
    /// Bytes that may wait for the writer before lines are dropped.
    public let capacityBytes: Int
    /// How long lines gather between two writes while they keep coming.
    public let coalescing: DispatchTimeInterval

    public init(fileDescriptor: Int32, capacityBytes: Int = 1 << 20, coalescing: DispatchTimeInterval = .milliseconds(10)) {
        fd = fileDescriptor
        self.capacityBytes = max(4096, capacityBytes)
        self.coalescing = coalescing
    }

    private init(memory: Void) {
        fd = nil
        capacityBytes = Int.max
        coalescing = .never
    }

    public static let standardOutput = LogOutput(fileDescriptor: 1)
    public static let standardError = LogOutput(fileDescriptor: 2)
    /// Keeps lines in memory (`lines`), synchronously, for tests.
    public static func memory() -> LogOutput { LogOutput(memory: ()) }

    /// Lines captured by a memory output.
    public var lines: [String] { state.withLock { $0.captured } }

    /// Lines dropped because the buffer was full.
    public var droppedLines: Int { state.withLock { $0.dropped } }

    /// Queues one line (it should end with a newline). Never blocks on I/O.
    func write(line: [UInt8]) {
        guard fd != nil else {
            let text = String(decoding: line.last == 0x0A ? line.dropLast() : line[...], as: UTF8.self)
            state.withLock { $0.captured.append(text) }
            return
        }
        let (startWriter, signal) = state.withLock { s -> (Bool, Bool) in
            guard s.pending.count + line.count <= capacityBytes else {
                s.dropped += 1
                return (false, false)
            }
            s.pending.append(contentsOf: line)
            let start = !s.writerStarted
            s.writerStarted = true
            var signal = false
            if s.sleeping {
                s.sleeping = false
                signal = true
            } else if !s.hurried, s.pending.count >= capacityBytes / 4 {
                s.hurried = true
                signal = true
            }
            return (start, signal && !start)
        }
        if startWriter {
            let thread = Thread { [self] in runWriter() }
            thread.name = "log-writer"
            thread.start()
        } else if signal {
            wake.signal()
        }
    }

    /// Waits until every line queued so far has been written (or `timeout` seconds pass): at
    /// exit, so the last lines are not lost. True when the buffer drained.
    @discardableResult
    public func flush(timeout: Double = 2) -> Bool {
        guard fd != nil else { return true }
        let deadline = DispatchTime.now() + timeout
        while true {
            let idle = state.withLock { $0.pending.isEmpty && !$0.writing }
            if idle { return true }
            wake.signal()
            if progress.wait(timeout: deadline) == .timedOut { return state.withLock { $0.pending.isEmpty && !$0.writing } }
        }
    }

    private func runWriter() {
        guard let fd else { return }
        var batch: [UInt8] = []
        while true {
            let hasWork = state.withLock { s -> Bool in
                if s.pending.isEmpty {
                    s.writing = false
                    s.sleeping = true
                    return false
                }
                s.writing = true
                s.hurried = false
                swap(&batch, &s.pending)
                return true
            }
            if !hasWork {
                progress.signal()
                wake.wait()
                continue
            }
            batch.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
                    if n > 0 { offset += n } else if n < 0, errno == EINTR { continue } else { break }
                }
            }
            let count = batch.count
            batch.removeAll(keepingCapacity: batch.capacity <= 4 * 65536)
            state.withLock { $0.written += count }
            progress.signal()
            // Let the next lines gather (a signal cuts it short: a quarter full, or a flush).
            _ = wake.wait(timeout: .now() + coalescing)
        }
    }
}

@inline(__always)
func systemWrite(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
    Glibc.write(fd, p, n)
}
