import Glibc

/// When to read a file the operator replaces while the server runs (`--tle`, the kernels): the
/// rules, without the clock or the disk, so they are tested as a table.
///
/// - A version (size, modification time, inode) is read once it has held still for one poll:
///   a file written in place is not read half way while the writer is busy.
/// - A version that was read (loaded or refused) is not read again until it changes.
/// - A version whose content looks unfinished (its last record cut short) is read again at
///   each poll while it holds still, and taken as it is only after ``unfinishedGraceSeconds``:
///   a writer that pauses mid-file (a slow download written in place) is waited for.
/// - A file that disappears is reported once (and again after it has come back and gone).
public struct FileVersions: Sendable {
    /// What identifies one version of a file.
    public struct Stamp: Sendable, Equatable {
        public var size: Int64
        public var modifiedSeconds: Int
        public var modifiedNanoseconds: Int
        public var inode: UInt64

        public init(size: Int64, modifiedSeconds: Int, modifiedNanoseconds: Int, inode: UInt64) {
            self.size = size
            self.modifiedSeconds = modifiedSeconds
            self.modifiedNanoseconds = modifiedNanoseconds
            self.inode = inode
        }

        /// The stamp of `path` (following symbolic links, as a Kubernetes ConfigMap swaps them),
        /// or nil when there is nothing there. `stat` never blocks, whatever the file is.
        public static func of(_ path: String) -> Stamp? {
            var st = stat()
            guard stat(path, &st) == 0 else { return nil }
            return Stamp(st)
        }

        public init(_ st: stat) {
            size = Int64(st.st_size)
            modifiedSeconds = Int(st.st_mtim.tv_sec)
            modifiedNanoseconds = Int(st.st_mtim.tv_nsec)
            inode = UInt64(st.st_ino)
        }
    }

    public enum Decision: Sendable, Equatable {
        /// Nothing to do.
        case wait
        /// Read this version now.
        case read(Stamp)
        /// The file disappeared (said once).
        case gone
    }

    /// A version that looked unfinished is taken as it is after holding still this long.
    public var unfinishedGraceSeconds: Double
    /// The version last read (loaded or refused).
    public private(set) var handled: Stamp?
    private var lastSeen: Stamp?
    private var goneReported = false
    /// The version that looked unfinished, and since when it has.
    private var unfinished: (stamp: Stamp, since: Double)?

    public init(handled: Stamp? = nil, unfinishedGraceSeconds: Double = 30) {
        self.handled = handled
        lastSeen = handled
        self.unfinishedGraceSeconds = unfinishedGraceSeconds
    }

    /// One poll: what the file looks like now (`nil`: nothing there) at `now` seconds.
    public mutating func observe(_ stamp: Stamp?, now: Double) -> Decision {
        guard let stamp else {
            lastSeen = nil
            defer { goneReported = true }
            return goneReported ? .wait : .gone
        }
        goneReported = false
        defer { lastSeen = stamp }
        guard stamp != handled, stamp == lastSeen else { return .wait }
        return .read(stamp)
    }

    /// The version read looked unfinished: true when it should be taken anyway (it has held
    /// still for the grace period), false to wait (it will be read again at the next poll).
    public mutating func looksUnfinished(_ stamp: Stamp, now: Double) -> Bool {
        if let u = unfinished, u.stamp == stamp { return now - u.since >= unfinishedGraceSeconds }
        unfinished = (stamp, now)
        return unfinishedGraceSeconds <= 0
    }

    /// The version was read: loaded, or refused (it is not read again until it changes).
    public mutating func handled(_ stamp: Stamp) {
        handled = stamp
        unfinished = nil
    }
}

extension FileVersions {
    /// Seconds on the monotonic clock, for the grace periods of a watcher's polls.
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
