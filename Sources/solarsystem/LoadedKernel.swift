import Glibc
import Dispatch
import Ephemeris
import Logging
import Zlib

/// The DE kernel a command runs with: its private copy, checked, and (for the start-up line)
/// its CRC-32.
///
/// The checksum is of the copy the engine reads (not of the file, which may have changed since),
/// read through the copy's mapping and then released (resident memory stays at what the engine
/// reads); `serve` starts it on a background queue when it opens the kernel, so start-up waits
/// only for whatever remains of it when the start-up line is written.
struct LoadedKernel {
    let kernel: PlanetaryKernel
    let file: KernelFile
    var path: String { file.path }
    private let checksum: KernelChecksum?

    init(kernel: PlanetaryKernel, file: KernelFile, checksumInBackground: Bool) {
        self.kernel = kernel
        self.file = file
        checksum = checksumInBackground ? KernelChecksum(file) : nil
    }

    /// The copy's CRC-32 as eight hex digits (from the background computation when started).
    var crc32: String { checksum?.value() ?? KernelChecksum.crc32(file) }

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

/// CRC-32 (zlib's, ISO 3309) of a whole kernel copy, computed once on a background queue.
final class KernelChecksum: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result = ""

    init(_ file: KernelFile) {
        DispatchQueue.global(qos: .utility).async { [self] in
            result = Self.crc32(file)
            done.signal()
        }
    }

    /// Eight hex digits, or why the file could not be read; waits for the computation.
    func value() -> String {
        done.wait()
        done.signal()
        return result
    }

    static func crc32(_ file: KernelFile) -> String {
        let crc = CRC32.update(0, file.bytes)
        file.releaseResidentPages()
        let hex = String(crc, radix: 16)
        return String(repeating: "0", count: max(0, 8 - hex.count)) + hex
    }
}
