import Glibc
import Ephemeris

/// The Moon passing in front of a planet or a bright star, seen from one place: when the
/// target's centre disappears at the Moon's limb and reappears, where on the limb (position
/// angle from the Moon's north point through east; bright or dark limb), and the Moon's place.
public struct Occultation: Sendable {
    public struct Contact: Sendable {
        public let instant: Instant
        public let positionAngleDeg: Double
        /// `bright` where the limb there is sunlit, else `dark`.
        public let limb: String
        /// The Moon's airless altitude and azimuth.
        public let moonAltitudeDeg: Double
        public let moonAzimuthDeg: Double
    }
    /// A body id (`venus`) or a star's name (`Regulus`).
    public let target: String
    public let targetMagnitude: Double?
    public let disappearance: Contact
    public let reappearance: Contact
}

/// A star the Moon can pass in front of: its name, magnitude and ICRF direction (J2000, no
/// proper motion: the catalogue's places).
public struct OccultableStar: Sendable {
    public let name: String
    public let magnitude: Double
    public let directionICRF: Vector3
    public init(name: String, magnitude: Double, directionICRF: Vector3) {
        self.name = name; self.magnitude = magnitude; self.directionICRF = directionICRF
    }

    /// The catalogue's stars brighter than magnitude 2.5, by name (or place, for an unnamed one).
    public static func brightest(of catalogue: StarCatalogue) -> [OccultableStar] {
        catalogue.stars.filter { $0.magnitude < SkyEngine.occultationStarMagnitude }.map {
            OccultableStar(name: $0.name ?? "star RA \($0.rightAscensionHours)h Dec \($0.declinationDeg)°", magnitude: $0.magnitude, directionICRF: $0.directionEquatorial)
        }
    }
}

extension SkyEngine {
    /// Planets whose occultations are searched.
    public static let occultablePlanets: [BodyID] = [.mercury, .venus, .mars, .jupiter, .saturn, .uranus, .neptune]
    /// Stars brighter than this are searched (the 2.5).
    public static let occultationStarMagnitude = 2.5
    /// The Moon strays at most 5.3° from the ecliptic, and its parallax and radius add 1.3°.
    static let occultationEclipticLatitudeDeg = 6.8

    /// Occultations of the planets and of `stars` (those brighter than magnitude 2.5 and near
    /// enough the ecliptic are kept) whose middle is between `start` and `stop` and where the
    /// Moon is above the horizon at either contact. A scan every 2 hours of the geocentric
    /// separations (astrometric) finds the passes within 2.3° (the Moon's parallax, radius and
    /// 2 hours of motion); each is refined from the place: apparent places, the least
    /// separation by golden-section search, the contacts with the Moon's limb (k = 0.2725076)
    /// solved to 0.05 s.
    public func occultations(from observer: Observer, start: Instant, stop: Instant, stars: [OccultableStar]) -> [Occultation] {
        let toEcliptic = Self.eclipticToICRF.transposed
        let limit = sin(Self.occultationEclipticLatitudeDeg * Angle.radiansPerDegree)
        let bright = stars.filter { $0.magnitude < Self.occultationStarMagnitude && abs((toEcliptic * $0.directionICRF).z) < limit }
        let a = Self.tdbSeconds(start), b = Self.tdbSeconds(stop)
        let step = 7_200.0, threshold = 2.3 * Angle.radiansPerDegree
        let count = Self.occultablePlanets.count + bright.count
        var previous = [Double](repeating: .infinity, count: count), before = previous
        var out: [Occultation] = []
        var s = a - step
        while s <= b + step {
            let earth = heliocentricICRF(.earth, tdbSeconds: s)
            let moon = astrometricICRF(.moon, from: earth, tdbSeconds: s).normalized
            for i in 0..<count {
                let direction = i < Self.occultablePlanets.count
                    ? astrometricICRF(Self.occultablePlanets[i], from: earth, tdbSeconds: s).normalized
                    : bright[i - Self.occultablePlanets.count].directionICRF
                let separation = moon.angle(to: direction)
                // The sample before was the least of three and near enough: refine around it.
                if previous[i] < threshold, previous[i] <= before[i], previous[i] < separation {
                    let target: OccultationTarget = i < Self.occultablePlanets.count
                        ? .planet(Self.occultablePlanets[i]) : .star(bright[i - Self.occultablePlanets.count])
                    // The place's closest approach is within the sample's step of the geocentre's, plus up
                    // to 2.2 hours for the Moon's parallax (1°, at 0.5° an hour): ±3.5 hours.
                    if let o = occultation(target, from: observer, near: s - step, window: 7 * 3_600), (a...b).contains(Self.tdbSeconds(o.disappearance.instant)) {
                        out.append(o)
                    }
                }
                before[i] = previous[i]; previous[i] = separation
            }
            s += step
        }
        return out.sorted { $0.disappearance.instant < $1.disappearance.instant }
    }

    enum OccultationTarget {
        case planet(BodyID), star(OccultableStar)
        var name: String { switch self { case let .planet(b): return b.rawValue; case let .star(s): return s.name } }
    }

    /// The occultation of `target` within `window` seconds of `s` seen from `observer`, or nil.
    func occultation(_ target: OccultationTarget, from observer: Observer, near s: Double, window: Double) -> Occultation? {
        let moonRadiusKm = EclipseConstants.kLimb * SkyConstants.wgs84EquatorialRadiusKm
        // Apparent directions (true equator of date) of the Moon, the target and the Sun, and
        // the Moon's distance, km.
        func look(_ x: Double) -> (moon: Vector3, target: Vector3, sun: Vector3, moonKm: Double, station: Station) {
            let st = station(observer, at: time(Self.instant(tdbSeconds: x)))
            let toDate = st.orientation.gcrsToTrueOfDate
            let moon = place(.moon, from: st)
            let direction: Vector3
            switch target {
            case let .planet(b): direction = place(b, from: st).apparentDirection
            case let .star(star):
                let bent = ApparentPlace.deflected(star.directionICRF, bodyAU: star.directionICRF * 1e12, observerAU: st.positionAU)
                direction = ApparentPlace.aberrated(bent, velocityAUPerDay: st.velocityAUPerDay)
            }
            return (toDate * moon.apparentDirection, toDate * direction, toDate * place(.sun, from: st).apparentDirection,
                    moon.astrometricAU.length * Constants.auKm, st)
        }
        func gap(_ x: Double) -> Double { let l = look(x); return l.moon.angle(to: l.target) - asin(moonRadiusKm / l.moonKm) }
        let middle = SkyTrack.minimum(s - window / 2, s + window / 2, tolerance: 1, gap)
        guard gap(middle) < 0 else { return nil }
        // An occultation lasts at most about 1.8 hours.
        guard let begin = SkyTrack.roots(from: middle - 3 * 3_600, to: middle, step: 1_800, gap).last,
              let end = SkyTrack.roots(from: middle, to: middle + 3 * 3_600, step: 1_800, gap).first else { return nil }
        func contact(_ x: Double) -> Occultation.Contact {
            let l = look(x)
            let north = (Vector3(0, 0, 1) - l.moon * l.moon.z).normalized
            let east = Vector3(0, 0, 1).cross(l.moon).normalized
            let offset = l.target - l.moon, sunward = l.sun - l.moon
            let pa = Angle.normalizedDegrees(atan2(offset.dot(east), offset.dot(north)) * Angle.degreesPerRadian)
            let sunPA = atan2(sunward.dot(east), sunward.dot(north)) * Angle.degreesPerRadian
            let lit = abs(Angle.normalizedDegrees(pa - sunPA + 180) - 180) < 90
            let h = Self.horizontal(trueOfDate: l.moon, orientation: l.station.orientation, observer: observer, atmosphere: nil)
            return .init(instant: Self.instant(tdbSeconds: x), positionAngleDeg: pa, limb: lit ? "bright" : "dark",
                         moonAltitudeDeg: h.airlessAltitudeDeg, moonAzimuthDeg: h.azimuthDeg)
        }
        let dis = contact(begin), re = contact(end)
        guard dis.moonAltitudeDeg > 0 || re.moonAltitudeDeg > 0 else { return nil }
        let magnitude: Double?
        switch target {
        case .planet: magnitude = nil
        case let .star(star): magnitude = star.magnitude
        }
        return Occultation(target: target.name, targetMagnitude: magnitude, disappearance: dis, reappearance: re)
    }
}
