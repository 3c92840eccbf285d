#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Ephemeris
import Logging
import Zlib

/// The DE kernel a command runs with: mapped, checked, and (for the start-up line) its CRC-32.
///
/// The checksum reads the file with `pread` into a small buffer, so it never touches the
/// mapping's pages (resident memory stays at what the engine reads); `serve` starts it on a
/// background queue when it opens the kernel, so start-up waits only for whatever remains of it
/// when the start-up line is written.
struct LoadedKernel {
    let kernel: PlanetaryKernel
    let path: String
    private let checksum: KernelChecksum?

    init(kernel: PlanetaryKernel, path: String, checksumInBackground: Bool) {
        self.kernel = kernel
        self.path = path
        checksum = checksumInBackground ? KernelChecksum(path: path) : nil
    }

    /// The file's CRC-32 as eight hex digits (from the background computation when started).
    var crc32: String { checksum?.value() ?? KernelChecksum.crc32(path: path) }

    /// What cached results computed from this kernel are keyed by: its label, span, path and
    /// size (cheap: no checksum to wait for).
    var identity: String {
        var st = stat()
        let size = stat(path, &st) == 0 ? Int64(st.st_size) : 0
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return "\(kernel.label) \(kernel.spanJDTDB.lowerBound)-\(kernel.spanJDTDB.upperBound) \(name) \(size)"
    }

    /// What the start-up line says about the kernel: label, file, span, size, CRC-32.
    var startupMetadata: Logger.Metadata {
        let span = kernel.spanJDTDB
        func day(_ jd: Double) -> String { String(CivilDateTime(julianDay: jd).iso8601.prefix(10)) }
        return [
            "ephemeris": "\(kernel.label)", "ephemerisFile": "\(path)",
            "ephemerisSpan": "\(day(span.lowerBound))..\(day(span.upperBound)) TDB (JD \(span.lowerBound)..\(span.upperBound))",
            "ephemerisBytes": .stringConvertible(kernel.spk.byteCount),
            "ephemerisCRC32": "\(crc32)",
        ]
    }

    /// The start-up metadata of an optional kernel (`--ephemeris none`).
    static func startupMetadata(_ kernel: LoadedKernel?) -> Logger.Metadata {
        kernel?.startupMetadata ?? ["ephemeris": "none (analytical theories only)"]
    }
}

/// CRC-32 (zlib's, ISO 3309) of a whole file, computed once on a background queue.
final class KernelChecksum: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result = ""

    init(path: String) {
        DispatchQueue.global(qos: .utility).async { [self] in
            result = Self.crc32(path: path)
            done.signal()
        }
    }

    /// Eight hex digits, or why the file could not be read; waits for the computation.
    func value() -> String {
        done.wait()
        done.signal()
        return result
    }

    static func crc32(path: String) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "unreadable: \(String(cString: strerror(errno)))" }
        defer { close(fd) }
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var crc: UInt32 = 0
        var offset: off_t = 0
        while true {
            let n = pread(fd, buffer, chunk, offset)
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { return "unreadable: \(String(cString: strerror(errno)))" }
            if n == 0 { break }
            crc = CRC32.update(crc, UnsafeRawBufferPointer(start: buffer, count: n))
            offset += off_t(n)
        }
        let hex = String(crc, radix: 16)
        return String(repeating: "0", count: max(0, 8 - hex.count)) + hex
    }
}
