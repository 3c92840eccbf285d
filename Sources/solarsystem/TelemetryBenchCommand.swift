import ArgumentParser
import Ephemeris
import Foundation
import Missions

/// `solarsystem bench telemetry`: the median time of one `/telemetry` computation (every vehicle:
/// marker, physical position, speeds) — what each replay stream pays per tick — over the whole
/// mission and over its lunar phases alone, plus the engine's start-up cost.
struct TelemetryBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "telemetry",
        abstract: "Median time of one mission telemetry computation (what a replay stream pays per tick)."
    )

    @Option(help: "Mission id.") var mission = "apollo11"
    @Option(help: "Batches to time; the median batch is reported.") var batches = 21
    @Option(help: "Telemetry computations per batch.") var iterations = 2000
    @OptionGroup var resources: ResourceOptions

    func run() throws {
        guard batches > 0, iterations > 0 else { throw ValidationError("--batches and --iterations must be positive") }
        let catalogue = try resources.loadCatalogue()
        let missions = try resources.loadMissions()
        let m = try missions.mission(mission)
        let ephemeris = Ephemeris(catalogue: catalogue)
        var builds: [Double] = []
        var engine = MissionEngine(mission: m, ephemeris: ephemeris)
        for _ in 0..<5 {
            let t0 = DispatchTime.now().uptimeNanoseconds
            engine = MissionEngine(mission: m, ephemeris: ephemeris)
            builds.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
        }
        let end = m.replayEndHours
        let lunar = m.physics.map { p in
            p.orbit.map { $0.startHours...$0.endHours } ?? p.flyby.map { ($0.timeHours - 6)...($0.timeHours + 6) } ?? 0...end
        } ?? 0...end
        var checksum = 0.0
        func median(over range: ClosedRange<Double>) throws -> Double {
            let times = (0..<iterations).map { range.lowerBound + (range.upperBound - range.lowerBound) * (Double($0) + 0.5) / Double(iterations) }
            for t in times.prefix(100) { checksum += try engine.telemetry(at: t).vehicles.first?.speedKmS ?? 0 }
            var perCallNs: [Double] = []
            for _ in 0..<batches {
                let t0 = DispatchTime.now().uptimeNanoseconds
                for t in times { checksum += try engine.telemetry(at: t).vehicles.first?.speedKmS ?? 0 }
                perCallNs.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / Double(iterations))
            }
            perCallNs.sort()
            return perCallNs[perCallNs.count / 2]
        }
        let whole = try median(over: 0...end), near = try median(over: lunar)
        builds.sort()
        #if DEBUG
        print("warning: debug build; run `swift run -c release solarsystem bench telemetry` for real figures")
        #endif
        print(String(format: "telemetry %@: median %.1f µs per call over the mission, %.1f µs over %.1f…%.1f h; engine start-up %.1f ms  (%d batches × %d, checksum %.3f)",
                     mission, whole / 1000, near / 1000, lunar.lowerBound, lunar.upperBound, builds[builds.count / 2], batches, iterations, checksum))
    }
}
