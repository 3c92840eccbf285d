import ArgumentParser
import Ephemeris
import Foundation
import Missions
import MissionScene

/// `solarsystem bench telemetry`: the median time of one `/telemetry` computation per vehicle
/// (kernel state, scene place, nearest body, light time) — what each replay stream pays per tick —
/// over the whole mission, plus the engine's start-up cost.
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
        let loaded = try resources.loadBodies(missions: missions)
        let ephemeris = Ephemeris(catalogue: catalogue, kernel: try resources.loadKernel()?.kernel)
        // As the server builds it: the engine and the mission drawn in the scene.
        var scene = MissionScene(engine: try MissionEngine(mission: m, ephemeris: ephemeris, kernels: loaded.bodies))
        let builds = try Bench.run(5) { _ in
            scene = MissionScene(engine: try MissionEngine(mission: m, ephemeris: ephemeris, kernels: loaded.bodies))
        }
        let engine = scene.engine
        let end = m.endHours ?? engine.tracks.map(\.dataEndHours).max() ?? 1
        var checksum = 0.0, vehicles = 0
        let times = (0..<iterations).map { end * (Double($0) + 0.5) / Double(iterations) }
        for t in times.prefix(100) { checksum += try engine.telemetry(at: t).vehicles.first?.speedKmS ?? 0 }
        let perBatch = try Bench.run(batches) { _ in
            vehicles = 0
            for t in times {
                // What the telemetry endpoint computes: the states and where the markers are drawn.
                let tm = try engine.telemetry(at: t)
                vehicles += tm.vehicles.count
                checksum += (tm.vehicles.first?.speedKmS ?? 0) + (scene.scenePositions(tm).first?.x ?? 0)
            }
        }
        // Every batch computes the same telemetry, so the same number of vehicle states.
        let perVehicle = perBatch.perOperation(max(vehicles, 1))
        Bench.warnIfDebug("telemetry")
        print(String(format: "telemetry %@: median %.2f µs per vehicle over the mission (%d calls, %d vehicle states per batch); engine start-up %.1f ms  (%d batches, checksum %.3f)",
                     mission, perVehicle.median.wallNs / 1000, iterations, vehicles, builds.median.wallNs / 1e6, batches, checksum))
    }
}
