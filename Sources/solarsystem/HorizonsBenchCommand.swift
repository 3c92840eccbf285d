import ArgumentParser
import Ephemeris
import Horizons
import Sky

/// `solarsystem bench horizons`: the engine time of a 1,000-row Horizons vector table (budget
/// ≤ 5 ms) and of a 1,000-row observer table of 20 quantities from an observatory (budget
/// ≤ 30 ms), parameters parsed and every row formatted, as `/api/horizons.api` computes them
/// (without the socket). Medians over runs at distinct start times, so nothing is reused.
struct HorizonsBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "horizons",
        abstract: "Median engine time of a 1,000-row Horizons VECTORS table and of a 1,000-row OBSERVER table with 20 quantities."
    )

    @Option(help: "Tables of each kind to time; the median is reported.")
    var runs: Int = 21

    @OptionGroup var resources: ResourceOptions

    func run() throws {
        guard runs > 0 else { throw ValidationError("--runs must be positive") }
        Bench.warnIfDebug("horizons")
        let ephemeris = Ephemeris(catalogue: try resources.loadCatalogue(), kernel: try resources.loadKernel()?.kernel)
        let sky = SkyEngine(ephemeris: ephemeris, deltaT: try resources.loadDeltaT())
        let context = HorizonsContext(ephemeris: ephemeris, sky: sky, observatories: try resources.loadObservatories(),
                                      constellations: try resources.loadConstellations(), now: { 0 })
        let twenty = "'1,2,3,4,5,7,8,9,10,13,14,15,17,19,20,21,23,24,25,29'"
        for (label, budget, extra) in [("VECTORS, Mars from the Sun", 5.0, [("EPHEM_TYPE", "VECTORS"), ("CENTER", "'500@10'")]),
                                       ("OBSERVER, Mars from Palomar (675), 20 quantities", 30.0,
                                        [("EPHEM_TYPE", "OBSERVER"), ("CENTER", context.observatories.count > 0 ? "'675'" : "'500'"), ("QUANTITIES", twenty)])] {
            var tables = Bench.Samples()
            var bytes = 0
            for k in 0..<runs {
                let day = 1 + k % 28
                let start = "'2026-02-\(day < 10 ? "0" : "")\(day)'"
                let stop = "'2026-02-\(day < 10 ? "0" : "")\(day) 16:39'"
                let pairs: [(name: String, value: String)] = [("format", "text"), ("COMMAND", "'499'"), ("START_TIME", start), ("STOP_TIME", stop),
                                                               ("STEP_SIZE", "'1 m'"), ("CSV_FORMAT", "YES")] + extra.map { (name: $0.0, value: $0.1) }
                let (table, rows) = try tables.time {
                    guard case let .table(table) = Horizons.answer(try HorizonsParameters(pairs), context: context) else {
                        throw ValidationError("\(label): Horizons refused the benchmark's request")
                    }
                    return (table, try table.rows(0..<table.rowCount))
                }
                guard table.rowCount == 1_000 else { throw ValidationError("\(label): \(table.rowCount) rows, not 1,000") }
                bytes = rows.count
            }
            print(String(format: "horizons: %@, 1,000 rows (%d bytes): median %.2f ms wall (min %.2f), %.2f ms CPU; budget %.0f ms",
                         label, bytes, tables.median.wallNs / 1e6, tables.min.wallNs / 1e6, tables.median.cpuNs / 1e6, budget))
        }
    }
}
