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
    }

    private let state: Mutex<Current>

    public init(_ catalogue: SatelliteCatalogue = .empty) {
        state = Mutex(Current(catalogue: catalogue, generation: 0))
    }

    public var current: Current { state.withLock { $0 } }

    /// Serves `catalogue` from now on.
    public func replace(with catalogue: SatelliteCatalogue) {
        state.withLock { $0 = Current(catalogue: catalogue, generation: $0.generation + 1) }
    }

    public func geocentricEclipticState(at t: Instant) -> (positionKm: Vector3, velocityKmPerDay: Vector3)? {
        guard let iss = current.catalogue.satellite(norad: SatelliteCatalogue.issNoradID),
              let s = try? iss.propagator.icrfState(at: t) else { return nil }
        let m = Precession.equatorialToEclipticJ2000
        return (m * s.positionKm, m * s.velocityKmPerSecond * Constants.secondsPerDay)
    }
}
