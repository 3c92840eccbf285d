import Glibc
import Ephemeris

/// The geocentric Sun and Moon around one new or full Moon: their astrometric positions (light
/// time, no aberration: the shadow is where the light is, and both bodies' aberration is the
/// same for an observer) at the Chebyshev nodes of a window, in Earth equatorial radii, on the
/// true equator and equinox of the window's middle (the frame turns by 0.02″ in 9 hours), with
/// the sidereal time and ΔT there.
struct SyzygyTrack: Sendable {
    /// Half the window, seconds: a penumbral phase lasts at most 6.3 hours, and the greatest
    /// eclipse is within 20 minutes of the conjunction in longitude the window is centred on.
    static let halfWindowSeconds = 4.5 * 3_600
    static let nodeCount = 11

    let start: Double
    let stop: Double
    let nodes: [Double]
    let sun: [Vector3]
    let moon: [Vector3]
    /// The Moon from where the Earth was 2τ earlier (τ its light time): the Earth's shadow on
    /// the Moon is made of light that passed the Earth τ before the Moon is where it is seen,
    /// and the observer sees it τ later; the 2τ of the Earth's motion (78 km, 41″) put the
    /// shadow where NASA's apparent places put it.
    let moonFromShadowOrigin: [Vector3]
    /// Apparent sidereal time at each node, radians (unwrapped).
    let gast: [Double]
    let deltaTSeconds: Double
    let deltaTSource: String

    init(engine: SkyEngine, middle s: Double, conventions: EclipseConventions) {
        start = s - Self.halfWindowSeconds
        stop = s + Self.halfWindowSeconds
        nodes = ChebyshevFit.nodes(from: start, to: stop, count: Self.nodeCount)
        let instant = SkyEngine.instant(tdbSeconds: s)
        var time = engine.time(instant)
        if let given = conventions.deltaTSeconds {
            time = SkyTime(instant: instant, deltaTSeconds: given, deltaTSource: "given (deltaT=\(given) s)")
        }
        deltaTSeconds = time.deltaTSeconds
        deltaTSource = time.deltaTSource
        let orientation = EarthOrientation(time: time)
        let scale = Constants.auKm / SkyConstants.wgs84EquatorialRadiusKm
        let toDate = orientation.gcrsToTrueOfDate
        // GAST advances with UT1, which runs with TT while ΔT holds (it drifts by milliseconds
        // in a day).
        let rate = 2 * Double.pi * SkyConstants.eraTurnsPerUT1Day / Constants.secondsPerDay
        var sun: [Vector3] = [], moon: [Vector3] = [], shadowMoon: [Vector3] = [], gast: [Double] = []
        for t in nodes {
            let earth = engine.heliocentricICRF(.earth, tdbSeconds: t)
            sun.append(toDate * (-earth) * scale)
            let m = engine.astrometricICRF(.moon, from: earth, tdbSeconds: t)
            moon.append(toDate * m * scale)
            let tau = m.length * SkyConstants.lightTimePerAUSeconds
            shadowMoon.append(toDate * (m + earth - engine.heliocentricICRF(.earth, tdbSeconds: t - 2 * tau)) * scale)
            gast.append(orientation.gastRadians + rate * (t - s))
        }
        self.sun = sun
        self.moon = moon
        moonFromShadowOrigin = shadowMoon
        self.gast = gast
    }
}

extension SkyEngine {
    /// Observer (heliocentric ICRF, AU) → `body` at the light's departure, geometric (the
    /// astrometric place without aberration or deflection), AU.
    func astrometricICRF(_ body: BodyID, from observerAU: Vector3, tdbSeconds s: Double) -> Vector3 {
        var p = heliocentricICRF(body, tdbSeconds: s) - observerAU
        for _ in 0..<3 {
            p = heliocentricICRF(body, tdbSeconds: s - p.length * SkyConstants.lightTimePerAUSeconds) - observerAU
        }
        return p
    }
}
