import Foundation
@testable import Ephemeris

/// `Fixtures/ephemeris-reference.json` (JPL DE440 via Skyfield, PyEphem, IAU WGCCRE), decoded.
/// Its `about` block defines the frames: mean ecliptic and equinox of J2000, geometric.
struct ReferenceFixture: Decodable {
    struct Orientation: Decodable {
        let pole_ra_deg: Double
        let pole_dec_deg: Double
        let w_deg: Double
    }

    struct Case: Decodable {
        let utc: String
        let jd_utc: Double
        let jd_tt: Double
        let jd_tdb: Double
        let heliocentric_ecliptic_j2000_au: [String: [Double]]
        let heliocentric_velocity_ecliptic_j2000_au_per_day: [String: [Double]]
        let geocentric_moon_ecliptic_j2000_km: [Double]
        /// Planetocentric vectors; a value is null where PyEphem had no theory for the date.
        let moons_planetocentric_ecliptic_j2000_km: [String: [Double]?]
        let orientation_iau: [String: Orientation]

        func heliocentricAU(_ id: String) -> Vector3? { heliocentric_ecliptic_j2000_au[id].map(Vector3.init) }
        func heliocentricVelocity(_ id: String) -> Vector3? { heliocentric_velocity_ecliptic_j2000_au_per_day[id].map(Vector3.init) }
        var geocentricMoonKm: Vector3 { Vector3(geocentric_moon_ecliptic_j2000_km) }
        func planetocentricKm(_ id: String) -> Vector3? {
            guard let v = moons_planetocentric_ecliptic_j2000_km[id], let v else { return nil }
            return Vector3(v)
        }
    }

    let cases: [Case]

    /// The fixture's times are Skyfield's, whose ΔT before 1973 is Stephenson, Morrison &
    /// Hohenkerk's splines; from 1962 the engine uses the ΔT the IERS measured (EOP 20 C04). This
    /// is C04's ΔT at each such case's instant minus the fixture's, seconds (C04 daily values,
    /// linear between days, TAI − UTC from ERFA's dat): the engine's TT is later by that much.
    static let measuredMinusSplineDeltaT: [String: Double] = [
        "1965-01-01T20:46:55Z": 0.6483,
        "1969-05-22T17:13:27Z": 0.2820,
        "1970-02-26T02:16:07Z": 0.2643,
    ]

    static let shared: ReferenceFixture = {
        guard let url = Bundle.module.url(forResource: "ephemeris-reference", withExtension: "json", subdirectory: "Fixtures"),
              let data = try? Data(contentsOf: url)
        else { fatalError("Fixtures/ephemeris-reference.json missing from the test bundle") }
        do { return try JSONDecoder().decode(ReferenceFixture.self, from: data) } catch {
            fatalError("cannot decode ephemeris-reference.json: \(error)")
        }
    }()
}

extension Vector3 {
    init(_ a: [Double]) {
        precondition(a.count == 3, "reference vector must have three components")
        self.init(a[0], a[1], a[2])
    }
}

/// Tolerances in named units (STYLE.md).
func arcseconds(_ v: Double) -> Double { v * Angle.radiansPerArcsecond }
func degrees(_ v: Double) -> Double { v * Angle.radiansPerDegree }
func km(_ v: Double) -> Double { v }
func kmPerSecond(_ v: Double) -> Double { v }
