import Dispatch
import Logging
import SolarSystemAPI
import Synchronization

/// Follows the kernel files `serve` loaded (the DE kernel, the missions' and the `--kernel`
/// files) the way the element sets are followed: each polled off the event loops
/// (``FileVersions``: a new version is taken once it has held still for a poll), and when one has
/// changed, every kernel is loaded again — each copied privately and checked whole
/// (``KernelFile``, `SPKKernel.checkData`), the missions checked against them — and only then
/// swapped in (`reload`). A file that cannot be used (gone, a FIFO, cut short, damaged, no longer
/// covering a mission) leaves the kernels in service as they are, with a warning: the server
/// serves from its private copies whatever happens to the files.
final class KernelWatcher: @unchecked Sendable {
    // @unchecked: `timer` is set once in `start` and cancelled in `stop`, both by the owner;
    // the handler touches only `versions` (under its lock) and immutable values.

    let logger: Logger
    /// Loads every kernel again and swaps the services; throws why it could not.
    let reload: @Sendable () throws -> Void
    private let versions: Mutex<[(path: String, versions: FileVersions)]>
    private var timer: DispatchSourceTimer?

    /// `files`: each kernel file and the version of it loaded.
    init(files: [(path: String, stamp: FileVersions.Stamp)], logger: Logger, reload: @escaping @Sendable () throws -> Void) {
        var seen: [(String, FileVersions)] = []
        for (path, stamp) in files where !seen.contains(where: { $0.0 == path }) {
            seen.append((path, FileVersions(handled: stamp, unfinishedGraceSeconds: 0)))
        }
        versions = Mutex(seen)
        self.logger = logger
        self.reload = reload
    }

    func start(intervalSeconds: Double, queue: DispatchQueue = DispatchQueue(label: "kernel-watcher", qos: .utility)) {
        let t = DispatchSource.makeTimerSource(queue: queue)
        t.schedule(deadline: .now() + intervalSeconds, repeating: intervalSeconds, leeway: .milliseconds(100))
        t.setEventHandler { [weak self] in self?.poll() }
        timer = t
        t.resume()
    }

    func stop() {
        timer?.cancel()
        timer = nil
    }

    /// One poll: when a file has a new settled version, load every kernel again.
    func poll() {
        let now = FileVersions.now()
        var changed: [(String, FileVersions.Stamp)] = []
        var gone: [String] = []
        versions.withLock { list in
            for i in list.indices {
                switch list[i].versions.observe(FileVersions.Stamp.of(list[i].path), now: now) {
                case .wait: break
                case .gone: gone.append(list[i].path)
                case .read(let stamp): changed.append((list[i].path, stamp))
                }
            }
        }
        for path in gone {
            logger.warning("kernels: a kernel file is gone; still serving the copy loaded before", metadata: ["file": "\(path)"])
        }
        guard !changed.isEmpty else { return }
        do {
            try reload()
            logger.info("kernels reloaded", metadata: ["changed": "\(changed.map(\.0).joined(separator: ":"))"])
        } catch {
            logger.warning("kernels: the changed files cannot be used; still serving the kernels loaded before", metadata: [
                "changed": "\(changed.map(\.0).joined(separator: ":"))", "reason": "\(error)",
            ])
        }
        // Loaded or refused, these versions are done with: the next change is read again.
        versions.withLock { list in
            for (path, stamp) in changed { if let i = list.firstIndex(where: { $0.path == path }) { list[i].versions.handled(stamp) } }
        }
    }
}
