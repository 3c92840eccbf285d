#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Ephemeris
import HTTP
import Logging
import Satellites
import Synchronization

/// Keeps a ``SatelliteFeed`` in step with the operator's element-set file (`--tle`): the file is
/// polled on a timer off the event loops and read when a new version has settled
/// (``FileVersions``: held still for a poll; if its last record looks cut short, held still for
/// the grace period); then it is parsed and the whole catalogue swapped in one step. Answers in
/// flight keep the catalogue they started with; none is dropped.
///
/// Every other outcome keeps the previous catalogue in service and says so once per version: a
/// file that disappears, is empty, is not a regular file (a FIFO is opened without blocking and
/// refused), cannot be read or yields no usable set. A failed cron download must not empty the
/// sky. ``stop()`` also stops a reading in progress (the server's shutdown does not wait for it).
public final class ElementSetWatcher: @unchecked Sendable {
    // @unchecked: `timer` is set once in `start` and cancelled in `stop`, both by the owner;
    // everything the timer's handler touches is under `versions`' lock, atomic or immutable.

    public let path: String
    let bundled: [(name: String, file: ElementSetFile)]
    let feed: SatelliteFeed
    let logger: Logger
    private let versions: Mutex<FileVersions>
    private let stopped = Atomic<Bool>(false)
    private var timer: DispatchSourceTimer?

    /// `bundled` are the sets served under the file's (the bundled ISS), outranked by it.
    public init(path: String, bundled: [(name: String, file: ElementSetFile)], feed: SatelliteFeed, logger: Logger,
                unfinishedGraceSeconds: Double = 30) {
        self.path = path
        self.bundled = bundled
        self.feed = feed
        self.logger = logger
        versions = Mutex(FileVersions(unfinishedGraceSeconds: unfinishedGraceSeconds))
    }

    /// The catalogue of `bundled` files and `file` (which outranks them), for start-up and reloads.
    public static func catalogue(bundled: [(name: String, file: ElementSetFile)], file: (name: String, file: ElementSetFile)?) -> SatelliteCatalogue {
        SatelliteCatalogue(files: bundled + (file.map { [$0] } ?? []), reservedNames: Set(BodyID.allCases.map(\.rawValue)))
    }

    /// Reads the file now and serves it; throws when it cannot be read or parsed as a whole
    /// (start-up stops there, naming the file). Bad records are logged and skipped; a file with no
    /// usable set is served (the bundled sets alone) with a warning.
    @discardableResult
    public func loadNow() throws(ElementSetError) -> SatelliteCatalogue {
        let (bytes, stamp) = try Self.readFile(path)
        let file = try Self.parse(bytes, path: path, interrupt: interrupt)
        let catalogue = Self.catalogue(bundled: bundled, file: (path, file))
        logProblems(catalogue)
        if file.entries.isEmpty {
            logger.warning(bytes.isEmpty ? "element sets: the file is empty; serving the bundled sets alone" : "element sets: the file holds no usable set; serving the bundled sets alone",
                           metadata: ["file": "\(path)"])
        }
        logLoaded(catalogue, reload: false)
        feed.replace(with: catalogue)
        versions.withLock { $0.handled(stamp) }
        return catalogue
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

    /// Asked by a reading every few hundred records.
    private var interrupt: Interrupt {
        Interrupt { [weak self] in (self?.stopped.load(ordering: .relaxed) ?? true) ? ElementSetError(reason: "the server is stopping") : nil }
    }

    /// One poll: reload when a new version has settled.
    func poll() {
        let now = FileVersions.now()
        let decision = versions.withLock { $0.observe(FileVersions.Stamp.of(path), now: now) }
        switch decision {
        case .wait:
            return
        case .gone:
            logger.warning("element sets: the file is gone; still serving the previous ones", metadata: ["file": "\(path)"])
            return
        case .read(let stamp):
            reload(stamp, now: now)
        }
    }

    private func reload(_ seen: FileVersions.Stamp, now: Double) {
        let bytes: [UInt8], stamp: FileVersions.Stamp
        do {
            (bytes, stamp) = try Self.readFile(path)
        } catch {
            versions.withLock { $0.handled(seen) }
            logger.warning("element sets: the changed file cannot be read; still serving the previous ones", metadata: ["file": "\(path)", "reason": "\(error.reason)"])
            return
        }
        guard stamp == seen else { return }  // changed again since the poll: the next poll sees it
        if bytes.isEmpty {
            versions.withLock { $0.handled(stamp) }
            logger.warning("element sets: the file is empty; still serving the previous ones", metadata: ["file": "\(path)"])
            return
        }
        if ElementSetFile.looksUnfinished(bytes), !versions.withLock({ $0.looksUnfinished(stamp, now: now) }) {
            logger.debug("element sets: the file looks unfinished (its last record is cut short); waiting for it", metadata: ["file": "\(path)"])
            return
        }
        let file: ElementSetFile
        do {
            file = try Self.parse(bytes, path: path, interrupt: interrupt)
        } catch {
            versions.withLock { $0.handled(stamp) }
            logger.warning("element sets: the changed file cannot be read; still serving the previous ones", metadata: ["file": "\(path)", "reason": "\(error.reason)"])
            return
        }
        guard !stopped.load(ordering: .relaxed) else { return }
        versions.withLock { $0.handled(stamp) }
        let catalogue = Self.catalogue(bundled: bundled, file: (path, file))
        logProblems(catalogue)
        guard !file.entries.isEmpty else {
            logger.warning("element sets: the changed file holds no usable set; still serving the previous ones",
                           metadata: ["file": "\(path)", "problems": .stringConvertible(file.problems.count)])
            return
        }
        logLoaded(catalogue, reload: true)
        feed.replace(with: catalogue)
        // What reading and parsing left behind (the file's bytes, the old catalogue once its last
        // answer is done) goes back to the system rather than staying with the allocator.
        ServerProcess.releaseFreedMemory()
    }

    func logProblems(_ catalogue: SatelliteCatalogue) {
        for (file, problem) in catalogue.problems.prefix(Self.loggedProblems) {
            var metadata: Logger.Metadata = ["file": "\(file)", "reason": "\(problem.reason)"]
            if let line = problem.line { metadata["line"] = .stringConvertible(line) }
            if let record = problem.record { metadata["record"] = .stringConvertible(record) }
            if let satellite = problem.satellite { metadata["satellite"] = "\(satellite)" }
            logger.warning("element set not used", metadata: metadata)
        }
        if catalogue.problems.count > Self.loggedProblems {
            logger.warning("element sets: more records not used", metadata: [
                "file": "\(path)", "notLogged": .stringConvertible(catalogue.problems.count - Self.loggedProblems),
            ])
        }
    }

    /// Bad records logged one by one per reading (a file of a million bad lines is summed up).
    static let loggedProblems = 100

    func logLoaded(_ catalogue: SatelliteCatalogue, reload: Bool) {
        let iss = catalogue.satellite(norad: SatelliteCatalogue.issNoradID)
        logger.info(reload ? "element sets reloaded" : "element sets loaded", metadata: [
            "file": "\(path)", "satellites": .stringConvertible(catalogue.satellites.count),
            "problems": .stringConvertible(catalogue.problems.count),
            "issEpoch": "\(iss.flatMap { try? TimeScale.utc(julianDay: $0.elements.epochJDUTC).iso8601 } ?? "none")",
        ])
    }

    static func parse(_ bytes: [UInt8], path: String, interrupt: Interrupt) throws(ElementSetError) -> ElementSetFile {
        do {
            return try ElementSetFile(bytes: bytes, interrupt: interrupt)
        } catch {
            var e = error
            e.reason = "\(path): \(e.reason)"
            throw e
        }
    }

    /// The file's bytes (at most ``ElementSetFile/maxBytes`` + 1: a larger file is refused by the
    /// parser, never read whole) and its stamp; a FIFO, device or directory is refused.
    static func readFile(_ path: String) throws(ElementSetError) -> ([UInt8], FileVersions.Stamp) {
        do {
            let file = try RegularFile.open(path, what: "element-set file")
            defer { file.close() }
            return (try file.read(limit: ElementSetFile.maxBytes + 1), FileVersions.Stamp(file.status))
        } catch {
            throw ElementSetError(reason: error.description)
        }
    }
}
