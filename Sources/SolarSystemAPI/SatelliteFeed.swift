import Ephemeris
import Satellites
import Synchronization

/// The satellites being served: the loaded element sets, replaced whole when the operator's file
/// changes (``ElementSetWatcher``). Readers take the current catalogue and keep it for their whole
/// answer, so a reload never mixes two files in one answer and never drops one.
///
/// Also the engine's source for the `iss` body (``GeocentricStateSource``): the scene, rotations
/// and snapshots place the ISS by SGP4 whenever an element set for NORAD 25544 is loaded.
public final class SatelliteFeed: Sendable, GeocentricStateSource {
    public struct Current: Sendable {
        public let catalogue: SatelliteCatalogue
        /// Counts the replacements: cached answers that used the element sets are keyed by it.
        public let generation: Int
        /// NORAD 25544's propagator, looked up once per catalogue for the engine's every snapshot.
        let iss: SGP4?

        init(catalogue: SatelliteCatalogue, generation: Int) {
            self.catalogue = catalogue
            self.generation = generation
            iss = catalogue.satellite(norad: SatelliteCatalogue.issNoradID)?.propagator
        }
    }

    private let state: Mutex<Current>
    /// TEME → ecliptic J2000 at the last instant asked, reused within ten minutes of it (the
    /// nutation and precession move it by under 1 mas, 3 cm at the ISS, in that time): the
    /// engine asks for the ISS at every snapshot, and the 63-term nutation would cost more than
    /// SGP4 itself.
    private let rotation = Mutex((jdTT: -Double.infinity, matrix: Matrix3.identity))
    static let rotationReuseDays = 600.0 / 86_400

    public init(_ catalogue: SatelliteCatalogue = .empty) {
        state = Mutex(Current(catalogue: catalogue, generation: 0))
    }

    public var current: Current { state.withLock { $0 } }

    /// Serves `catalogue` from now on.
    public func replace(with catalogue: SatelliteCatalogue) {
        state.withLock { $0 = Current(catalogue: catalogue, generation: $0.generation + 1) }
    }

    public func geocentricEclipticState(at t: Instant) -> (positionKm: Vector3, velocityKmPerDay: Vector3)? {
        guard let iss = state.withLock({ $0.iss }) else { return nil }
        let jd = t.jdTT
        let m = rotation.withLock { r in
            if abs(r.jdTT - jd) > Self.rotationReuseDays {
                r = (jd, Precession.equatorialToEclipticJ2000 * TEMEFrame.temeToICRF(jdTT: jd))
            }
            return r.matrix
        }
        guard let s = try? iss.icrfState(at: t, rotation: m) else { return nil }
        return (s.positionKm, s.velocityKmPerSecond * Constants.secondsPerDay)
    }
}
