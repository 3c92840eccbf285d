#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// Process-level helpers for executables that run an `HTTPServer`.
public enum ServerProcess {
    /// Raises the soft open-file limit to the hard limit (10,000 idle connections need more than
    /// the usual 1,024). Returns the new soft limit.
    @discardableResult
    public static func raiseFileDescriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return -1 }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return Int(limit.rlim_cur)
    }

    /// Calls `handler` (on a global queue) when SIGTERM or SIGINT arrives; the default action
    /// of both is disabled. Keep the returned sources alive.
    public static func onTerminationSignal(_ handler: @escaping @Sendable (Int32) -> Void) -> [any DispatchSourceSignal] {
        [SIGTERM, SIGINT].map { sig in
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { handler(sig) }
            source.resume()
            return source
        }
    }
}
