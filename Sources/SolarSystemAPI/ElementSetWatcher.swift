import Glibc
import Dispatch
import Ephemeris
import HTTPCore
import Logging
import Satellites
import Synchronization

/// Keeps a served catalogue in step with an operator's element file — `--tle` (satellites,
/// ``SatelliteElementSource``) or `--elements` (asteroids and comets, ``SmallBodyElementSource``):
/// the file is polled on a timer off the event loops and read when a new version has settled
/// (``FileVersions``: held still for a poll; if its source says its last record looks cut short,
/// held still for the grace period); its bytes go to the source in chunks, which parses them and
/// swaps the whole catalogue in one step. Answers in flight keep the catalogue they started with;
/// none is dropped.
///
/// Every other outcome keeps the previous catalogue in service and says so once per version: a
/// file that disappears, is empty, is not a regular file (opened without blocking, so a FIFO is
/// refused at once), is too large, cannot be read or yields no usable record. A failed cron
/// download must not empty the sky. ``stop()`` also stops a reading in progress (the server's
/// shutdown does not wait for it).
public final class ElementSetWatcher: @unchecked Sendable {
    // @unchecked: `timer` is set once in `start` and cancelled in `stop`, both by the owner;
    // everything the timer's handler touches is under `versions`' lock, atomic or immutable.

    public let path: String
    /// What the file's bytes mean and where they are served.
    let source: any WatchedElementSource
    let logger: Logger
    private let versions: Mutex<FileVersions>
    private let stopped = Atomic<Bool>(false)
    private var timer: DispatchSourceTimer?

    public init(path: String, source: any WatchedElementSource, logger: Logger, unfinishedGraceSeconds: Double = 30) {
        self.path = path
        self.source = source
        self.logger = logger
        versions = Mutex(FileVersions(unfinishedGraceSeconds: unfinishedGraceSeconds))
    }

    /// The `--tle` watcher: `bundled` are the sets served under the file's (the bundled ISS),
    /// outranked by it.
    public convenience init(path: String, bundled: [(name: String, file: ElementSetFile)], feed: SatelliteFeed, logger: Logger,
                            unfinishedGraceSeconds: Double = 30) {
        self.init(path: path, source: SatelliteElementSource(bundled: bundled, feed: feed, logger: logger), logger: logger,
                  unfinishedGraceSeconds: unfinishedGraceSeconds)
    }

    /// The catalogue of `bundled` files and `file` (which outranks them), for start-up and reloads.
    public static func catalogue(bundled: [(name: String, file: ElementSetFile)], file: (name: String, file: ElementSetFile)?) -> SatelliteCatalogue {
        SatelliteElementSource.catalogue(bundled: bundled, file: file)
    }

    /// Reads the file now and serves it; throws when it cannot be read or parsed as a whole
    /// (start-up stops there, naming the file). Bad records are logged and skipped; an empty
    /// file or one with no usable record serves what is bundled, with a warning.
    public func loadNow() throws(ElementSetError) {
        let read = try read(path)
        if read.count == 0 {
            logger.warning("element sets: the file is empty; serving the bundled ones alone", metadata: ["file": "\(path)"])
        }
        var reader = read.reader
        _ = try reader.finish(reload: false)
        versions.withLock { $0.handled(read.stamp) }
    }

    /// Polls every `intervalSeconds` on `queue` until ``stop()``.
    public func start(intervalSeconds: Double, queue: DispatchQueue = DispatchQueue(label: "element-set-watcher", qos: .utility)) {
        let t = DispatchSource.makeTimerSource(queue: queue)
        t.schedule(deadline: .now() + intervalSeconds, repeating: intervalSeconds, leeway: .milliseconds(100))
        t.setEventHandler { [weak self] in self?.poll() }
        timer = t
        t.resume()
    }

    /// Stops polling, and a reading in progress at its next record.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
        timer?.cancel()
        timer = nil
    }

    /// Asked by a reading between records.
    private var interrupt: Interrupt {
        Interrupt { [weak self] in (self?.stopped.load(ordering: .relaxed) ?? true) ? ElementSetError(reason: "the server is stopping") : nil }
    }

    /// One poll: reload when a new version has settled.
    func poll() {
        let now = FileVersions.now()
        switch versions.withLock({ $0.observe(FileVersions.Stamp.of(path), now: now) }) {
        case .wait:
            return
        case .gone:
            logger.warning("element sets: the file is gone; still serving the previous ones", metadata: ["file": "\(path)"])
        case .read(let stamp):
            reload(stamp, now: now)
        }
    }

    private func reload(_ seen: FileVersions.Stamp, now: Double) {
        let read: Read
        do {
            read = try self.read(path)
        } catch {
            versions.withLock { $0.handled(seen) }
            logger.warning("element sets: the changed file cannot be read; still serving the previous ones", metadata: ["file": "\(path)", "reason": "\(error.reason)"])
            return
        }
        // Changed again since the poll: the next polls see the new version settle.
        guard read.stamp == seen else { return }
        if read.count == 0 {
            versions.withLock { $0.handled(seen) }
            logger.warning("element sets: the file is empty; still serving the previous ones", metadata: ["file": "\(path)"])
            return
        }
        if source.looksUnfinished(head: read.head, tail: read.tail), !versions.withLock({ $0.looksUnfinished(seen, now: now) }) {
            logger.debug("element sets: the file looks unfinished (its last record is cut short); waiting for it", metadata: ["file": "\(path)"])
            return
        }
        versions.withLock { $0.handled(seen) }
        guard !stopped.load(ordering: .relaxed) else { return }
        var reader = read.reader
        do {
            guard try reader.finish(reload: true) else {
                logger.warning("element sets: the changed file holds no usable record; still serving the previous ones", metadata: ["file": "\(path)"])
                return
            }
        } catch {
            logger.warning("element sets: the changed file cannot be read; still serving the previous ones", metadata: ["file": "\(path)", "reason": "\(error.reason)"])
            return
        }
        // What reading and parsing left behind (and the old catalogue, once its last answer is
        // done) goes back to the system rather than staying with the allocator.
        ServerProcess.releaseFreedMemory()
    }

    /// One reading of the file: the reader that consumed it, its stamp and size, and its first and
    /// last bytes (for ``WatchedElementSource/looksUnfinished(head:tail:)``).
    struct Read {
        var reader: any WatchedElementReader
        let stamp: FileVersions.Stamp
        let count: Int
        let head: [UInt8]
        let tail: [UInt8]
    }

    /// Bytes kept of the file's start and end for the unfinished test (a whole last line).
    static let edgeBytes = 2048

    /// Opens the file without blocking (a regular file only), refuses one over the source's
    /// limit, and hands its bytes to a new reader in chunks of at most 1 MiB.
    func read(_ path: String) throws(ElementSetError) -> Read {
        let file: RegularFile
        do { file = try RegularFile.open(path, what: "element-set file") } catch { throw ElementSetError(reason: error.description) }
        defer { file.close() }
        let maxBytes = source.maxBytes
        guard file.size <= maxBytes else { throw ElementSetError(reason: "\(path): \(file.size) bytes; at most \(maxBytes) are read") }
        var reader = source.reader(path: path, interrupt: interrupt)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        var head: [UInt8] = [], tail: [UInt8] = []
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(file.fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ElementSetError(reason: "\(path): cannot read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            total += n
            guard total <= maxBytes else { throw ElementSetError(reason: "\(path): grew past \(maxBytes) bytes while being read") }
            if head.count < Self.edgeBytes { head += buffer[0..<min(n, Self.edgeBytes - head.count)] }
            tail += buffer[max(0, n - Self.edgeBytes)..<n]
            if tail.count > Self.edgeBytes { tail.removeFirst(tail.count - Self.edgeBytes) }
            var failure: ElementSetError?
            buffer.withUnsafeBytes { raw in
                do throws(ElementSetError) { try reader.consume(UnsafeRawBufferPointer(rebasing: raw[0..<n])) } catch { failure = error }
            }
            if let failure { throw failure }
        }
        return Read(reader: reader, stamp: FileVersions.Stamp(file.status), count: total, head: head, tail: tail)
    }
}
