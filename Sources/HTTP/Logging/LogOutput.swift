#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where log lines go: a file descriptor (stdout by default) or memory (tests). Each line is
/// written with one `write` under a lock, so lines from different threads never interleave.
public final class LogOutput: @unchecked Sendable {
    private let lock = Lock()
    private let fd: Int32?
    private var captured: [String] = []

    public init(fileDescriptor: Int32) { fd = fileDescriptor }
    private init(memory: Void) { fd = nil }

    public static let standardOutput = LogOutput(fileDescriptor: 1)
    public static let standardError = LogOutput(fileDescriptor: 2)
    /// Keeps lines in memory (`lines`), for tests.
    public static func memory() -> LogOutput { LogOutput(memory: ()) }

    /// Lines captured by a memory output.
    public var lines: [String] { lock.withLock { captured } }

    func write(line: [UInt8]) {
        lock.withLock {
            guard let fd else {
                captured.append(String(decoding: line.last == 0x0A ? line.dropLast() : line[...], as: UTF8.self))
                return
            }
            line.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
                    if n > 0 { offset += n } else if n < 0, errno == EINTR { continue } else { break }
                }
            }
        }
    }
}

@inline(__always)
func systemWrite(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, p, n)
    #else
    return Darwin.write(fd, p, n)
    #endif
}
