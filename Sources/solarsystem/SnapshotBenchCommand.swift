import ArgumentParser
import Ephemeris
import Foundation
import Scene

/// `solarsystem bench snapshot`: the median time of one full snapshot of all 25 bodies —
/// heliocentric positions, orientation quaternions and scene coordinates (budget ≤ 20 µs).
struct SnapshotBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Median time of one 25-body snapshot (positions, quaternions, scene coordinates)."
    )

    @Option(help: "Batches to time; the median batch is reported.")
    var batches: Int = 31

    @Option(help: "Snapshots per batch.")
    var iterations: Int = 2000

    @OptionGroup var resources: ResourceOptions

    func run() throws {
        guard batches > 0, iterations > 0 else { throw ValidationError("--batches and --iterations must be positive") }
        let catalogue = try resources.loadCatalogue()
        let ephemeris = Ephemeris(catalogue: catalogue)
        let layout = SceneLayout(catalogue: catalogue)
        // Distinct instants across the supported range so nothing is cached between calls.
        let start = try TimeScale.parse("2026-11-22T00:00:00Z")
        let instants = (0..<iterations).map { start.adding(seconds: Double($0) * 3_600.123) }
        var checksum = 0.0
        func one(_ t: Instant) {
            let snap = ephemeris.snapshot(at: t)
            let bodies = layout.bodies(snap)
            checksum += bodies[3].position.x + bodies[24].quaternion.w
        }
        for t in instants.prefix(200) { one(t) } // warm-up
        var perSnapshotNs: [Double] = []
        for _ in 0..<batches {
            let t0 = DispatchTime.now().uptimeNanoseconds
            for t in instants { one(t) }
            let t1 = DispatchTime.now().uptimeNanoseconds
            perSnapshotNs.append(Double(t1 - t0) / Double(iterations))
        }
        perSnapshotNs.sort()
        let median = perSnapshotNs[perSnapshotNs.count / 2]
        let p10 = perSnapshotNs[perSnapshotNs.count / 10], p90 = perSnapshotNs[perSnapshotNs.count * 9 / 10]
        #if DEBUG
        print("warning: debug build; run `swift run -c release solarsystem bench snapshot` for real figures")
        #endif
        print(String(format: "snapshot (25 bodies: positions, quaternions, scene): median %.2f µs  (p10 %.2f, p90 %.2f; %d batches × %d)  checksum %.3f",
                     median / 1000, p10 / 1000, p90 / 1000, batches, iterations, checksum))
    }
}
