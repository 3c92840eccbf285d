import ArgumentParser
import Ephemeris
import Satellites
import Sky

/// `solarsystem bench sky`: the engine time of one `/v1/sky` answer for the ten default bodies
/// (budget ≤ 50 µs) and of a year of the Sun's and the Moon's rising, setting, transits and
/// twilight for one place (budget ≤ 20 ms), and of a week of ISS passes over one place from the
/// bundled element set (goal well under 100 ms); medians over distinct instants so nothing is reused.
/// Wall time, and the thread's CPU time next to it: on a shared machine the CPU time is the
/// engine's cost, the wall time also what other processes took.
struct SkyBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sky",
        abstract: "Median engine time of one 10-body /v1/sky answer, of a year of Sun and Moon events and of a week of ISS passes."
    )

    @Option(help: "Batches of views to time; the median batch is reported.")
    var batches: Int = 31

    @Option(help: "Views per batch.")
    var iterations: Int = 500

    @Option(help: "Year-long event searches to time (the median is reported).")
    var years: Int = 11

    @OptionGroup var resources: ResourceOptions

    func run() throws {
        guard batches > 0, iterations > 0, years > 0 else { throw ValidationError("--batches, --iterations and --years must be positive") }
        Bench.warnIfDebug("sky")
        let ephemeris = Ephemeris(catalogue: try resources.loadCatalogue(), kernel: try resources.loadKernel()?.kernel)
        let sky = SkyEngine(ephemeris: ephemeris, deltaT: try resources.loadDeltaT())
        let paris = try Observer(latitudeDeg: 48.8566, longitudeDeg: 2.3522, elevationM: 35)
        let start = try TimeScale.parse("2026-11-22T00:00:00Z")
        let instants = (0..<iterations).map { start.adding(seconds: Double($0) * 3_600.123) }

        var sink = 0.0
        let perView = Bench.run(batches) { _ in
            for t in instants {
                let view = sky.view(SkyEngine.defaultBodies, from: paris, at: sky.time(t), atmosphere: .standard)
                sink += view[0].altitudeDeg
            }
        }.perOperation(instants.count)
        print(String(format: "sky: one /v1/sky answer, 10 bodies (Sun, Moon, planets, Pluto), refracted, engine time: median %.1f µs wall (min %.1f), %.1f µs CPU  checksum %.3f",
                     perView.median.wallNs / 1000, perView.min.wallNs / 1000, perView.median.cpuNs / 1000, sink))

        var year = Bench.Samples()
        var count = 0
        for k in 0..<years {
            let a = start.adding(seconds: Double(k) * 86_400 * 7.3)
            let b = a.adding(seconds: 365 * 86_400)
            count = year.time { sky.events([.sun, .moon], kinds: Set(SkyEventKind.allCases), from: paris, start: a, stop: b) }.count
        }
        print(String(format: "sky: a year of Sun and Moon rise/set/transit/twilight at Paris (%d events): median %.2f ms wall (min %.2f), %.2f ms CPU",
                     count, year.median.wallNs / 1e6, year.min.wallNs / 1e6, year.median.cpuNs / 1e6))

        guard let iss = SatelliteCatalogue(files: try resources.loadBundledElementSets(), reservedNames: [])
            .satellite(norad: SatelliteCatalogue.issNoradID)?.propagator else { throw ValidationError("the bundled element sets hold no ISS") }
        let epoch = try TimeScale.utc(julianDay: iss.elements.epochJDUTC)
        var week = Bench.Samples()
        var passes = 0, visible = 0
        for k in 0..<years {
            let a = epoch.adding(seconds: Double(k) * 3_600.7 - 3 * 86_400)
            let found = try week.time { try sky.passes(iss, from: paris, start: a, stop: a.adding(seconds: 7 * 86_400)) }
            passes = found.count
            visible = found.filter(\.visible).count
        }
        print(String(format: "sky: a week of ISS passes above 10° at Paris (%d passes, %d visible): median %.2f ms wall (min %.2f), %.2f ms CPU",
                     passes, visible, week.median.wallNs / 1e6, week.min.wallNs / 1e6, week.median.cpuNs / 1e6))
        try deepSpacePasses(sky)
    }

    /// Deep-space sets of the SGP4 verification file (Vallado et al. 2006): a day of passes far
    /// from the epoch (AMC-4's a thousand years after it: the request that took 700 s when every
    /// propagation integrated the resonance from the epoch). Cold: a new
    /// propagator each time (a server's first request for the set); warm: the same one again.
    /// (name, day, line 1, line 2). Molniya 1-36's drag (B* 1e-4) ends its SGP4 orbit long
    /// before 2999 (the server answers 422), so its day is 2100.
    static let deepSpaceSets = [
        ("AMC-4 (geostationary, 24 h resonance)", "2999-01-01",
         "1 25954U 99060A   04039.68057285 -.00000108  00000-0  00000-0 0  6847",
         "2 25954   0.0004 243.8136 0001765  15.5294  22.7134  1.00271289 15615"),
        ("Molniya 1-36 (12 h resonance, e = 0.71)", "2100-01-01",
         "1 09880U 77021A   06176.56157475  .00000421  00000-0  10000-3 0  9814",
         "2 09880  64.5968 349.3786 7069051 270.0229  16.3320  2.00813614112380"),
    ]

    func deepSpacePasses(_ sky: SkyEngine) throws {
        let equator = try Observer(latitudeDeg: 0, longitudeDeg: 0, elevationM: 0)
        for (name, day, line1, line2) in Self.deepSpaceSets {
            let a = try TimeScale.parse(day), b = a.adding(seconds: 86_400)
            let elements = try TLEParser.parse(line1: Substring(line1), line2: Substring(line2), name: name, verifyChecksums: false)
            var cold = Bench.Samples(), warm = Bench.Samples()
            var found = 0
            for _ in 0..<years {
                let sgp4 = try SGP4(elements)
                found = try cold.time { try sky.passes(sgp4, from: equator, start: a, stop: b) }.count
                try warm.time { _ = try sky.passes(sgp4, from: equator, start: a.adding(seconds: 60), stop: b.adding(seconds: 60)) }
            }
            print(String(format: "sky: a day of passes of %@ at 0° N 0° E on %@ (%d found), CPU: median %.2f ms cold (max %.2f), %.2f ms warm",
                         name, day, found, cold.median.cpuNs / 1e6, cold.max.cpuNs / 1e6, warm.median.cpuNs / 1e6))
        }
    }
}
