import Glibc

/// Opening the operator's files so that nothing on the disk can hang the server: every file is
/// opened with `O_NONBLOCK` (a FIFO opens at once instead of waiting for a writer, for ever),
/// then must be a regular file (a FIFO, a device, a socket or a directory is refused with a
/// message saying so), and is read to a limit, never beyond it.
///
/// ```swift
/// let file = try RegularFile.open("/srv/tle/stations.tle", what: "element sets")
/// defer { file.close() }
/// let bytes = try file.read(limit: ElementSetFile.maxBytes + 1)
/// ```
public struct RegularFile: Sendable {
    /// Why a file could not be opened or read: the message names the file.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason)" }
    }

    public let fd: Int32
    public let path: String
    /// The file's status when it was opened.
    public let status: stat

    /// Opens `path` for reading; `what` names the file in messages (`"kernel"`).
    public static func open(_ path: String, what: String = "file") throws(Failure) -> RegularFile {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(path: path, reason: "cannot open the \(what): \(String(cString: strerror(errno)))") }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw Failure(path: path, reason: "cannot stat the \(what): \(reason)")
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            Glibc.close(fd)
            throw Failure(path: path, reason: "the \(what) is \(Self.kind(st.st_mode)), not a regular file; give a regular file (write it elsewhere and rename it into place)")
        }
        return RegularFile(fd: fd, path: path, status: st)
    }

    public func close() { Glibc.close(fd) }

    public var size: Int { Int(status.st_size) }

    /// The whole file, or its first `limit` bytes when it is longer (a caller that refuses large
    /// files reads `limit + 1` and checks).
    public func read(limit: Int) throws(Failure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: min(limit, max(0, size) + 1))
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(path: path, reason: "cannot read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            count += n
            // The file grew while read: go on, to the limit.
            if count == bytes.count, count < limit { bytes.append(contentsOf: repeatElement(0, count: min(limit - count, 1 << 16))) }
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// The whole of `path`, at most `limit` bytes (more is an error naming the limit).
    public static func contents(_ path: String, what: String = "file", limit: Int) throws(Failure) -> [UInt8] {
        let file = try open(path, what: what)
        defer { file.close() }
        let bytes = try file.read(limit: limit + 1)
        guard bytes.count <= limit else { throw Failure(path: path, reason: "the \(what) has more than \(limit) bytes") }
        return bytes
    }

    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }
}
