import ArgumentParser
import Ephemeris
import Foundation
import Satellites
import SolarSystemAPI

/// `solarsystem bench satellites`: the median time of one SGP4 evaluation (budget ≤ 2 µs) for a
/// near-Earth set (the bundled ISS) and a deep-space one (Molniya 1-36 of the verification set,
/// 12 h resonant), of the full fix (TEME, ICRF, Earth-fixed, ground point), of the engine's
/// 25-body snapshot with the ISS from SGP4 and with the catalogue's circular orbit (the "seed circle" of its output), and of a day of one-second ISS positions computed
/// and written as CSV the way the server streams them (budget ≤ 0.2 s).
struct SatelliteBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "satellites",
        abstract: "Median time of one SGP4 evaluation, a full fix, a snapshot with the ISS from SGP4, and a day of 1 s CSV."
    )

    @Option(help: "Batches to time; the median batch is reported.")
    var batches: Int = 31

    @Option(help: "Evaluations per batch.")
    var iterations: Int = 10_000

    @OptionGroup var resources: ResourceOptions

    /// Molniya 1-36 from the SGP4 verification set: deep space, 12 h resonance.
    static let molniya = ("1 09880U 77021A   06176.56157475  .00000421  00000-0  10000-3 0  9814",
                          "2 09880  64.5968 349.3786 7069051 270.0229  16.3320  2.00813614112380")

    func run() throws {
        guard batches > 0, iterations > 0 else { throw ValidationError("--batches and --iterations must be positive") }
        Bench.warnIfDebug("satellites")
        let services = try resources.makeServices()
        guard let iss = services.satellites.current.catalogue.satellite(norad: SatelliteCatalogue.issNoradID) else {
            throw CLIError("no ISS element set loaded")
        }
        let molniya = try SGP4(try TLEParser.parse(line1: Substring(Self.molniya.0), line2: Substring(Self.molniya.1)))

        // Minutes spread over a day (distinct, so nothing repeats), as a pass search would ask.
        let minutes = (0..<iterations).map { Double($0) * 0.1441 }
        func median(_ label: String, _ body: (Double) throws -> Double) rethrows {
            var sink = 0.0
            let perCall = try Bench.run(batches) { _ in
                for m in minutes { sink += try body(m) }
            }.perOperation(minutes.count)
            print(String(format: "%@: median %.3f µs (min %.3f)  checksum %.3f", label, perCall.median.wallNs / 1000, perCall.min.wallNs / 1000, sink))
        }
        try median("SGP4, near-Earth (ISS)") { try iss.propagator.propagate(minutesSinceEpoch: $0).positionKm.x }
        try median("SGP4, deep space (Molniya 1-36, 12 h resonance, within a day of epoch)") { try molniya.propagate(minutesSinceEpoch: $0).positionKm.x }
        let epoch = try TimeScale.utc(julianDay: iss.elements.epochJDUTC)
        let instants = minutes.map { epoch.adding(seconds: $0 * 60) }
        var k = 0
        try median("ISS fix (SGP4, TEME → ICRF, Earth-fixed, WGS-84 ground point)") { _ in
            defer { k = (k + 1) % instants.count }
            return try iss.propagator.fix(at: instants[k]).subpoint.latitudeDeg
        }
        let ephemeris = services.ephemeris
        let feed = services.satellites
        median("the engine's ISS source (SGP4, cached TEME rotation, the feed's lock)") { _ in
            defer { k = (k + 1) % instants.count }
            return feed.geocentricEclipticState(at: instants[k])?.positionKm.x ?? 0
        }
        median("25-body snapshot with the ISS from SGP4") { _ in
            defer { k = (k + 1) % instants.count }
            return ephemeris.snapshot(at: instants[k]).heliocentricAU[BodyID.iss.index].x
        }
        let seedCircle = Ephemeris(catalogue: services.catalogue, kernel: ephemeris.kernel)
        median("25-body snapshot with the seed circle (before element sets), same conditions") { _ in
            defer { k = (k + 1) % instants.count }
            return seedCircle.snapshot(at: instants[k]).heliocentricAU[BodyID.iss.index].x
        }

        // A day of one-second positions, computed and written as CSV chunk by chunk.
        let ref = BodyRef.satellite(noradID: SatelliteCatalogue.issNoradID, name: "iss")
        var bytes = 0
        let runs = try Bench.run(7) { _ in
            bytes = try SeriesEncoding.satelliteEncodedLength(services.engine, ref, start: epoch, stepSeconds: 1, count: 86_400, csv: true)
        }
        print(String(format: "a day of 1 s ISS positions as CSV (86,400 rows, %d bytes): median %.3f s (min %.3f) of 7", bytes, runs.median.wallNs / 1e9, runs.min.wallNs / 1e9))
    }
}
