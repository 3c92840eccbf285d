import ArgumentParser
import Foundation
import Logging
import Missions
import SolarSystemAPI
import Storage

/// `solarsystem bench trajectory`: the `/trajectory` body computed cold (empty caches: sample
/// the curve, store the samples, encode with its gzip variant and ETag), from the SQLite samples
/// (a restarted process: read the packed samples, encode) and from the in-memory body cache, on a SQLite file in a
/// temporary directory. Medians over `--runs`.
struct TrajectoryBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trajectory",
        abstract: "Cold vs cached /v1/missions/{id}/trajectory body (median times and their ratio)."
    )

    @Option(help: "Mission id.") var mission = "apollo11"
    @Option(help: "Samples per vehicle.") var samples = 5000
    @Option(help: "Runs of each kind; the median is reported.") var runs = 21
    @OptionGroup var resources: ResourceOptions
    @OptionGroup var database: DatabaseOptions

    func run() throws {
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("solarsystem-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        var options = database
        options.path = dir.appendingPathComponent("bench.sqlite").path
        let (db, _, _) = try options.openMigrated(logger: logger)
        defer { db.close() }
        let cache = SampleCache(database: db)
        let services = try resources.makeServices(sampleCache: cache, logger: logger)
        let api = V1API(services: services)
        var cold = Bench.Samples(), disk = Bench.Samples(), memory = Bench.Samples()
        var bytes = 0
        func body() throws -> Int { try api.trajectoryBody(mission: mission, vehicle: nil, count: samples, frame: .native).identity.count }
        for _ in 0..<runs {
            // Cold: both tiers empty. Disk: the SQLite samples only (a restarted process).
            // Memory: the encoded body in the in-memory tier.
            try cache.removeAll()
            services.responses.removeAll()
            bytes = try cold.time(body)
            // The samples must be in SQLite, not in the writer's queue, for the next run.
            cache.waitForPendingWrites()
            services.responses.removeAll()
            try disk.time(body)
            try memory.time(body)
        }
        // The midpoint median, as this bench always printed (the others take the upper middle run).
        let mc = cold.midpointMedian.wallNs / 1e6, md = disk.midpointMedian.wallNs / 1e6, mm = memory.midpointMedian.wallNs / 1e6
        print(String(format: "trajectory %@ samples=%d (%d bytes), medians of %d runs: cold %.2f ms (thread CPU %.2f ms); SQLite samples (after a restart) %.2f ms, %.1f×; in memory %.3f ms, %.0f×",
                     mission, samples, bytes, runs, mc, cold.midpointMedian.cpuNs / 1e6, md, mc / md, mm, mc / mm))
    }
}
