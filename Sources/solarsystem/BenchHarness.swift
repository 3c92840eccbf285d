import Dispatch
import Glibc

/// The one timing harness of `solarsystem bench …`: every command times its work through
/// `Bench.run`, `Bench.Samples.time` or `Bench.time`, so the clocks are read, and the median
/// taken, in one place.
///
///     let views = Bench.run(batches) { _ in for t in instants { sink += view(t) } }.perOperation(instants.count)
///     print(views.median.wallNs / 1000, views.min.wallNs / 1000, views.median.cpuNs / 1000)
enum Bench {
    /// One timed run: wall nanoseconds, and this thread's CPU nanoseconds beside them (on a
    /// shared machine the wall time also counts what other processes held the core for).
    struct Time {
        var wallNs: Double
        var cpuNs: Double
    }

    /// The runs of one measurement, wall and CPU each kept sorted (independently: the median
    /// wall time and the median CPU time need not be the same run's).
    struct Samples {
        private(set) var wallNs: [Double] = []
        private(set) var cpuNs: [Double] = []

        var count: Int { wallNs.count }

        /// Times `body` once, adds the sample and returns what `body` returned; work outside the
        /// closure (a fresh model, a cleared cache) stays outside the timed region.
        @discardableResult
        mutating func time<T>(_ body: () throws -> T) rethrows -> T {
            let (value, t) = try Bench.time(body)
            add(t)
            return value
        }

        mutating func add(_ t: Time) {
            wallNs.insert(t.wallNs, at: wallNs.firstIndex { $0 > t.wallNs } ?? wallNs.endIndex)
            cpuNs.insert(t.cpuNs, at: cpuNs.firstIndex { $0 > t.cpuNs } ?? cpuNs.endIndex)
        }

        /// The sample at fraction `p` of the sorted runs, `sorted[Int(count × p)]`: 0.5 is the
        /// median (the upper middle one of an even count, as the benches always reported).
        func percentile(_ p: Double) -> Time {
            precondition(count > 0, "no samples")
            let i = Swift.min(count - 1, Int(Double(count) * p))
            return Time(wallNs: wallNs[i], cpuNs: cpuNs[i])
        }

        var median: Time { percentile(0.5) }
        var min: Time { percentile(0) }
        var max: Time { percentile(1) }

        /// The median with an even count's two middle samples averaged: what `bench trajectory`
        /// has always printed (the other benches take the upper one, `median`).
        var midpointMedian: Time {
            guard count % 2 == 0 else { return median }
            let i = count / 2
            return Time(wallNs: (wallNs[i - 1] + wallNs[i]) / 2, cpuNs: (cpuNs[i - 1] + cpuNs[i]) / 2)
        }

        /// Every sample divided by `operations`: a batch's time per call.
        func perOperation(_ operations: Int) -> Samples {
            let n = Double(operations)
            return Samples(wallNs: wallNs.map { $0 / n }, cpuNs: cpuNs.map { $0 / n })
        }
    }

    /// Runs `body` `warmUp` times untimed, then `runs` times timed (`body` gets the run's index,
    /// counting the warm-up runs first).
    static func run(_ runs: Int, warmUp: Int = 0, _ body: (Int) throws -> Void) rethrows -> Samples {
        for k in 0..<warmUp { try body(k) }
        var samples = Samples()
        for k in warmUp..<(warmUp + runs) { try samples.time { try body(k) } }
        return samples
    }

    /// One timed run of `body`, and what it returned. The CPU clock is read outside the wall
    /// clock's window: on Linux it is a system call, the wall clock is not.
    static func time<T>(_ body: () throws -> T) rethrows -> (value: T, time: Time) {
        let c0 = threadCPUNanoseconds()
        let t0 = DispatchTime.now().uptimeNanoseconds
        let value = try body()
        let t1 = DispatchTime.now().uptimeNanoseconds
        let c1 = threadCPUNanoseconds()
        return (value, Time(wallNs: Double(t1 - t0), cpuNs: c1 - c0))
    }

    /// The calling thread's CPU time, nanoseconds.
    static func threadCPUNanoseconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) * 1e9 + Double(ts.tv_nsec)
    }

    /// The line a debug build prints before its figures (which mean little there).
    static func warnIfDebug(_ command: String) {
        #if DEBUG
        print("warning: debug build; run `swift run -c release solarsystem bench \(command)` for real figures")
        #endif
    }
}
