import Glibc
import Ephemeris

extension SkyEngine {
    /// The most days one events search may span.
    public static let maxEventSpanDays = 3_660.0

    /// Rising, setting, transits and (for the Sun) twilight of `bodies` seen from `observer`
    /// between `start` and `stop`, in time order.
    ///
    /// As USNO defines them: rising and setting when the upper limb meets the horizon with 34′
    /// of refraction (the topocentric centre at −34′ − semidiameter: the Moon's parallax and
    /// semidiameter from its distance at that moment); twilight when the Sun's centre is at −6°,
    /// −12°, −18°; transit at hour angle 0. The apparent places are computed exactly every 6 h
    /// (geocentric, true equator of date) and interpolated between (4-point Lagrange, under
    /// 0.1″ for the Moon); the observer's offset and the sidereal time are exact at every trial.
    /// Culminations are bracketed by an hourly scan of the hour angle, the altitude's turns by
    /// the same hourly samples (solved where a crossing could be near one); between neighbouring
    /// turns the altitude is monotonic, so each crossing is bracketed there and solved to 0.05 s.
    /// (Near a pole the turns are not the culminations: the Moon's declination can carry it
    /// across the horizon and back between two of them.)
    ///
    /// `points` are bodies the engine does not know — asteroids and comets — by their id and
    /// heliocentric ecliptic J2000 position (AU) at TDB seconds past J2000, placed as the planets
    /// are (light time, deflection, aberration) and searched as point sources: rising and
    /// setting when the centre is at −34′, transits, always up or down.
    public func events(_ bodies: [BodyID], points: [(id: String, heliocentricEclipticAU: (Double) -> Vector3)] = [],
                       kinds: Set<SkyEventKind>, from observer: Observer, start: Instant, stop: Instant) -> [SkyEvent] {
        let span = stop.seconds(since: start)
        guard span > 0 else { return [] }
        let track = SkyTrack(engine: self, bodies: bodies, points: points.map(\.heliocentricEclipticAU), observer: observer, start: start, spanSeconds: span)
        var out: [SkyEvent] = []
        for (slot, body) in bodies.enumerated() {
            out += track.events(slot: slot, body: body, kinds: kinds)
        }
        for (k, point) in points.enumerated() {
            out += track.events(slot: bodies.count + k, body: nil, id: point.id, kinds: kinds)
        }
        return out.sorted { $0.instant < $1.instant }
    }
}

/// The apparent places of a few bodies over a span, sampled every 6 h for the event searches.
struct SkyTrack {
    static let nodeSeconds = 21_600.0
    let engine: SkyEngine
    let observer: Observer
    let start: Instant
    let spanSeconds: Double
    /// Per body, the geocentric apparent vectors (km, true equator of date) at each node.
    let vectors: [[Vector3]]
    /// GAST − ERA and ΔT at each node (both change slowly: interpolated).
    let gastMinusERA: [Double]
    let deltaT: [Double]
    let eraAtStart: Double
    let deltaTAtStart: Double
    let standard = Atmosphere.standard

    /// Node k sits at (k − 1) · nodeSeconds from the start: one before the start, two after the end.
    init(engine: SkyEngine, bodies: [BodyID], points: [(Double) -> Vector3] = [], observer: Observer, start: Instant, spanSeconds: Double) {
        self.engine = engine
        self.observer = observer
        self.start = start
        self.spanSeconds = spanSeconds
        let count = Int((spanSeconds / Self.nodeSeconds).rounded(.up)) + 4
        var vectors = [[Vector3]](repeating: [], count: bodies.count + points.count)
        var offsets: [Double] = [], deltaT: [Double] = []
        offsets.reserveCapacity(count); deltaT.reserveCapacity(count)
        let times = (0..<count).map { k in engine.time(start.addingTT(seconds: Double(k - 1) * Self.nodeSeconds)) }
        // The Earth's orientation computed at every other node, halfway between at the rest.
        var frames = [EarthOrientation?](repeating: nil, count: count)
        for k in stride(from: 0, to: count, by: 2) { frames[k] = EarthOrientation(time: times[k]) }
        if frames[count - 1] == nil { frames[count - 1] = EarthOrientation(time: times[count - 1]) }
        let era0 = EarthOrientation.earthRotationAngle(times[1]), dt0 = times[1].deltaTSeconds
        for k in 0..<count {
            let time = times[k]
            let frame = frames[k] ?? EarthOrientation(midpoint: frames[k - 1]!, frames[k + 1]!, time: time)
            let st = engine.station(nil, at: time, orientation: frame)
            offsets.append(Angle.normalizedSignedRadians(st.orientation.gastRadians - st.orientation.eraRadians))
            deltaT.append(time.deltaTSeconds)
            for (slot, body) in bodies.enumerated() {
                let p = engine.place(body, from: st)
                vectors[slot].append(st.orientation.gcrsToTrueOfDate * p.apparentDirection * (p.astrometricAU.length * Constants.auKm))
            }
            for (k, position) in points.enumerated() {
                let p = ApparentPlace.compute(observerAU: st.positionAU, observerVelocityAUPerDay: st.velocityAUPerDay, tdbSeconds: st.tdbSeconds,
                                              deflect: true) { s in SkyEngine.eclipticToICRF * position(s) }
                vectors[bodies.count + k].append(st.orientation.gcrsToTrueOfDate * p.apparentDirection * (p.astrometricAU.length * Constants.auKm))
            }
        }
        self.vectors = vectors
        gastMinusERA = offsets
        self.deltaT = deltaT
        eraAtStart = era0
        deltaTAtStart = dt0
    }

    /// Lagrange weights and the first node for TT seconds `x` from the start.
    @inline(__always) func weights(_ x: Double) -> (Int, Double, Double, Double, Double) {
        let u = x / Self.nodeSeconds + 1
        let i = min(max(Int(u.rounded(.down)) - 1, 0), gastMinusERA.count - 4)
        let s = u - Double(i)
        return (i, -(s - 1) * (s - 2) * (s - 3) / 6, s * (s - 2) * (s - 3) / 2, -s * (s - 1) * (s - 3) / 2, s * (s - 1) * (s - 2) / 6)
    }

    /// The body seen from the observer at `x`: topocentric vector in the terrestrial frame, km,
    /// and the distance from the Earth's centre.
    @inline(__always) func local(_ slot: Int, _ x: Double) -> (w: Vector3, geocentricKm: Double) {
        let (i, w0, w1, w2, w3) = weights(x)
        let v = vectors[slot]
        let geo = v[i] * w0 + v[i + 1] * w1 + v[i + 2] * w2 + v[i + 3] * w3
        let dt = deltaT[i] * w0 + deltaT[i + 1] * w1 + deltaT[i + 2] * w2 + deltaT[i + 3] * w3
        let offset = gastMinusERA[i] * w0 + gastMinusERA[i + 1] * w1 + gastMinusERA[i + 2] * w2 + gastMinusERA[i + 3] * w3
        let ut1Seconds = x - (dt - deltaTAtStart)
        let gast = eraAtStart + ut1Seconds * (2 * Double.pi * SkyConstants.eraTurnsPerUT1Day / Constants.secondsPerDay) + offset
        let c = cos(gast), s = sin(gast)
        // Rz(−GAST) · geo, then from the observer.
        let terrestrial = Vector3(c * geo.x + s * geo.y, -s * geo.x + c * geo.y, geo.z)
        return (terrestrial - observer.terrestrialKm, geo.length)
    }

    /// Airless altitude (degrees) of the centre, and the geocentric distance.
    @inline(__always) func altitude(_ slot: Int, _ x: Double) -> (altitudeDeg: Double, geocentricKm: Double) {
        let (w, d) = local(slot, x)
        return (altitudeDeg(of: w), d)
    }

    /// Airless altitude (degrees) of the topocentric vector `w`.
    @inline(__always) func altitudeDeg(of w: Vector3) -> Double {
        asin(max(-1, min(1, w.dot(observer.up) / w.length))) * Angle.degreesPerRadian
    }

    /// Local hour angle, degrees in (−180, 180].
    @inline(__always) func hourAngle(_ slot: Int, _ x: Double) -> Double {
        hourAngle(of: local(slot, x).w)
    }

    /// Local hour angle of the topocentric vector `w`, degrees in (−180, 180].
    @inline(__always) func hourAngle(of w: Vector3) -> Double {
        var h = observer.longitudeDeg - atan2(w.y, w.x) * Angle.degreesPerRadian
        h = Angle.remainder360(h)
        if h > 180 { h -= 360 } else if h <= -180 { h += 360 }
        return h
    }

    func azimuthAltitude(_ slot: Int, _ x: Double) -> (azimuthDeg: Double, altitudeDeg: Double) {
        let (w, _) = local(slot, x)
        let n = w.normalized
        let airless = asin(max(-1, min(1, n.dot(observer.up)))) * Angle.degreesPerRadian
        let az = Angle.normalizedDegrees(atan2(n.dot(observer.east), n.dot(observer.north)) * Angle.degreesPerRadian)
        return (az, Refraction.apparentAltitudeDeg(trueAltitudeDeg: airless, temperatureC: standard.temperatureC, pressureHPa: standard.pressureHPa))
    }

    /// Thresholds for the body's airless centre altitude, by event pair (rising kind, setting kind).
    /// A point source (`body` nil) rises and sets with its centre at −34′.
    func thresholds(_ body: BodyID?, kinds: Set<SkyEventKind>) -> [(rising: SkyEventKind, setting: SkyEventKind, altitude: (Double) -> Double)] {
        var out: [(SkyEventKind, SkyEventKind, (Double) -> Double)] = []
        let refraction = SkyConstants.horizonRefractionDeg
        let radius = body.map { SkyEngine.radiusKm($0, engine.ephemeris.catalogue) } ?? 0
        let limb = body == .sun || body == .moon
        if !kinds.isDisjoint(with: [.rise, .set, .polarDay, .polarNight, .alwaysUp, .alwaysDown]) {
            out.append((.rise, .set, { distanceKm in
                -refraction - (limb ? asin(min(1, radius / distanceKm)) * Angle.degreesPerRadian : 0)
            }))
        }
        if body == .sun {
            for (dawn, dusk, h) in [(SkyEventKind.civilDawn, SkyEventKind.civilDusk, SkyConstants.civilTwilightDeg),
                                    (.nauticalDawn, .nauticalDusk, SkyConstants.nauticalTwilightDeg),
                                    (.astronomicalDawn, .astronomicalDusk, SkyConstants.astronomicalTwilightDeg)]
            where kinds.contains(dawn) || kinds.contains(dusk) {
                out.append((dawn, dusk, { _ in h }))
            }
        }
        return out
    }

    func events(slot: Int, body: BodyID?, id: String? = nil, kinds: Set<SkyEventKind>) -> [SkyEvent] {
        // Culminations: the hourly scan of the hour angle brackets each, then bisection settles it.
        var culminations: [(x: Double, upper: Bool)] = []
        let step = 3_600.0
        let pairs = thresholds(body, kinds: kinds)
        // The same hourly samples give the altitude, whose turns bound the crossings below (an
        // hour either side of the span too, so a turn near its ends is seen).
        var samples: [(x: Double, altitudeDeg: Double, geocentricKm: Double)] = []
        let l0 = local(slot, 0)
        var x0 = 0.0, h0 = hourAngle(of: l0.w)
        if !pairs.isEmpty {
            let before = altitude(slot, -step)
            samples = [(-step, before.altitudeDeg, before.geocentricKm), (0, altitudeDeg(of: l0.w), l0.geocentricKm)]
        }
        while x0 < spanSeconds {
            let x1 = min(spanSeconds, x0 + step)
            let l1 = local(slot, x1)
            let h1 = hourAngle(of: l1.w)
            if !pairs.isEmpty { samples.append((x1, altitudeDeg(of: l1.w), l1.geocentricKm)) }
            if h0 < 0, h1 >= 0, h1 - h0 < 180 {
                culminations.append((Self.solve(x0, x1) { hourAngle(slot, $0) }, true))
            } else if h0 > 0, h1 < 0, h0 - h1 > 180 {
                culminations.append((Self.solve(x0, x1) { x in
                    let h = hourAngle(slot, x)
                    return h > 0 ? h - 180 : h + 180
                }, false))
            }
            x0 = x1; h0 = h1
        }
        var out: [SkyEvent] = []
        func emit(_ kind: SkyEventKind, _ x: Double) {
            let h = azimuthAltitude(slot, x)
            out.append(SkyEvent(body: body, id: id, kind: kind, instant: start.addingTT(seconds: x), azimuthDeg: h.azimuthDeg, altitudeDeg: h.altitudeDeg))
        }
        if kinds.contains(.transit) {
            for c in culminations where c.upper { emit(.transit, c.x) }
        }
        if !pairs.isEmpty {
            let after = altitude(slot, spanSeconds + step)
            samples.append((spanSeconds + step, after.altitudeDeg, after.geocentricKm))
        }
        // Between neighbouring extrema of the altitude (and the span's ends) the altitude is
        // monotonic, so each crossing is bracketed there. The extrema are near the culminations
        // unless the declination's drift rivals the daily swing (the Moon beyond about 80°, the
        // Sun near a pole): then a brief excursion across the horizon can lie between two
        // culminations, so the culminations alone are not enough.
        let edges = pairs.isEmpty ? [] : ([0.0] + altitudeTurns(slot, samples, thresholds: pairs.map(\.altitude)) + [spanSeconds])
        for (k, threshold) in pairs.enumerated() {
            func f(_ x: Double) -> Double {
                let a = altitude(slot, x)
                return a.altitudeDeg - threshold.altitude(a.geocentricKm)
            }
            var crossings: [Double] = []
            var fa = f(edges[0])
            for j in 1..<edges.count {
                let a = edges[j - 1], b = edges[j]
                let fb = f(b)
                if (fa < 0) != (fb < 0), b > a {
                    let x = Self.solve(a, b, f)
                    crossings.append(x)
                    let kind = fa < 0 ? threshold.rising : threshold.setting
                    if kinds.contains(kind) { emit(kind, x) }
                }
                fa = fb
            }
            // The rise/set pair only: a turn of the sky (lower culmination to lower culmination)
            // with no crossing is a polar day or night, dated at its upper transit.
            guard k == 0, !kinds.isDisjoint(with: [.polarDay, .polarNight, .alwaysUp, .alwaysDown]) else { continue }
            for (j, c) in culminations.enumerated() where c.upper {
                let before = j > 0 ? culminations[j - 1].x : 0
                let after = j + 1 < culminations.count ? culminations[j + 1].x : spanSeconds
                guard !crossings.contains(where: { $0 >= before && $0 <= after }) else { continue }
                let up = f(c.x) > 0
                let kind: SkyEventKind = body == .sun ? (up ? .polarDay : .polarNight) : (up ? .alwaysUp : .alwaysDown)
                if kinds.contains(kind) { emit(kind, c.x) }
            }
        }
        return out
    }

    /// Where the airless altitude turns, in order, from its hourly `samples`: where their
    /// differences change sign, a turn lies within the two hours around the sample. A maximum
    /// whose sample is already above every threshold (a minimum below every one) cannot hide a
    /// crossing between the sample and the turn, so the sample serves as the divider; otherwise
    /// the root of the altitude's rate (a central difference over ±30 s) there is solved. Two
    /// turns within an hour or so (a wiggle of arcseconds) may be passed over.
    func altitudeTurns(_ slot: Int, _ samples: [(x: Double, altitudeDeg: Double, geocentricKm: Double)],
                       thresholds: [(Double) -> Double]) -> [Double] {
        func rate(_ x: Double) -> Double { altitude(slot, x + 30).altitudeDeg - altitude(slot, x - 30).altitudeDeg }
        var out: [Double] = []
        for i in samples.indices.dropFirst().dropLast() {
            let s = samples[i]
            let rising = s.altitudeDeg > samples[i - 1].altitudeDeg
            guard rising != (samples[i + 1].altitudeDeg > s.altitudeDeg) else { continue }
            let clear = thresholds.allSatisfy { rising ? s.altitudeDeg > $0(s.geocentricKm) : s.altitudeDeg < $0(s.geocentricKm) }
            let a = samples[i - 1].x, b = samples[i + 1].x
            let x = !clear && (rate(a) < 0) != (rate(b) < 0) ? Self.solve(a, b, rate) : s.x
            if x > 0, x < spanSeconds { out.append(x) }
        }
        return out.sorted()
    }

    /// The roots of `f` on [a, b], each bracketed by a scan at `step` seconds and solved to
    /// 0.05 s (two roots within one step are passed over).
    static func roots(from a: Double, to b: Double, step: Double, _ f: (Double) -> Double) -> [Double] {
        var out: [Double] = []
        var x0 = a, f0 = f(a)
        while x0 < b {
            let x1 = min(b, x0 + step), f1 = f(x1)
            if (f0 < 0) != (f1 < 0) { out.append(solve(x0, x1, f)) }
            x0 = x1; f0 = f1
        }
        return out
    }

    /// The local minima of `f` on [a, b]: where its rate (a difference over ±0.5 s) turns from
    /// falling to rising, bracketed by a scan at `step` seconds and solved to 0.05 s.
    static func minima(from a: Double, to b: Double, step: Double, _ f: (Double) -> Double) -> [Double] {
        func rate(_ x: Double) -> Double { f(x + 0.5) - f(x - 0.5) }
        return roots(from: a, to: b, step: step, rate).filter { rate($0 - 60) < 0 }
    }

    /// The least value of `f` on [a, b] (unimodal there) to `tolerance` seconds: golden-section
    /// search.
    static func minimum(_ a0: Double, _ b0: Double, tolerance: Double, _ f: (Double) -> Double) -> Double {
        let g = (5.0.squareRoot() - 1) / 2
        var lo = a0, hi = b0
        var c = hi - g * (hi - lo), d = lo + g * (hi - lo)
        var fc = f(c), fd = f(d)
        while hi - lo > tolerance {
            if fc < fd { hi = d; d = c; fd = fc; c = hi - g * (hi - lo); fc = f(c) } else { lo = c; c = d; fc = fd; d = lo + g * (hi - lo); fd = f(d) }
        }
        return (lo + hi) / 2
    }

    /// A root of `f` bracketed by [a, b] (f(a), f(b) of opposite signs, or the hour-angle
    /// functions above, continuous there), to 0.05 s: the Illinois variant of regula falsi.
    static func solve(_ a0: Double, _ b0: Double, _ f: (Double) -> Double) -> Double {
        var a = a0, b = b0
        var fa = f(a), fb = f(b)
        if fa == 0 { return a }
        if fb == 0 { return b }
        var side = 0
        var previous = Double.nan
        for _ in 0..<100 {
            let c = (fa * b - fb * a) / (fa - fb)
            guard c.isFinite, c > min(a, b), c < max(a, b) else { return (a + b) / 2 }
            if abs(c - previous) < 0.01 { return c }
            previous = c
            let fc = f(c)
            if abs(b - a) < 0.05 || fc == 0 { return c }
            if (fc < 0) == (fb < 0) {
                b = c; fb = fc
                if side == -1 { fa /= 2 }
                side = -1
            } else {
                a = c; fa = fc
                if side == 1 { fb /= 2 }
                side = 1
            }
            if abs(b - a) < 0.05 { return (fa * b - fb * a) / (fa - fb) }
        }
        return (a + b) / 2
    }
}
