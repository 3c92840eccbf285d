/// A moon's theory position moved near a spacecraft's published close flyby, so the flyby is
/// drawn and measured relative to the moon the spacecraft really passed — as the Voyagers'
/// encounter samples are moved to the planets the server draws (`EncounterAnchor`).
///
/// The analytical theories place the moons within 0.5–1 % of their orbit radius (thousands of
/// km), while the spacecraft comes from JPL's reconstruction: without a kernel for the moon,
/// Juno's 352 km Europa flyby would pass 274 km inside the drawn Europa. The anchor is the
/// smallest offset of the moon that puts the spacecraft at the published distance at the
/// published time with that time its closest approach (``offset(relative:velocity:distanceKm:)``).
/// It holds fully within ``holdSeconds`` of the epoch and fades out with a smootherstep over
/// ``taperSeconds`` beyond, slowly enough that the moon's velocity changes by at most
/// ``taperSpeedKmS``. A loaded kernel that covers the moon (``SatelliteKernels``) wins: no
/// anchor applies there.
public struct MoonAnchor: Sendable, Hashable {
    public let body: BodyID
    /// The flyby's published closest approach, TDB seconds past J2000.
    public let epochSeconds: Double
    /// Added to the theory's planetocentric position, km, ecliptic J2000.
    public let offsetKm: Vector3
    public let holdSeconds: Double
    public let taperSeconds: Double
    /// What the anchor rests on ("juno europa: 352 km published, NASA/JPL …").
    public let source: String

    /// Full offset this long either side of the epoch (the hours a flyby is drawn about the moon).
    public static let holdSeconds = 2 * 3600.0
    /// The fade never takes less than this …
    public static let minimumTaperSeconds = 6 * 3600.0
    /// … and changes the moon's velocity by at most this.
    public static let taperSpeedKmS = 0.01
    /// Smootherstep's steepest slope, 15/8 of the mean.
    static let smootherstepMaxSlope = 1.875

    public init(body: BodyID, epochSeconds: Double, offsetKm: Vector3, source: String) {
        self.body = body
        self.epochSeconds = epochSeconds
        self.offsetKm = offsetKm
        self.holdSeconds = Self.holdSeconds
        self.taperSeconds = max(Self.minimumTaperSeconds, Self.smootherstepMaxSlope * offsetKm.length / Self.taperSpeedKmS)
        self.source = source
    }

    /// The stretch it touches, TDB seconds past J2000.
    public var spanSeconds: ClosedRange<Double> {
        (epochSeconds - holdSeconds - taperSeconds)...(epochSeconds + holdSeconds + taperSeconds)
    }

    /// The offset and its rate (km, km/s) at TDB seconds past J2000.
    @inline(__always) func displacement(seconds: Double) -> (positionKm: Vector3, velocityKmS: Vector3) {
        let beyond = abs(seconds - epochSeconds) - holdSeconds
        guard beyond > 0 else { return (offsetKm, .zero) }
        guard beyond < taperSeconds else { return (.zero, .zero) }
        let x = 1 - beyond / taperSeconds
        let w = x * x * x * (x * (x * 6 - 15) + 10)
        let slope = 30 * x * x * (x - 1) * (x - 1) / taperSeconds * (seconds > epochSeconds ? -1 : 1)
        return (offsetKm * w, offsetKm * slope)
    }

    /// The smallest offset δ of a moon that leaves a spacecraft at `relative` (spacecraft minus
    /// moon, km) moving at `velocity` (relative, km/s) exactly `distanceKm` from it at its
    /// closest approach, now: the spacecraft's new relative position `relative − δ` is
    /// perpendicular to the velocity and `distanceKm` long, in the direction of the present
    /// relative position's perpendicular part (any perpendicular when that vanishes).
    public static func offset(relative u: Vector3, velocity v: Vector3, distanceKm: Double) -> Vector3 {
        let along = v.length > 0 ? v / v.length : Vector3(0, 0, 1)
        var perpendicular = u - along * u.dot(along)
        if perpendicular.length < 1e-9 * max(1, u.length) {
            let seed = abs(along.z) < 0.9 ? Vector3(0, 0, 1) : Vector3(1, 0, 0)
            perpendicular = seed - along * seed.dot(along)
        }
        return u - perpendicular.normalized * distanceKm
    }
}
