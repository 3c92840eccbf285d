import ArgumentParser
import Ephemeris
import Sky

/// `solarsystem bench eclipses`: the engine time of a century of solar and lunar eclipses
/// (budget ≤ 100 ms), of one place's circumstances of one eclipse (≤ 1 ms) and of one
/// eclipse's path (≤ 20 ms); medians, wall and thread CPU time.
struct EclipseBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eclipses",
        abstract: "Median engine time of a century of solar and lunar eclipses, of one place's circumstances and of one path."
    )

    @Option(help: "Century searches to time (the median is reported).")
    var runs: Int = 7

    @Option(help: "Places whose circumstances are timed, one at a time.")
    var places: Int = 2_000

    @OptionGroup var resources: ResourceOptions

    func run() throws {
        guard runs > 0, places > 0 else { throw ValidationError("--runs and --places must be positive") }
        Bench.warnIfDebug("eclipses")
        let ephemeris = Ephemeris(catalogue: try resources.loadCatalogue(), kernel: try resources.loadKernel()?.kernel)
        let sky = SkyEngine(ephemeris: ephemeris, deltaT: try resources.loadDeltaT())
        let start = try TimeScale.utc(year: 2001, month: 1, day: 1), stop = try TimeScale.utc(year: 2101, month: 1, day: 1)

        var solar = 0, lunar = 0
        let century = Bench.run(runs) { k in
            // Shift the century by a few days a run so nothing is reused.
            let a = start.adding(seconds: Double(k) * 86_400 * 3.1), b = stop.adding(seconds: Double(k) * 86_400 * 3.1)
            solar = sky.solarEclipses(start: a, stop: b).count
            lunar = sky.lunarEclipses(start: a, stop: b).count
        }
        Self.report("a century of solar and lunar eclipses (\(solar) + \(lunar))", century, unit: "ms", scale: 1e6)

        guard let eclipse = sky.solarEclipse(id: "2024-04-08-solar") else { throw ValidationError("2024-04-08-solar not found") }
        // A grid over North America, where the penumbra falls.
        let observers = try (0..<places).map { i in
            try Observer(latitudeDeg: 10 + Double(i % 50) * 1.1, longitudeDeg: -130 + Double(i / 50 % 40) * 1.6, elevationM: 0)
        }
        var seen = 0
        let perPlace = Bench.run(1) { _ in
            for o in observers where eclipse.seen(from: o) != nil { seen += 1 }
        }.perOperation(places)
        Self.report("one place's circumstances of 2024-04-08 (\(seen) of \(places) places see it)", perPlace, unit: "µs", scale: 1e3)
        let byID = Bench.run(runs) { _ in _ = sky.solarEclipse(id: "2024-04-08-solar").flatMap { $0.seen(from: observers[0]) } }
        Self.report("finding 2024-04-08-solar by id and one place's circumstances", byID, unit: "ms", scale: 1e6)

        var points = 0
        let path = Bench.run(runs) { _ in points = eclipse.path().central.count }
        Self.report("the path of 2024-04-08 (\(points) central points, limits, horizon curves)", path, unit: "ms", scale: 1e6)
    }

    static func report(_ what: String, _ samples: Bench.Samples, unit: String, scale: Double) {
        print(String(format: "eclipses: %@: median %.2f %@ wall (min %.2f), %.2f %@ CPU",
                     what, samples.median.wallNs / scale, unit, samples.min.wallNs / scale, samples.median.cpuNs / scale, unit))
    }
}
