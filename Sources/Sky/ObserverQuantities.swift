import Ephemeris

/// The observer-table quantities, numbered as JPL Horizons numbers them (its manual,
/// "Observer Table Quantities"): what `/v1/sky?quantities=` and the Horizons endpoint's
/// `QUANTITIES` ask for. ``SkyEngine/quantities(_:from:at:_:refraction:)`` fills the ones asked
/// for; each is nil where it does not apply (a topocentric quantity at the geocentre, a sub-point
/// of a body without a rotation model) or is not computed by this server (satellite offsets,
/// orbit uncertainties: Horizons' 6, 12, 36–40, 48), which Horizons tables print as `n.a.`.
public struct QuantitySet: Sendable, Hashable, Sequence {
    public private(set) var bits: UInt64

    /// The numbers Horizons defines (1 … 48).
    public static let defined = 1...48

    public init(_ numbers: some Sequence<Int>) {
        bits = 0
        for n in numbers where Self.defined.contains(n) { bits |= 1 << UInt64(n) }
    }

    public func contains(_ n: Int) -> Bool { Self.defined.contains(n) && bits & (1 << UInt64(n)) != 0 }
    public func contains(any numbers: Int...) -> Bool { numbers.contains { contains($0) } }
    public var isEmpty: Bool { bits == 0 }
    public var count: Int { bits.nonzeroBitCount }

    public func makeIterator() -> IndexingIterator<[Int]> { Self.defined.filter { contains($0) }.makeIterator() }

    /// Every quantity this server computes (Horizons' 1–48 but 6, 12, 36–40 and 48).
    public static let computed = QuantitySet([1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
                                              31, 32, 33, 34, 35, 41, 42, 43, 44, 45, 46, 47])
}

/// Where an observer table is taken from.
public enum QuantitySite: Sendable {
    /// The Earth's centre (Horizons' `500@399`, `500`).
    case geocenter
    /// A place on the Earth (an MPC observatory code, `coord@399`).
    case earth(Observer)
    /// A body's centre or a spacecraft: its heliocentric ICRF position (AU) and velocity (AU/day)
    /// at TDB seconds past J2000. `isSun` marks the Sun itself (elongation undefined).
    case body(name: String, isSun: Bool, state: @Sendable (Double) -> (positionAU: Vector3, velocityAUPerDay: Vector3))

    public var observer: Observer? {
        if case let .earth(o) = self { return o }
        return nil
    }
}

/// What the quantities need to know of a target: its path and, where known, its shape,
/// rotation and brightness law.
public struct QuantityTarget: Sendable {
    public enum Brightness: Sendable {
        /// A planet, the Sun or the Moon by ``Photometry``.
        case engine(BodyID)
        /// An asteroid by H and G (Bowell et al. 1989).
        case asteroid(h: Double, g: Double)
        /// A comet's total magnitude M1 + 5 log Δ + K1 log r.
        case comet(m1: Double, k1: Double)
        case none
    }

    public var name: String
    /// The engine body it is, when it is one.
    public var body: BodyID?
    /// Heliocentric ICRF position (AU) at TDB seconds past J2000 (called for each light-time pass).
    public var position: @Sendable (Double) -> Vector3
    /// Heliocentric ICRF velocity (AU/day) at TDB seconds past J2000.
    public var velocity: @Sendable (Double) -> Vector3
    public var radiiKm: (equatorial: Double, polar: Double)?
    /// Body-fixed → ICRF at TDB seconds past J2000 (nil: no rotation model).
    public var orientation: (@Sendable (Double) -> Matrix3)?
    /// False when only the pole is known (`orientation`'s x axis is then arbitrary): no
    /// longitudes on the body.
    public var primeMeridianKnown: Bool
    public var westLongitudes: Bool
    public var brightness: Brightness
    /// The heliocentric ICRF position (AU) of the body it orbits at TDB seconds (nil: the Sun).
    public var primary: (@Sendable (Double) -> Vector3)?

    public init(name: String, body: BodyID? = nil, position: @escaping @Sendable (Double) -> Vector3, velocity: @escaping @Sendable (Double) -> Vector3,
                radiiKm: (equatorial: Double, polar: Double)? = nil, orientation: (@Sendable (Double) -> Matrix3)? = nil, primeMeridianKnown: Bool = true,
                westLongitudes: Bool = true, brightness: Brightness = .none, primary: (@Sendable (Double) -> Vector3)? = nil) {
        self.name = name
        self.body = body
        self.position = position
        self.velocity = velocity
        self.radiiKm = radiiKm
        self.orientation = orientation
        self.primeMeridianKnown = primeMeridianKnown
        self.westLongitudes = westLongitudes
        self.brightness = brightness
        self.primary = primary
    }

    public var isSun: Bool { body == .sun }
}

/// One row of an observer table: every quantity asked for that applies, nil otherwise. Angles
/// in degrees, rates as Horizons gives them (arcseconds per hour for right ascension and
/// declination, per minute for azimuth and elevation), ranges in AU, range rates in km/s.
public struct ObserverQuantities: Sendable {
    // 1 – 2
    public var astrometricRADeg: Double?, astrometricDecDeg: Double?
    public var apparentRADeg: Double?, apparentDecDeg: Double?
    // 3: dRA·cos(Dec), dDec/dt of the apparent place
    public var raRateArcsecPerHour: Double?, decRateArcsecPerHour: Double?
    // 4 – 5 (refracted when refraction was asked for)
    public var azimuthDeg: Double?, elevationDeg: Double?
    public var azimuthRateArcsecPerMinute: Double?, elevationRateArcsecPerMinute: Double?
    // 7, 8
    public var localSiderealTimeHours: Double?
    public var airmass: Double?, extinctionMag: Double?
    // 9 – 11, 13
    public var magnitude: Double?, surfaceBrightness: Double?
    public var illuminatedPercent: Double?
    public var defectOfIlluminationArcsec: Double?
    public var angularDiameterArcsec: Double?
    // 14 – 17
    public var observerSubLongitudeDeg: Double?, observerSubLatitudeDeg: Double?
    public var sunSubLongitudeDeg: Double?, sunSubLatitudeDeg: Double?
    public var subSolarPositionAngleDeg: Double?, subSolarDistanceArcsec: Double?
    public var northPolePositionAngleDeg: Double?, northPoleDistanceArcsec: Double?
    // 18 – 22
    public var heliocentricEclipticLongitudeDeg: Double?, heliocentricEclipticLatitudeDeg: Double?
    public var sunRangeAU: Double?, sunRangeRateKmS: Double?
    public var rangeAU: Double?, rangeRateKmS: Double?
    public var lightTimeMinutes: Double?
    public var speedWrtSunKmS: Double?, speedWrtObserverKmS: Double?
    // 23 – 28
    public var solarElongationDeg: Double?
    /// `/T` trails the Sun (evening sky), `/L` leads it, `/*` seen from the Sun.
    public var elongationCode: String?
    public var sunTargetObserverDeg: Double?
    public var lunarElongationDeg: Double?, moonIlluminatedPercent: Double?
    public var observerPrimaryTargetDeg: Double?
    public var sunPositionAngleDeg: Double?, velocityPositionAngleDeg: Double?
    public var orbitPlaneAngleDeg: Double?
    // 29 – 35
    public var constellation: String?
    public var tdbMinusUTSeconds: Double?
    public var observerEclipticLongitudeDeg: Double?, observerEclipticLatitudeDeg: Double?
    public var northPoleRADeg: Double?, northPoleDecDeg: Double?
    public var galacticLongitudeDeg: Double?, galacticLatitudeDeg: Double?
    public var localSolarTimeHours: Double?
    public var siteLightTimeMinutes: Double?
    // 41 – 47
    public var trueAnomalyDeg: Double?
    public var hourAngleHours: Double?
    public var phaseAngleDeg: Double?, bisectorLongitudeDeg: Double?, bisectorLatitudeDeg: Double?
    public var solarLongitudeDeg: Double?
    public var inertialApparentRADeg: Double?, inertialApparentDecDeg: Double?
    public var inertialRARateArcsecPerHour: Double?, inertialDecRateArcsecPerHour: Double?
    public var skyMotionArcsecPerMinute: Double?, skyMotionPositionAngleDeg: Double?, relativeVelocityAngleDeg: Double?
    /// Horizons' solar-presence flag at a site on the Earth: `*` daylight, `C` civil, `N`
    /// nautical, `A` astronomical twilight, a space at night (and away from the Earth's surface).
    public var solarPresence: Character = " "
    /// `m`: the Moon is up at the site.
    public var lunarPresence: Character = " "

    public init() {}
}
