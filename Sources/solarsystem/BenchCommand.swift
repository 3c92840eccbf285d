import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmarks (release builds only give meaningful figures).",
        subcommands: [SnapshotBenchCommand.self, SkyBenchCommand.self, EclipseBenchCommand.self, TrajectoryBenchCommand.self, TelemetryBenchCommand.self, RenderBenchCommand.self, PropagatorBenchCommand.self, SatelliteBenchCommand.self, SmallBodyBenchCommand.self, HorizonsBenchCommand.self, ElementSetBenchCommand.self, HTTPFixtureCommand.self]
    )
}

extension BenchCommand {
    /// The calling thread's CPU time, nanoseconds: beside the wall time on a shared machine, the
    /// wall time also counts what other processes held the core for.
    static func threadCPUNanoseconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) * 1e9 + Double(ts.tv_nsec)
    }
}
