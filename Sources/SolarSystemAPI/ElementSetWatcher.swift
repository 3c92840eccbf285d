#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Ephemeris
import Logging
import Satellites
import Synchronization

/// Keeps a ``SatelliteFeed`` in step with the operator's element-set file (`--tle`): the file's
/// size, modification time and inode are polled on a timer off the event loops; when they change
/// and then hold still for one more poll (so a file being written in place is not read half
/// way), the file is read, parsed and the whole catalogue swapped in one step. Answers in flight
/// keep the catalogue they started with; none is dropped.
///
/// A file that cannot be read, or that yields no usable set, leaves the previous catalogue in
/// service (with a warning): a failed cron download must not empty the sky.
public final class ElementSetWatcher: @unchecked Sendable {
    // @unchecked: `timer` is set once in `start` and cancelled in `stop`, both by the owner;
    // everything the timer's handler touches is under `state`'s lock or immutable.

    /// What identifies one version of the file.
    public struct FileStamp: Sendable, Equatable {
        var size: Int64, modifiedSeconds: Int, modifiedNanoseconds: Int, inode: UInt64
    }

    struct State: Sendable {
        var loaded: FileStamp?
        var lastSeen: FileStamp?
    }

    public let path: String
    let bundled: [(name: String, file: ElementSetFile)]
    let feed: SatelliteFeed
    let reservedNames: Set<String>
    let logger: Logger
    private let state = Mutex(State())
    private var timer: DispatchSourceTimer?

    /// `bundled` are the sets served under the file's (the bundled ISS), outranked by it.
    public init(path: String, bundled: [(name: String, file: ElementSetFile)], feed: SatelliteFeed, logger: Logger) {
        self.path = path
        self.bundled = bundled
        self.feed = feed
        self.logger = logger
        reservedNames = Set(BodyID.allCases.map(\.rawValue))
    }

    /// The catalogue of `bundled` files and `file` (which outranks them), for start-up and reloads.
    public static func catalogue(bundled: [(name: String, file: ElementSetFile)], file: (name: String, file: ElementSetFile)?) -> SatelliteCatalogue {
        SatelliteCatalogue(files: bundled + (file.map { [$0] } ?? []), reservedNames: Set(BodyID.allCases.map(\.rawValue)))
    }

    /// Reads the file now and serves it; throws when it cannot be read or parsed as a whole
    /// (start-up stops there, naming the file). Bad records are logged and skipped.
    @discardableResult
    public func loadNow() throws(ElementSetError) -> SatelliteCatalogue {
        let (bytes, stamp) = try Self.readFile(path)
        let file = try Self.parse(bytes, path: path)
        let catalogue = Self.catalogue(bundled: bundled, file: (path, file))
        log(catalogue, reload: false)
        feed.replace(with: catalogue)
        state.withLock { $0.loaded = stamp; $0.lastSeen = stamp }
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

    public func stop() {
        timer?.cancel()
        timer = nil
    }

    /// One poll: reload when the file changed and has held still since the previous poll.
    func poll() {
        let now = Self.stamp(path)
        let action: Bool = state.withLock { s in
            defer { s.lastSeen = now }
            guard let now, now != s.loaded else { return false }
            return now == s.lastSeen
        }
        guard action else { return }
        do {
            let (bytes, stamp) = try Self.readFile(path)
            let file = try Self.parse(bytes, path: path)
            let catalogue = Self.catalogue(bundled: bundled, file: (path, file))
            state.withLock { $0.loaded = stamp; $0.lastSeen = stamp }
            guard !file.entries.isEmpty else {
                logger.warning("element sets: the changed file holds no usable set; still serving the previous ones", metadata: ["file": "\(path)"])
                log(catalogue, reload: true)
                return
            }
            log(catalogue, reload: true)
            feed.replace(with: catalogue)
        } catch {
            state.withLock { $0.loaded = now }
            logger.warning("element sets: the changed file cannot be read; still serving the previous ones", metadata: ["file": "\(path)", "reason": "\(error.reason)"])
        }
    }

    func log(_ catalogue: SatelliteCatalogue, reload: Bool) {
        for (file, problem) in catalogue.problems {
            var metadata: Logger.Metadata = ["file": "\(file)", "reason": "\(problem.reason)"]
            if let line = problem.line { metadata["line"] = .stringConvertible(line) }
            if let record = problem.record { metadata["record"] = .stringConvertible(record) }
            if let satellite = problem.satellite { metadata["satellite"] = "\(satellite)" }
            logger.warning("element set not used", metadata: metadata)
        }
        let iss = catalogue.satellite(norad: SatelliteCatalogue.issNoradID)
        logger.info(reload ? "element sets reloaded" : "element sets loaded", metadata: [
            "file": "\(path)", "satellites": .stringConvertible(catalogue.satellites.count),
            "problems": .stringConvertible(catalogue.problems.count),
            "issEpoch": "\(iss.flatMap { try? TimeScale.utc(julianDay: $0.elements.epochJDUTC).iso8601 } ?? "none")",
        ])
    }

    static func parse(_ bytes: [UInt8], path: String) throws(ElementSetError) -> ElementSetFile {
        do {
            return try ElementSetFile(bytes: bytes)
        } catch {
            var e = error
            e.reason = "\(path): \(e.reason)"
            throw e
        }
    }

    static func stamp(_ path: String) -> FileStamp? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return FileStamp(st)
    }

    /// The file's bytes (at most ``ElementSetFile/maxBytes`` + 1: a larger file is refused by the
    /// parser, never read whole) and its stamp.
    static func readFile(_ path: String) throws(ElementSetError) -> ([UInt8], FileStamp) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ElementSetError(reason: "\(path): cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw ElementSetError(reason: "\(path): cannot stat: \(String(cString: strerror(errno)))") }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw ElementSetError(reason: "\(path): not a regular file") }
        let limit = ElementSetFile.maxBytes + 1
        var bytes = [UInt8](repeating: 0, count: min(limit, Int(st.st_size) + 1))
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ElementSetError(reason: "\(path): cannot read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            count += n
            if count == bytes.count && count < limit { bytes.append(contentsOf: repeatElement(0, count: min(limit - count, 1 << 16))) }
        }
        bytes.removeSubrange(count...)
        return (bytes, FileStamp(st))
    }
}

extension ElementSetWatcher.FileStamp {
    init(_ st: stat) {
        size = Int64(st.st_size)
        modifiedSeconds = Int(st.st_mtim.tv_sec)
        modifiedNanoseconds = Int(st.st_mtim.tv_nsec)
        inode = UInt64(st.st_ino)
    }
}
