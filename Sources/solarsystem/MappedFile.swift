#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Ephemeris

/// A file mapped read-only (`PROT_READ`, `MAP_PRIVATE`) for the engine to read in place: only
/// the pages it touches become resident. Unmapped when the last reference goes.
final class MappedFile: KernelBytes, @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    let path: String
    /// Seconds since 1970 of the last modification (a kernel's identity is path, size, time).
    let modified: Double

    /// `kind` names the file in messages ("ephemeris kernel", "kernel").
    init(path: String, kind: String = "ephemeris kernel") throws(CLIError) {
        self.path = path
        func failure(_ what: String) -> CLIError {
            CLIError("\(kind) \(path): \(what): \(String(cString: strerror(errno)))")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("cannot open") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("cannot stat") }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw CLIError("\(kind) \(path): not a regular file") }
        let size = Int(info.st_size)
        guard size > 0 else { throw CLIError("\(kind) \(path): the file is empty") }
        modified = Double(info.st_mtim.tv_sec)
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { throw failure("cannot map") }
        bytes = UnsafeRawBufferPointer(start: base, count: size)
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}
