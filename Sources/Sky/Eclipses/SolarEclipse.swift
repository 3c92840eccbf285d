import Ephemeris

/// How much of the Sun the Moon hides at its most, over the whole Earth.
public enum SolarEclipseType: String, Sendable, CaseIterable {
    case partial, annular, total
    /// Total along part of its path, annular along the rest.
    case hybrid
}

/// One solar eclipse, as NASA's catalogue describes it: greatest eclipse (the instant the shadow
/// axis passes closest to the Earth's centre), its point on the Earth, gamma, magnitude, the
/// path's width and the central duration there.
public struct SolarEclipse: Sendable {
    /// `2027-08-02-solar`: the UTC date of greatest eclipse.
    public let id: String
    public let type: SolarEclipseType
    /// Whether the shadow axis meets the Earth (a total or annular eclipse can be non-central).
    public let central: Bool
    public let saros: Int
    /// Lunations since the New Moon of 2000 January 6 (Meeus's k; Espenak's "Luna Num").
    public let lunation: Int
    public let greatest: Instant
    public let greatestLatitudeDeg: Double
    public let greatestLongitudeDeg: Double
    /// The Sun's airless altitude and azimuth at the point of greatest eclipse.
    public let sunAltitudeDeg: Double
    public let sunAzimuthDeg: Double
    /// Distance of the shadow axis from the Earth's centre at greatest eclipse, Earth
    /// equatorial radii, positive north.
    public let gamma: Double
    /// Central eclipses: the Moon's apparent diameter over the Sun's at the point of greatest
    /// eclipse; partial ones: the fraction of the Sun's diameter hidden there.
    public let magnitude: Double
    /// Width of the path of totality or annularity at greatest eclipse, km (central only).
    public let pathWidthKm: Double?
    /// Duration of the central phase at the point of greatest eclipse, seconds.
    public let centralDurationSeconds: Double?
    /// When the penumbra first and last touches the Earth, and (central eclipses) the axis.
    public let partialBegin: Instant
    public let partialEnd: Instant
    public let centralBegin: Instant?
    public let centralEnd: Instant?
    public let deltaTSeconds: Double
    public let deltaTSource: String
    public let conventions: EclipseConventions
    let elements: BesselianElements
}

/// One lunar eclipse: greatest eclipse (the Moon's centre closest to the axis of the Earth's
/// shadow), gamma, magnitudes and the contacts with the penumbra (P1, P4) and umbra (U1–U4).
public struct LunarEclipse: Sendable {
    public enum Kind: String, Sendable, CaseIterable { case penumbral, partial, total }
    public let id: String
    public let type: Kind
    public let saros: Int
    public let lunation: Int
    public let greatest: Instant
    /// Distance of the Moon's centre from the shadow axis at greatest eclipse, Earth equatorial
    /// radii, positive north.
    public let gamma: Double
    public let penumbralMagnitude: Double
    public let umbralMagnitude: Double
    /// P1, U1, U2, U3, U4, P4 in that order; the umbral ones nil where the Moon does not reach.
    public let contacts: [(name: String, instant: Instant?)]
    /// Where the Moon is in the zenith at greatest eclipse.
    public let zenithLatitudeDeg: Double
    public let zenithLongitudeDeg: Double
    public let deltaTSeconds: Double
    public let deltaTSource: String
    public let conventions: EclipseConventions

    public static let contactNames = ["P1", "U1", "U2", "U3", "U4", "P4"]
}

/// One contact of an eclipse seen from a place: when, where the Sun (or Moon) stands, and the
/// position angle of the point of contact on the Sun's limb (from its north point through east).
public struct EclipseContact: Sendable {
    public let instant: Instant
    /// Airless (geometric) altitude of the body's centre, degrees.
    public let altitudeDeg: Double
    public let azimuthDeg: Double
    public let positionAngleDeg: Double?
    public var aboveHorizon: Bool { altitudeDeg > 0 }
}

/// A solar eclipse from one place.
public struct LocalSolarEclipse: Sendable {
    public enum Kind: String, Sendable { case partial, annular, total }
    public let eclipse: SolarEclipse
    public let type: Kind
    /// The fraction of the Sun's diameter hidden at maximum (central: the Moon's apparent
    /// diameter over the Sun's).
    public let magnitude: Double
    /// The fraction of the Sun's disc hidden at maximum.
    public let obscuration: Double
    public let partialBegin: EclipseContact
    public let centralBegin: EclipseContact?
    public let maximum: EclipseContact
    public let centralEnd: EclipseContact?
    public let partialEnd: EclipseContact
    /// Whether the Sun is up at some moment of the eclipse.
    public var visible: Bool {
        [partialBegin, maximum, partialEnd].contains { $0.aboveHorizon } || partialBegin.altitudeDeg * partialEnd.altitudeDeg < 0
    }
    public var centralDurationSeconds: Double? {
        guard let b = centralBegin, let e = centralEnd else { return nil }
        return e.instant.seconds(since: b.instant)
    }
}
