import ArgumentParser
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
        Bench.warnIfDebug("smallbodies")
        guard let kernel = try resources.loadKernel()?.kernel else { throw CLIError("the small-body propagator needs the DE kernel (not --ephemeris none)") }
        let files = try resources.loadBundledSmallBodies()
        let catalogue = SmallBodyCatalogue(files: files, reservedNames: SmallBodyFeed.reservedNames)
        let yearSeconds = 20 * 365.25 * Constants.secondsPerDay
        for id in ["apophis", "ceres", "sb:67p", "sb:3200"] {
            guard let h = catalogue.resolve(id) else { continue }
            let body = catalogue.body(h)
            let epoch = (body.elements.epochJDTDB - Constants.jdJ2000) * Constants.secondsPerDay
            let target = min(epoch + yearSeconds, kernel.spanSeconds.upperBound)
            var cold = Bench.Samples(), coldBody = Bench.Samples()
            var last = Vector3.zero
            var cost = (steps: 0, evaluations: 0)
            for _ in 0..<runs {
                let p = SmallBodyPropagator(kernel: kernel, catalogue: catalogue)
                last = try cold.time { try p.heliocentricState(body, atSeconds: target).positionKm }
                // The same body again with a fresh path but the perturbers already integrated.
                let q = SmallBodyPropagator(kernel: kernel, catalogue: catalogue)
                for n in q.perturberNumbers where n != body.number {
                    if let ph = catalogue.numbered(n) { _ = try q.heliocentricState(catalogue.body(ph), atSeconds: target) }
                }
                try coldBody.time { _ = try q.heliocentricState(body, atSeconds: target, options: ForceOptions()) }
                let arcs = try q.path(body, from: epoch, to: target).arcs(from: epoch, to: target)
                cost = (arcs.reduce(0) { $0 + $1.stepCount }, arcs.reduce(0) { $0 + $1.evaluationCount })
            }
            // Warm: instants spread over the 20 years just integrated, as a series would ask.
            let p = SmallBodyPropagator(kernel: kernel, catalogue: catalogue)
            _ = try p.heliocentricState(body, atSeconds: target)
            let instants = (0..<iterations).map { epoch + (target - epoch) * (Double($0) + 0.5) / Double(iterations) }
            var sink = 0.0
            let warm = try Bench.run(31) { _ in
                for t in instants { sink += try p.heliocentricState(body, atSeconds: t).positionKm.x }
            }.perOperation(instants.count)
            let coldMs = cold.median.wallNs / 1e6, coldCPUMs = cold.median.cpuNs / 1e6
            let bodyMs = coldBody.median.wallNs / 1e6, bodyCPUMs = coldBody.median.cpuNs / 1e6
            print(String(format: "%@, 20 years from its epoch: cold median %.1f ms (CPU %.1f; the perturbers' own integration included), with the perturbers already integrated %.1f ms (CPU %.1f; %d steps, %d force evaluations, %.2f µs of CPU each); warm median %.2f µs (min %.2f)  [%.0f %.0f %.0f km; checksum %.0f]",
                         body.fullName, coldMs, coldCPUMs, bodyMs, bodyCPUMs, cost.steps, cost.evaluations,
                         bodyCPUMs * 1000 / Double(max(cost.evaluations, 1)), warm.median.wallNs / 1000, warm.min.wallNs / 1000, last.x, last.y, last.z, sink))
        }
        if let mpcorb { try benchLoad(mpcorb, kernel: kernel, bundled: files) }
    }

    /// Load and reload a large MPCORB file as `--elements` does.
    func benchLoad(_ path: String, kernel: PlanetaryKernel, bundled: [ElementFile]) throws {
        let before = Self.memoryKB()
        let (file, parsing) = try Bench.time { try Self.parse(path) }
        let (feed, indexing) = Bench.time { SmallBodyFeed(kernel: kernel, files: bundled + [file]) }
        let parseS = parsing.wallNs / 1e9, indexS = indexing.wallNs / 1e9
        let after = Self.memoryKB()
        print(String(format: "%@: %d bodies, %d records not used; parsed in %.2f s, catalogue indexed in %.2f s (%.2f s in all); resident %.0f MB (peak %.0f MB; %.0f MB before)",
                     path, file.count, file.problemCount, parseS, indexS, parseS + indexS,
                     after.resident / 1024, after.peak / 1024, before.resident / 1024))
        // Reload while a reader looks a body up every 0.2 ms, as request threads would: the
        // lookups' latencies (a scheduler's time slice on a loaded machine shows here too).
        let stop = Atomic<Bool>(false)
        let latencies = Mutex(Bench.Samples())
        let reader = Thread {
            var k: Int32 = 1
            var local = Bench.Samples()
            while !stop.load(ordering: .relaxed) {
                local.time { _ = feed.current.catalogue.resolve("sb:\(k)") }
                k = k % 900_000 + 1
                usleep(200)
            }
            latencies.withLock { $0 = local }
        }
        reader.start()
        let reload = try Bench.time { feed.replace(try Self.parse(path)) }.time
        stop.store(true, ordering: .relaxed)
        Thread.sleep(forTimeInterval: 0.05)
        let peak = Self.memoryKB()
        let lat = latencies.withLock { $0 }
        func pct(_ p: Double) -> Double { lat.count == 0 ? 0 : lat.percentile(p).wallNs / 1000 }
        print(String(format: "reload (parse and index off the lookups' thread): %.2f s (CPU %.2f s); %d lookups meanwhile: median %.1f µs, p99 %.1f µs, p99.9 %.0f µs, max %.0f µs; resident after %.0f MB (peak %.0f MB: both catalogues during the swap)",
                     reload.wallNs / 1e9, reload.cpuNs / 1e9, lat.count, pct(0.5), pct(0.99), pct(0.999), pct(1), peak.resident / 1024, peak.peak / 1024))
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
