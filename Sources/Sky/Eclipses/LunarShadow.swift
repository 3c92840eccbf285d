import Glibc
import Ephemeris

/// The Moon in the Earth's shadow through one Full Moon: its geocentric place relative to the
/// shadow's axis (the anti-Sun; x east, y north, z along the axis, Earth equatorial radii) as
/// Chebyshev series, with the Sun's distance for the shadow's radii.
struct LunarShadow: Sendable {
    let start: Double
    let stop: Double
    let x: ChebyshevFit
    let y: ChebyshevFit
    let z: ChebyshevFit
    let sunDistance: ChebyshevFit
    /// The Moon's right ascension minus the sidereal time (its Greenwich hour angle, negated)
    /// and declination, for the place that has it in the zenith.
    let moonLongitude: ChebyshevFit
    let moonDeclination: ChebyshevFit
    let deltaTSeconds: Double
    let deltaTSource: String
    let shadow: EclipseConventions.ShadowEnlargement

    init(_ track: SyzygyTrack, conventions: EclipseConventions) {
        var xs: [Double] = [], ys: [Double] = [], zs: [Double] = [], ss: [Double] = [], lons: [Double] = [], decs: [Double] = []
        for i in track.nodes.indices {
            let s = track.sun[i], m = track.moonFromShadowOrigin[i]
            let axis = -s.normalized
            let a = atan2(axis.y, axis.x)
            let ex = Vector3(-sin(a), cos(a), 0)
            let ey = axis.cross(ex)
            xs.append(m.dot(ex)); ys.append(m.dot(ey)); zs.append(m.dot(axis)); ss.append(s.length)
            var lon = atan2(m.y, m.x) - track.gast[i]
            if let last = lons.last { lon = last + Angle.normalizedSignedRadians(lon - last) }
            lons.append(lon)
            decs.append(asin(m.z / m.length))
        }
        func fit(_ v: [Double]) -> ChebyshevFit { ChebyshevFit(from: track.start, to: track.stop, values: v) }
        start = track.start; stop = track.stop
        x = fit(xs); y = fit(ys); z = fit(zs); sunDistance = fit(ss)
        moonLongitude = fit(lons); moonDeclination = fit(decs)
        deltaTSeconds = track.deltaTSeconds
        deltaTSource = track.deltaTSource
        shadow = conventions.shadow
    }

    /// Seen from the Earth's centre at `t`, radians: the Moon's distance from the axis, its
    /// semidiameter and the penumbra's and umbra's radii.
    struct State { let sigma: Double; let moon: Double; let penumbra: Double; let umbra: Double }

    @inline(__always) func state(_ t: Double) -> State {
        let a = x.value(t), b = y.value(t), c = z.value(t), sd = sunDistance.value(t)
        let r = (a * a + b * b + c * c).squareRoot()
        let moonParallax = asin(1 / r), sunParallax = asin(1 / sd)
        let sun = asin(EclipseConstants.sunRadiusEarthRadii / sd)
        let penumbra: Double, umbra: Double
        switch shadow {
        case .danjon:
            penumbra = 1.01 * moonParallax + sun + sunParallax
            umbra = 1.01 * moonParallax - sun + sunParallax
        case .chauvenet:
            penumbra = 1.02 * (0.998_340 * moonParallax + sun + sunParallax)
            umbra = 1.02 * (0.998_340 * moonParallax - sun + sunParallax)
        }
        return State(sigma: atan2((a * a + b * b).squareRoot(), c), moon: asin(EclipseConstants.kLimb / r), penumbra: penumbra, umbra: umbra)
    }

    /// The eclipse, or nil where the Moon misses the penumbra.
    func eclipse(lunation: Int, conventions: EclipseConventions) -> LunarEclipse? {
        func sigma(_ t: Double) -> Double { state(t).sigma }
        guard let tg = SkyTrack.minima(from: start, to: stop, step: BesselianElements.scanSeconds, sigma).min(by: { sigma($0) < sigma($1) }) else { return nil }
        let g = state(tg)
        let penumbral = (g.penumbra + g.moon - g.sigma) / (2 * g.moon)
        let umbral = (g.umbra + g.moon - g.sigma) / (2 * g.moon)
        guard penumbral > 0 else { return nil }
        // σ − (radius ± s☾) crosses zero once on each side of greatest eclipse.
        func pair(_ f: @escaping (State) -> Double) -> (Double?, Double?) {
            guard f(g) < 0 else { return (nil, nil) }
            let before = SkyTrack.roots(from: start, to: tg, step: BesselianElements.scanSeconds) { f(state($0)) }.last
            let after = SkyTrack.roots(from: tg, to: stop, step: BesselianElements.scanSeconds) { f(state($0)) }.first
            return (before, after)
        }
        let p = pair { $0.sigma - $0.penumbra - $0.moon }
        let u = pair { $0.sigma - $0.umbra - $0.moon }
        let tot = pair { $0.sigma - $0.umbra + $0.moon }
        let times = [p.0, u.0, tot.0, tot.1, u.1, p.1]
        let greatest = SkyEngine.instant(tdbSeconds: tg)
        let a = x.value(tg), b = y.value(tg)
        return LunarEclipse(
            id: SkyEngine.eclipseID(greatest, kind: "lunar"),
            type: umbral >= 1 ? .total : umbral > 0 ? .partial : .penumbral,
            saros: SkyEngine.saros(lunation: lunation, solar: false), lunation: lunation, greatest: greatest,
            gamma: (a * a + b * b).squareRoot() * (b < 0 ? -1 : 1), penumbralMagnitude: penumbral, umbralMagnitude: umbral,
            contacts: zip(LunarEclipse.contactNames, times).map { ($0, $1.map { SkyEngine.instant(tdbSeconds: $0) }) },
            zenithLatitudeDeg: moonDeclination.value(tg) * Angle.degreesPerRadian,
            zenithLongitudeDeg: Angle.degrees(Angle.normalizedSignedRadians(moonLongitude.value(tg))),
            deltaTSeconds: deltaTSeconds, deltaTSource: deltaTSource, conventions: conventions)
    }
}
