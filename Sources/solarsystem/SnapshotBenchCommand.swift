import ArgumentParser
import Ephemeris
import Foundation
import Scene
import SolarSystemAPI

/// `solarsystem bench snapshot`: the median time of one full snapshot of all 25 bodies —
/// heliocentric positions, orientation quaternions and scene coordinates (budget ≤ 10 µs with
/// the DE kernel) — with the kernel, as `serve` runs it (element sets, moon anchors) and with
/// the analytical theories alone; the time to map and check the kernel and the resident memory
/// it adds; and a 100,000-sample time series
/// through the API's engine, then computed and written as JSON and CSV the way the server
/// streams it (`scripts/bench-series.sh` times the same series over HTTP).
struct SnapshotBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Median time of one 25-body snapshot (positions, quaternions, scene coordinates), kernel load and a 100,000-sample series."
    )

    @Option(help: "Batches to time; the median batch is reported.")
    var batches: Int = 31

    @Option(help: "Snapshots per batch.")
    var iterations: Int = 2000

    @Option(help: "Samples in the time-series run (0 skips it).")
    var samples: Int = 100_000

    @OptionGroup var resources: ResourceOptions

    func run() throws {
        guard batches > 0, iterations > 0, samples >= 0 else { throw ValidationError("--batches and --iterations must be positive") }
        Bench.warnIfDebug("snapshot")
        let catalogue = try resources.loadCatalogue()
        let layout = SceneLayout(catalogue: catalogue)
        let rssBefore = Self.residentKiB()
        let loaded = try resources.loadKernel()
        if let loaded {
            let rssLoaded = Self.residentKiB()
            // Opening again and again: copy, map, read the directory, check every segment, then
            // every record.
            let opens = try Bench.run(21) { _ in
                let copy = try KernelFile(path: loaded.path)
                try PlanetaryKernel(bytes: copy, file: loaded.path).spk.checkData()
            }
            let (crc, crcTime) = Bench.time { loaded.crc32 }
            let span = loaded.kernel.spanJDTDB
            print(String(format: "kernel %@ (%@, %d bytes, JD %.1f..%.1f TDB, CRC-32 %@): copied, mapped and every record checked in %.2f ms (median of 21); CRC-32 of the file %.1f ms (serve runs it in the background); resident memory after loading +%d KiB",
                         loaded.kernel.label, loaded.path, loaded.kernel.spk.byteCount, span.lowerBound, span.upperBound, crc, opens.median.wallNs / 1e6, crcTime.wallNs / 1e6, rssLoaded - rssBefore))
        }

        // Distinct instants (an hour apart) so nothing is cached between calls.
        let start = try TimeScale.parse("2026-11-22T00:00:00Z")
        let instants = (0..<iterations).map { start.adding(seconds: Double($0) * 3_600.123) }
        let withKernel = Ephemeris(catalogue: catalogue, kernel: loaded?.kernel)
        let label = loaded.map { "with \($0.kernel.label)" } ?? "analytical theories"
        report(label, time(withKernel, layout, instants))
        report("\(label), the engine's part (no scene layout)", time(withKernel, nil, instants))
        if let kernel = loaded?.kernel {
            // The kernel's share: every link of every chain evaluated once, as the snapshot does.
            var helio = [Vector3](repeating: .zero, count: BodyID.count)
            var sink = 0.0
            let seconds = instants.map { $0.daysSinceJ2000TDB * Constants.secondsPerDay }
            let perCall = Bench.run(batches) { _ in
                for t in seconds { sink += kernel.positions(secondsPastJ2000: t, heliocentricAU: &helio).x }
            }.perOperation(seconds.count)
            print(String(format: "of which the kernel (Sun, 9 barycentres, Earth, Moon: %d segments): median %.2f µs  checksum %.3f",
                         kernel.spk.segments.count, perCall.median.wallNs / 1000, sink))
        }
        if loaded != nil {
            report("analytical theories", time(Ephemeris(catalogue: catalogue), layout, instants))
            let mapped = Self.mappedResidentKiB(loaded?.path).map { "\($0) KiB of the kernel's mapping resident" } ?? "the mapping's share not found in /proc/self/smaps"
            print("resident memory after the snapshots: +\(Self.residentKiB() - rssBefore) KiB over the start (\(mapped))")
        }
        // The ephemeris `serve` answers from (after the memory figure above, which it would swell):
        // the ISS from its element set, the moons moved near the missions' published flybys
        // (anchors), and any kernels that place moons.
        let served = try resources.makeServices().ephemeris
        report("as serve runs it (the ISS from SGP4, \(served.moonAnchors.count) moon-flyby anchors)", time(served, layout, instants))

        guard samples > 0 else { return }
        let service = EphemerisService(catalogue: catalogue, kernel: loaded?.kernel)
        let selection = FrameSelection()
        var sink = 0.0
        let runs = Bench.run(5) { _ in
            for k in 0..<samples {
                let e = service.sample(.mars, at: start.adding(seconds: Double(k) * 3_600), selection)
                sink += e.position.x
            }
        }
        let seriesMs = runs.median.wallNs / 1e6
        print(String(format: "series: %d samples of Mars (hourly) through the API's engine: median %.1f ms of 5 runs (%.0f ns per sample)  checksum %.3f",
                     samples, seriesMs, seriesMs * 1e6 / Double(samples), sink))
        // The same series computed and written as the server streams it (250 samples a chunk),
        // without HTTP or gzip.
        for csv in [false, true] {
            var bytes = 0
            let times = Bench.run(5) { _ in
                bytes = SeriesEncoding.encodedLength(service, .mars, start: start, stepSeconds: 3_600, count: samples, csv: csv)
            }
            print(String(format: "series: the same computed and written as %@ (chunks of 250, no HTTP): median %.1f ms of 5 runs, %d bytes",
                         csv ? "CSV" : "JSON", times.median.wallNs / 1e6, bytes))
        }
    }

    /// Per-snapshot times of the batches.
    func time(_ ephemeris: Ephemeris, _ layout: SceneLayout?, _ instants: [Instant]) -> (perSnapshot: Bench.Samples, checksum: Double) {
        var checksum = 0.0
        func one(_ t: Instant) {
            let snap = ephemeris.snapshot(at: t)
            if let layout {
                let bodies = layout.bodies(snap)
                checksum += bodies[3].position.x + bodies[24].quaternion.w
            } else {
                checksum += snap.heliocentricAU[3].x + snap.orientations[24].bodyToEcliptic.r0.x
            }
        }
        for t in instants.prefix(200) { one(t) } // warm-up
        let perSnapshot = Bench.run(batches) { _ in for t in instants { one(t) } }.perOperation(instants.count)
        return (perSnapshot, checksum)
    }

    func report(_ label: String, _ r: (perSnapshot: Bench.Samples, checksum: Double)) {
        let v = r.perSnapshot
        print(String(format: "snapshot (25 bodies: positions, quaternions, scene), %@: median %.2f µs  (p10 %.2f, p90 %.2f; %d batches × %d)  checksum %.3f",
                     label, v.median.wallNs / 1000, v.percentile(0.1).wallNs / 1000, v.percentile(0.9).wallNs / 1000, batches, iterations, r.checksum))
    }

    /// A /proc file's text (FileHandle reads to the end; String(contentsOfFile:) stops at the
    /// size procfs reports).
    static func procText(_ path: String) -> String? {
        FileHandle(forReadingAtPath: path).map { String(decoding: $0.readDataToEndOfFile(), as: UTF8.self) }
    }

    /// VmRSS of this process, KiB (0 where /proc is missing).
    static func residentKiB() -> Int {
        guard let text = procText("/proc/self/status") else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return 0
    }

    /// Resident KiB of the mapping of `path` (its `Rss:` in /proc/self/smaps).
    static func mappedResidentKiB(_ path: String?) -> Int? {
        guard let path, let text = procText("/proc/self/smaps") else { return nil }
        let target = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        var inside = false
        for line in text.split(separator: "\n") {
            if let first = line.first, first.isHexDigit, line.contains("-") {
                inside = line.hasSuffix(target)
            } else if inside, line.hasPrefix("Rss:") {
                return Int(line.split(separator: " ").dropFirst().first ?? "")
            }
        }
        return nil
    }
}
