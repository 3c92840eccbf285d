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

    init(path: String) throws(CLIError) {
        self.path = path
        func failure(_ what: String) -> CLIError {
            CLIError("ephemeris kernel \(path): \(what): \(String(cString: strerror(errno)))")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("cannot open") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("cannot stat") }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw CLIError("ephemeris kernel \(path): not a regular file") }
        let size = Int(info.st_size)
        guard size > 0 else { throw CLIError("ephemeris kernel \(path): the file is empty") }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { throw failure("cannot map") }
        bytes = UnsafeRawBufferPointer(start: base, count: size)
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}
