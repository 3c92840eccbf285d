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

/// Keeps a served catalogue in step with an operator's element file — `--tle` (satellites,
/// ``SatelliteElementSource``) or `--elements` (asteroids and comets, ``SmallBodyElementSource``):
/// the file's size, modification time and inode are polled on a timer off the event loops; when
/// they change and then hold still for one more poll (so a file being written in place is not
/// read half way), the file is read (in chunks, handed to the source), parsed and the whole
/// catalogue swapped in one step. Answers in flight keep the catalogue they started with; none
/// is dropped.
///
/// A file that cannot be read, or that yields no usable record, leaves the previous catalogue in
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
    /// What the file's bytes mean and where they are served.
    let source: any WatchedElementSource
    let logger: Logger
    private let state = Mutex(State())
    private var timer: DispatchSourceTimer?

    public init(path: String, source: any WatchedElementSource, logger: Logger) {
        self.path = path
        self.source = source
        self.logger = logger
    }

    /// The `--tle` watcher: `bundled` are the sets served under the file's (the bundled ISS),
    /// outranked by it.
    public convenience init(path: String, bundled: [(name: String, file: ElementSetFile)], feed: SatelliteFeed, logger: Logger) {
        self.init(path: path, source: SatelliteElementSource(bundled: bundled, feed: feed, logger: logger), logger: logger)
    }

    /// The catalogue of `bundled` files and `file` (which outranks them), for start-up and reloads.
    public static func catalogue(bundled: [(name: String, file: ElementSetFile)], file: (name: String, file: ElementSetFile)?) -> SatelliteCatalogue {
        SatelliteElementSource.catalogue(bundled: bundled, file: file)
    }

    /// Reads the file now and serves it; throws when it cannot be read or parsed as a whole
    /// (start-up stops there, naming the file). Bad records are logged and skipped.
    public func loadNow() throws(ElementSetError) {
        let stamp = try load(reload: false).stamp
        state.withLock { $0.loaded = stamp; $0.lastSeen = stamp }
    }

    /// Reads the file through the source's reader; `served` is false when a reload held no
    /// usable record.
    func load(reload: Bool) throws(ElementSetError) -> (stamp: FileStamp, served: Bool) {
        var reader = source.reader(path: path)
        let stamp = try Self.readFile(path, maxBytes: source.maxBytes) { (chunk) throws(ElementSetError) in try reader.consume(chunk) }
        return (stamp, try reader.finish(reload: reload))
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
            let (stamp, served) = try load(reload: true)
            state.withLock { $0.loaded = stamp; $0.lastSeen = stamp }
            if !served {
                logger.warning("element sets: the changed file holds no usable set; still serving the previous ones", metadata: ["file": "\(path)"])
            }
        } catch {
            state.withLock { $0.loaded = now }
            logger.warning("element sets: the changed file cannot be read; still serving the previous ones", metadata: ["file": "\(path)", "reason": "\(error.reason)"])
        }
    }

    static func stamp(_ path: String) -> FileStamp? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return FileStamp(st)
    }

    /// Reads the file in chunks of at most 1 MiB into `chunk` (nothing beyond `maxBytes`: a
    /// larger file is refused, never read whole) and returns its stamp.
    static func readFile(_ path: String, maxBytes: Int, chunk: (UnsafeRawBufferPointer) throws(ElementSetError) -> Void) throws(ElementSetError) -> FileStamp {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ElementSetError(reason: "\(path): cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw ElementSetError(reason: "\(path): cannot stat: \(String(cString: strerror(errno)))") }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw ElementSetError(reason: "\(path): not a regular file") }
        guard Int(st.st_size) <= maxBytes else { throw ElementSetError(reason: "\(path): \(st.st_size) bytes; at most \(maxBytes) are read") }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ElementSetError(reason: "\(path): cannot read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            total += n
            guard total <= maxBytes else { throw ElementSetError(reason: "\(path): grew past \(maxBytes) bytes while being read") }
            var failure: ElementSetError?
            buffer.withUnsafeBytes { raw in
                do throws(ElementSetError) { try chunk(UnsafeRawBufferPointer(rebasing: raw[0..<n])) } catch { failure = error }
            }
            if let failure { throw failure }
        }
        return FileStamp(st)
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
