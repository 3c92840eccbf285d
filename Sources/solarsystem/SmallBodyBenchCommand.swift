import ArgumentParser
import Dispatch
import Ephemeris
import Foundation
import SmallBodies
import SolarSystemAPI
import Synchronization

/// `solarsystem bench smallbodies`: the median time of a small body's position 20 years from
/// its element epoch cold (a new propagator: the body and the perturbing asteroids integrated
/// from their elements; budget ≤ 50 ms) and warm (read from the integrated path; budget ≤ 20 µs),
/// and, with `--mpcorb FILE`, loading an MPCORB file the way `--elements` does (1 MiB chunks;
/// budget for 1,000,000 lines ≤ 5 s, ≤ 300 MB) and reloading it while another thread keeps
/// looking bodies up (the longest lookup is what a request would wait).
struct SmallBodyBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "smallbodies",
        abstract: "Median time of a small body's position 20 years out (cold, warm) and of loading a large MPCORB file."
    )

    @Option(help: "Cold runs to time; the median is reported.")
    var runs: Int = 7

    @Option(help: "Warm evaluations per batch (31 batches).")
    var iterations: Int = 10_000

    @Option(help: "An MPCORB file to load (scripts/make-mpcorb-million.py makes one of 1,000,000 lines).")
    var mpcorb: String?

    @OptionGroup var resources: ResourceOptions

    func run() throws {
        guard runs > 0, iterations > 0 else { throw ValidationError("--runs and --iterations must be positive") }
        #if DEBUG
        print("warning: debug build; run `swift run -c release solarsystem bench smallbodies` for real figures")
        #endif
        guard let kernel = try resources.loadKernel()?.kernel else { throw CLIError("the small-body propagator needs the DE kernel (not --ephemeris none)") }
        let files = try resources.loadBundledSmallBodies()
        let catalogue = SmallBodyCatalogue(files: files, reservedNames: SmallBodyFeed.reservedNames)
        let yearSeconds = 20 * 365.25 * Constants.secondsPerDay
        for id in ["apophis", "ceres", "sb:67p", "sb:3200"] {
            guard let h = catalogue.resolve(id) else { continue }
            let body = catalogue.body(h)
            let epoch = (body.elements.epochJDTDB - Constants.jdJ2000) * Constants.secondsPerDay
            let target = min(epoch + yearSeconds, kernel.spanSeconds.upperBound)
            var cold: [Double] = [], coldBody: [Double] = [], coldCPU: [Double] = [], coldBodyCPU: [Double] = []
            var last = Vector3.zero
            var cost = (steps: 0, evaluations: 0)
            for _ in 0..<runs {
                let p = SmallBodyPropagator(kernel: kernel, catalogue: catalogue)
                let t0 = DispatchTime.now().uptimeNanoseconds, c0 = BenchCommand.threadCPUNanoseconds()
                last = try p.heliocentricState(body, atSeconds: target).positionKm
                coldCPU.append((BenchCommand.threadCPUNanoseconds() - c0) / 1e6)
                cold.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
                // The same body again with a fresh path but the perturbers already integrated.
                let q = SmallBodyPropagator(kernel: kernel, catalogue: catalogue)
                for n in q.perturberNumbers where n != body.number {
                    if let ph = catalogue.numbered(n) { _ = try q.heliocentricState(catalogue.body(ph), atSeconds: target) }
                }
                let t1 = DispatchTime.now().uptimeNanoseconds, c1 = BenchCommand.threadCPUNanoseconds()
                _ = try q.heliocentricState(body, atSeconds: target, options: ForceOptions())
                coldBodyCPU.append((BenchCommand.threadCPUNanoseconds() - c1) / 1e6)
                coldBody.append(Double(DispatchTime.now().uptimeNanoseconds - t1) / 1e6)
                let arcs = try q.path(body, from: epoch, to: target).arcs(from: epoch, to: target)
                cost = (arcs.reduce(0) { $0 + $1.stepCount }, arcs.reduce(0) { $0 + $1.evaluationCount })
            }
            cold.sort(); coldBody.sort(); coldCPU.sort(); coldBodyCPU.sort()
            // Warm: instants spread over the 20 years just integrated, as a series would ask.
            let p = SmallBodyPropagator(kernel: kernel, catalogue: catalogue)
            _ = try p.heliocentricState(body, atSeconds: target)
            let instants = (0..<iterations).map { epoch + (target - epoch) * (Double($0) + 0.5) / Double(iterations) }
            var perCall: [Double] = []
            var sink = 0.0
            for _ in 0..<31 {
                let t0 = DispatchTime.now().uptimeNanoseconds
                for t in instants { sink += try p.heliocentricState(body, atSeconds: t).positionKm.x }
                perCall.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / Double(instants.count))
            }
            perCall.sort()
            let bodyMs = coldBody[coldBody.count / 2]
            print(String(format: "%@, 20 years from its epoch: cold median %.1f ms (CPU %.1f; the perturbers' own integration included), with the perturbers already integrated %.1f ms (CPU %.1f; %d steps, %d force evaluations, %.2f µs of CPU each); warm median %.2f µs (min %.2f)  [%.0f %.0f %.0f km; checksum %.0f]",
                         body.fullName, cold[cold.count / 2], coldCPU[coldCPU.count / 2], bodyMs, coldBodyCPU[coldBodyCPU.count / 2], cost.steps, cost.evaluations,
                         coldBodyCPU[coldBodyCPU.count / 2] * 1000 / Double(max(cost.evaluations, 1)), perCall[15] / 1000, perCall[0] / 1000, last.x, last.y, last.z, sink))
        }
        if let mpcorb { try benchLoad(mpcorb, kernel: kernel, bundled: files) }
    }

    /// Load and reload a large MPCORB file as `--elements` does.
    func benchLoad(_ path: String, kernel: PlanetaryKernel, bundled: [ElementFile]) throws {
        let before = Self.memoryKB()
        let t0 = DispatchTime.now().uptimeNanoseconds
        let file = try Self.parse(path)
        let t1 = DispatchTime.now().uptimeNanoseconds
        let feed = SmallBodyFeed(kernel: kernel, files: bundled + [file])
        let t2 = DispatchTime.now().uptimeNanoseconds
        let after = Self.memoryKB()
        print(String(format: "%@: %d bodies, %d records not used; parsed in %.2f s, catalogue indexed in %.2f s (%.2f s in all); resident %.0f MB (peak %.0f MB; %.0f MB before)",
                     path, file.count, file.problemCount, Double(t1 - t0) / 1e9, Double(t2 - t1) / 1e9, Double(t2 - t0) / 1e9,
                     after.resident / 1024, after.peak / 1024, before.resident / 1024))
        // Reload while a reader looks a body up every 0.2 ms, as request threads would: the
        // lookups' latencies (a scheduler's time slice on a loaded machine shows here too).
        let stop = Atomic<Bool>(false)
        let latencies = Mutex<[Double]>([])
        let reader = Thread {
            var k: Int32 = 1
            var local: [Double] = []
            while !stop.load(ordering: .relaxed) {
                let t = DispatchTime.now().uptimeNanoseconds
                _ = feed.current.catalogue.resolve("sb:\(k)")
                local.append(Double(DispatchTime.now().uptimeNanoseconds - t) / 1000)
                k = k % 900_000 + 1
                usleep(200)
            }
            latencies.withLock { $0 = local }
        }
        reader.start()
        let r0 = DispatchTime.now().uptimeNanoseconds, c0 = BenchCommand.threadCPUNanoseconds()
        feed.replace(try Self.parse(path))
        let r1 = DispatchTime.now().uptimeNanoseconds, c1 = BenchCommand.threadCPUNanoseconds()
        stop.store(true, ordering: .relaxed)
        Thread.sleep(forTimeInterval: 0.05)
        let peak = Self.memoryKB()
        let lat = latencies.withLock { $0 }.sorted()
        func pct(_ p: Double) -> Double { lat.isEmpty ? 0 : lat[min(lat.count - 1, Int(Double(lat.count) * p))] }
        print(String(format: "reload (parse and index off the lookups' thread): %.2f s (CPU %.2f s); %d lookups meanwhile: median %.1f µs, p99 %.1f µs, p99.9 %.0f µs, max %.0f µs; resident after %.0f MB (peak %.0f MB: both catalogues during the swap)",
                     Double(r1 - r0) / 1e9, (c1 - c0) / 1e9, lat.count, pct(0.5), pct(0.99), pct(0.999), lat.last ?? 0, peak.resident / 1024, peak.peak / 1024))
    }

    /// The file read in 1 MiB chunks into the parser.
    static func parse(_ path: String) throws -> ElementFile {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CLIError("cannot open \(path)") }
        defer { try? handle.close() }
        var parser = ElementFileParser(name: path)
        while let data = try handle.read(upToCount: 1 << 20), !data.isEmpty {
            try data.withUnsafeBytes { raw in try parser.consume(raw) }
        }
        return try parser.finish()
    }

    /// Resident and peak resident memory, kB (`/proc/self/status`).
    static func memoryKB() -> (resident: Double, peak: Double) {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return (0, 0) }
        func field(_ name: String) -> Double {
            for line in status.split(separator: "\n") where line.hasPrefix(name) {
                return Double(line.split(separator: " ").dropFirst().first { !$0.isEmpty }.map(String.init) ?? "") ?? 0
            }
            return 0
        }
        return (field("VmRSS:"), field("VmHWM:"))
    }
}
