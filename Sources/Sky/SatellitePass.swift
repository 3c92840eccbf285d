import Ephemeris
import Satellites

/// One pass of an Earth satellite over an observer: it rises above the minimum altitude,
/// culminates and sets again. Altitudes are geometric (airless), as satellite predictors and
/// Skyfield's `find_events` give them; azimuths from north through east.
public struct SatellitePass: Sendable {
    /// A moment of the pass and where the satellite is then.
    public struct Point: Sendable {
        public let instant: Instant
        public let azimuthDeg: Double
        public let altitudeDeg: Double
    }

    /// Nil when the satellite was already above the minimum altitude when the search began
    /// (half an orbit before `start`, at most 12 hours).
    public let rise: Point?
    /// The highest point.
    public let culmination: Point
    /// Nil when the satellite is still above the minimum altitude when the search ends.
    public let set: Point?
    /// The minimum altitude the pass was found for, degrees.
    public let minAltitudeDeg: Double
    /// The first and last moments of the pass at which the satellite is sunlit (the whole solar
    /// disc) while the Sun's centre is below −6° for the observer (civil dusk): nil when never.
    public let visibleFrom: Point?
    public let visibleTo: Point?

    public var visible: Bool { visibleFrom != nil }
}

/// Why a satellite search ended without an answer.
public enum SkySearchError: Error, Sendable {
    /// SGP4 could not give the satellite's state at an instant of the search.
    case propagation(SatellitePropagationFailure)
    /// The search's ``Interrupt`` asked it to stop.
    case interrupted(Interruption)
}

extension Interrupt {
    /// ``check()`` for the searches of this module, which throw ``SkySearchError``.
    @inline(__always)
    func checkSearch() throws(SkySearchError) {
        do { try check() } catch { throw .interrupted(error) }
    }
}

/// SGP4 could not give the satellite's state at `instant` during a search.
public struct SatellitePropagationFailure: Error, Sendable {
    public let instant: Instant
    public let error: SGP4Error
}
