import Glibc
import Ephemeris
import SolarSystemAPI

/// A kernel's bytes as this process holds them: a private copy of the file, mapped read-only,
/// so that nothing done to the file afterwards — truncated, overwritten in place by `cp`,
/// replaced — can change what the engine reads or kill the process with SIGBUS (a mapping of
/// the operator's file would do both).
///
/// The copy is an unnamed temporary file (`O_TMPFILE`: it has no name anyone could open, and
/// it disappears when the mapping does) in the first scratch directory that takes one — `$TMPDIR`
/// or `/tmp`, then the database's directory (the writable volume under a read-only root
/// filesystem) — filled by `sendfile` inside the kernel, and mapped: only the pages the engine
/// touches become resident, as with the file itself. Where no directory takes one, a kernel of
/// up to ``maxInMemoryBytes`` is copied into anonymous memory (resident whole); a larger one is
/// refused, naming the directories tried.
///
/// The file is opened without blocking and must be a regular file (a FIFO is refused at once);
/// it must not change while it is copied (size, modification time and inode are compared before
/// and after; one retry).
final class KernelFile: KernelBytes, @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    let path: String
    /// The version of the file that was copied.
    let stamp: FileVersions.Stamp
    /// Seconds since 1970 of the last modification (a kernel's identity is path, size, time).
    var modified: Double { Double(stamp.modifiedSeconds) }
    /// Where the copy is: a scratch directory, or "memory".
    let copyLocation: String

    /// Directories tried, in order, for the private copies (set by `serve` before loading).
    nonisolated(unsafe) static var scratchDirectories: [String] = defaultScratchDirectories()
    /// The largest kernel copied into memory when no scratch directory takes a copy.
    static let maxInMemoryBytes = 256 << 20
    /// Linux's `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`), which Glibc's Swift module does not export.
    static let openTemporaryFile: Int32 = 0o20000000 | O_DIRECTORY

    static func defaultScratchDirectories() -> [String] {
        var dirs: [String] = []
        if let t = getenv("TMPDIR").map({ String(cString: $0) }), !t.isEmpty { dirs.append(t) }
        for d in ["/tmp", "/var/tmp"] where !dirs.contains(d) { dirs.append(d) }
        return dirs
    }

    /// `kind` names the file in messages ("ephemeris kernel", "kernel").
    init(path: String, kind: String = "ephemeris kernel") throws(CLIError) {
        self.path = path
        var lastFailure = ""
        for _ in 0..<2 {
            let source: RegularFile
            do { source = try RegularFile.open(path, what: kind) } catch { throw CLIError("\(kind) \(error)") }
            defer { source.close() }
            guard source.size > 0 else { throw CLIError("\(kind) \(path): the file is empty") }
            let before = FileVersions.Stamp(source.status)
            let copy: (UnsafeRawBufferPointer, String)
            do { copy = try Self.copy(source, size: source.size) } catch { throw CLIError("\(kind) \(path): \(error.description)") }
            var st = stat()
            if fstat(source.fd, &st) == 0, FileVersions.Stamp(st) == before, FileVersions.Stamp.of(path) == before {
                bytes = copy.0
                copyLocation = copy.1
                stamp = before
                return
            }
            Self.unmap(copy.0)
            lastFailure = "the file changed while it was being read"
        }
        throw CLIError("\(kind) \(path): \(lastFailure); write kernels elsewhere and rename them into place")
    }

    deinit { Self.unmap(bytes) }

    static func unmap(_ bytes: UnsafeRawBufferPointer) {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }

    struct CopyFailure: Error { let description: String }

    /// The file's bytes in a private copy: a scratch directory's unnamed file, else memory.
    static func copy(_ source: RegularFile, size: Int) throws(CopyFailure) -> (UnsafeRawBufferPointer, String) {
        var tried: [String] = []
        for dir in scratchDirectories {
            let fd = open(dir, openTemporaryFile | O_RDWR | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                tried.append("\(dir) (\(String(cString: strerror(errno))))")
                continue
            }
            defer { close(fd) }
            var offset: off_t = 0
            var ok = true
            while offset < off_t(size) {
                let n = sendfile(fd, source.fd, &offset, min(size - Int(offset), 1 << 30))
                if n < 0, errno == EINTR { continue }
                if n <= 0 { ok = false; break }
            }
            guard ok else {
                tried.append("\(dir) (copy failed: \(offset == off_t(size) ? "" : "\(offset) of \(size) bytes, ")\(String(cString: strerror(errno))))")
                continue
            }
            guard let base = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), base != MAP_FAILED else {
                tried.append("\(dir) (cannot map the copy: \(String(cString: strerror(errno))))")
                continue
            }
            return (UnsafeRawBufferPointer(start: base, count: size), dir)
        }
        guard size <= maxInMemoryBytes else {
            throw CopyFailure(description: "no scratch directory takes a private copy (tried \(tried.joined(separator: ", "))) and the file is larger than the \(maxInMemoryBytes >> 20) MiB copied into memory; give a writable TMPDIR")
        }
        guard let base = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), base != MAP_FAILED else {
            throw CopyFailure(description: "cannot allocate \(size) bytes for a copy: \(String(cString: strerror(errno)))")
        }
        var done = 0
        while done < size {
            let n = pread(source.fd, base + done, size - done, off_t(done))
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                munmap(base, size)
                throw CopyFailure(description: n == 0 ? "the file ended at \(done) of \(size) bytes" : "cannot read: \(String(cString: strerror(errno)))")
            }
            done += n
        }
        mprotect(base, size, PROT_READ)
        return (UnsafeRawBufferPointer(start: base, count: size), "memory")
    }

    /// Drops the pages a full read of the copy made resident (the data check reads every page;
    /// the engine then reads only what it needs, from the page cache).
    func releaseResidentPages() {
        guard copyLocation != "memory", let base = bytes.baseAddress else { return }
        madvise(UnsafeMutableRawPointer(mutating: base), bytes.count, MADV_DONTNEED)
    }
}
