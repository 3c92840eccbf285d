import ArgumentParser
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
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
        #if DEBUG
        print("warning: debug build; run `swift run -c release solarsystem bench sky` for real figures")
        #endif
        let ephemeris = Ephemeris(catalogue: try resources.loadCatalogue(), kernel: try resources.loadKernel()?.kernel)
        let sky = SkyEngine(ephemeris: ephemeris, deltaT: try resources.loadDeltaT())
        let paris = try Observer(latitudeDeg: 48.8566, longitudeDeg: 2.3522, elevationM: 35)
        let start = try TimeScale.parse("2026-11-22T00:00:00Z")
        let instants = (0..<iterations).map { start.adding(seconds: Double($0) * 3_600.123) }

        var perViewNs: [Double] = [], perViewCPUNs: [Double] = []
        var sink = 0.0
        for _ in 0..<batches {
            let t0 = DispatchTime.now().uptimeNanoseconds, c0 = BenchCommand.threadCPUNanoseconds()
            for t in instants {
                let view = sky.view(SkyEngine.defaultBodies, from: paris, at: sky.time(t), atmosphere: .standard)
                sink += view[0].altitudeDeg
            }
            perViewNs.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / Double(instants.count))
            perViewCPUNs.append((BenchCommand.threadCPUNanoseconds() - c0) / Double(instants.count))
        }
        perViewNs.sort(); perViewCPUNs.sort()
        print(String(format: "sky: one /v1/sky answer, 10 bodies (Sun, Moon, planets, Pluto), refracted, engine time: median %.1f µs wall (min %.1f), %.1f µs CPU  checksum %.3f",
                     perViewNs[perViewNs.count / 2] / 1000, perViewNs[0] / 1000, perViewCPUNs[perViewCPUNs.count / 2] / 1000, sink))

        var yearMs: [Double] = [], yearCPUMs: [Double] = []
        var count = 0
        for k in 0..<years {
            let a = start.adding(seconds: Double(k) * 86_400 * 7.3)
            let b = a.adding(seconds: 365 * 86_400)
            let t0 = DispatchTime.now().uptimeNanoseconds, c0 = BenchCommand.threadCPUNanoseconds()
            let events = sky.events([.sun, .moon], kinds: Set(SkyEventKind.allCases), from: paris, start: a, stop: b)
            yearMs.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
            yearCPUMs.append((BenchCommand.threadCPUNanoseconds() - c0) / 1e6)
            count = events.count
        }
        yearMs.sort(); yearCPUMs.sort()
        print(String(format: "sky: a year of Sun and Moon rise/set/transit/twilight at Paris (%d events): median %.2f ms wall (min %.2f), %.2f ms CPU",
                     count, yearMs[yearMs.count / 2], yearMs[0], yearCPUMs[yearCPUMs.count / 2]))

        guard let iss = SatelliteCatalogue(files: try resources.loadBundledElementSets(), reservedNames: [])
            .satellite(norad: SatelliteCatalogue.issNoradID)?.propagator else { throw ValidationError("the bundled element sets hold no ISS") }
        let epoch = try TimeScale.utc(julianDay: iss.elements.epochJDUTC)
        var weekMs: [Double] = [], weekCPUMs: [Double] = []
        var passes = 0, visible = 0
        for k in 0..<years {
            let a = epoch.adding(seconds: Double(k) * 3_600.7 - 3 * 86_400)
            let t0 = DispatchTime.now().uptimeNanoseconds, c0 = BenchCommand.threadCPUNanoseconds()
            let found = try sky.passes(iss, from: paris, start: a, stop: a.adding(seconds: 7 * 86_400))
            weekMs.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
            weekCPUMs.append((BenchCommand.threadCPUNanoseconds() - c0) / 1e6)
            passes = found.count
            visible = found.filter(\.visible).count
        }
        weekMs.sort(); weekCPUMs.sort()
        print(String(format: "sky: a week of ISS passes above 10° at Paris (%d passes, %d visible): median %.2f ms wall (min %.2f), %.2f ms CPU",
                     passes, visible, weekMs[weekMs.count / 2], weekMs[0], weekCPUMs[weekCPUMs.count / 2]))
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
            var coldMs: [Double] = [], warmMs: [Double] = []
            var found = 0
            for _ in 0..<years {
                let sgp4 = try SGP4(elements)
                let c0 = BenchCommand.threadCPUNanoseconds()
                found = try sky.passes(sgp4, from: equator, start: a, stop: b).count
                let c1 = BenchCommand.threadCPUNanoseconds()
                _ = try sky.passes(sgp4, from: equator, start: a.adding(seconds: 60), stop: b.adding(seconds: 60))
                coldMs.append((c1 - c0) / 1e6)
                warmMs.append((BenchCommand.threadCPUNanoseconds() - c1) / 1e6)
            }
            coldMs.sort(); warmMs.sort()
            print(String(format: "sky: a day of passes of %@ at 0° N 0° E on %@ (%d found), CPU: median %.2f ms cold (max %.2f), %.2f ms warm",
                         name, day, found, coldMs[coldMs.count / 2], coldMs[coldMs.count - 1], warmMs[warmMs.count / 2]))
        }
    }
}
