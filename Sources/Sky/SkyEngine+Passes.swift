import Glibc
import Ephemeris
import Satellites

extension SkyEngine {
    /// The longest span one satellite's passes are searched over, days: beyond a month an
    /// element set is far past its use (docs/satellites.md, "Accuracy").
    public static let maxPassSpanDays = 31.0
    /// Default minimum altitude of a pass, degrees (what Heavens-Above and most predictors list).
    public static let defaultPassMinAltitudeDeg = 10.0

    /// The passes of a satellite over `observer` whose culmination lies in `start`…`stop`, above
    /// `minAltitudeDeg` (geometric altitude, no refraction, as Skyfield's `find_events`).
    ///
    /// The search: the altitude sampled from half an orbit (at most 12 h) before `start` to half
    /// an orbit after `stop` — every 60 s for a near-Earth orbit (period under 225 min), and for
    /// a deep-space one as often as its motion across the observer's sky asks: steps that keep
    /// it within ``PassTrack/deepSpaceSampleDegrees`` of the previous sample, from 60 s up to
    /// a twentieth of the period (a geostationary satellite: 72 min), growing at most twofold a
    /// step; each local maximum of the samples refined by golden-section search to 0.01 s;
    /// where it clears the minimum altitude, the crossings on either side bracketed by the
    /// samples and solved by bisection to 0.01 s. The altitude is SGP4's TEME position turned to
    /// the Earth-fixed frame by GMST (IAU 1982, the angle TEME is defined with) at UT1 from the
    /// ΔT table, minus the observer's WGS 84 position.
    ///
    /// `interrupt` is asked between samples and refinements; what it throws ends the search.
    public func passes(_ sgp4: SGP4, from observer: Observer, start: Instant, stop: Instant,
                       minAltitudeDeg: Double = SkyEngine.defaultPassMinAltitudeDeg,
                       interrupt: Interrupt = .never) throws(SkySearchError) -> [SatellitePass] {
        let span = stop.seconds(since: start)
        guard span > 0 else { return [] }
        let periodS = 86_400 / max(sgp4.elements.meanMotionRevPerDay, 0.05)
        let deepSpace = periodS >= PassTrack.deepSpacePeriodSeconds
        let minStep = min(PassTrack.nearEarthSampleSeconds, periodS / 20)
        let maxStep = deepSpace ? periodS / 20 : minStep
        let margin = min(periodS / 2, 43_200)
        let track = PassTrack(sky: self, sgp4: sgp4, observer: observer, origin: start.adding(seconds: -margin), spanSeconds: span + 2 * margin,
                              visibilityStep: deepSpace ? PassTrack.deepSpaceVisibilityStep : PassTrack.visibilityStep, interrupt: interrupt)
        var xs: [Double] = [], altitude: [Double] = []
        var previous: PassTrack.Look?
        var step = minStep
        var x = 0.0
        while true {
            try interrupt.checkSearch()
            let look = try track.look(x)
            xs.append(x)
            altitude.append(look.altitudeDeg)
            if x >= track.spanSeconds { break }
            if deepSpace, let p = previous {
                // The angle moved since the previous sample, as a rate, sets the next step.
                let rate = acos(max(-1, min(1, p.directionUnit.dot(look.directionUnit)))) * Angle.degreesPerRadian / (x - p.x)
                step = rate > 0 ? max(minStep, min(maxStep, 2 * step, PassTrack.deepSpaceSampleDegrees / rate)) : min(maxStep, 2 * step)
            }
            previous = look
            x = min(x + step, track.spanSeconds)
        }
        let count = xs.count - 1

        var passes: [SatellitePass] = []
        var lastSetBracket = -1
        for k in 1..<max(1, count) where altitude[k - 1] < altitude[k] && altitude[k] >= altitude[k + 1] {
            try interrupt.checkSearch()
            let peak = try track.maximum(xs[k - 1], xs[k + 1])
            guard peak.altitudeDeg >= minAltitudeDeg else { continue }
            // The samples below the minimum on either side of the peak bracket the rise and the set.
            var i = peak.x >= xs[k] ? k : k - 1
            while i >= 0, altitude[i] >= minAltitudeDeg { i -= 1 }
            var j = peak.x <= xs[k] ? k : k + 1
            while j <= count, altitude[j] >= minAltitudeDeg { j += 1 }
            let setBracket = j <= count ? (max(xs[j - 1], peak.x), xs[j]) : nil
            if j == lastSetBracket {
                // The same time above the minimum as the previous maximum: keep the higher one.
                if let last = passes.last, peak.altitudeDeg > last.culmination.altitudeDeg {
                    passes[passes.count - 1] = try track.pass(rise: last.rise, peak: peak, setBracket: setBracket, minAltitudeDeg: minAltitudeDeg)
                }
                continue
            }
            lastSetBracket = j
            let riseBracket = i >= 0 ? (xs[i], min(xs[i + 1], peak.x)) : nil
            let rise = try riseBracket.map { b throws(SkySearchError) in try track.crossing(b.0, b.1, minAltitudeDeg, rising: true) }
            passes.append(try track.pass(rise: rise, peak: peak, setBracket: setBracket, minAltitudeDeg: minAltitudeDeg))
        }
        return passes.filter { $0.culmination.instant >= start && $0.culmination.instant <= stop }
    }
}

/// One satellite's altitude and azimuth over an observer, as functions of seconds from `origin`.
struct PassTrack {
    let sky: SkyEngine
    let sgp4: SGP4
    let observer: Observer
    let origin: Instant
    let spanSeconds: Double
    let originMinutes: Double
    /// UT1 Julian date at `origin` (whole, fraction), and UT1 − UTC's drift over the span.
    let ut1Whole: Double
    let ut1Fraction: Double
    let ut1DriftPerSecond: Double
    let visibilityStep: Double
    let interrupt: Interrupt

    /// Seconds refinements stop at.
    static let tolerance = 0.01
    /// Orbits of this period or longer are SGP4's deep-space ones (225 min).
    static let deepSpacePeriodSeconds = 225.0 * 60
    /// The altitude's sampling for a near-Earth orbit, seconds (a pass above 10° lasts minutes).
    static let nearEarthSampleSeconds = 60.0
    /// The most a deep-space satellite may move across the observer's sky between two samples.
    static let deepSpaceSampleDegrees = 2.0
    /// Sampling of the visibility test inside a pass, seconds: near-Earth and deep-space (whose
    /// passes last hours, and whose entry into the Earth's shadow takes minutes).
    static let visibilityStep = 10.0
    static let deepSpaceVisibilityStep = 60.0
    /// The Sun's centre below this (degrees) is the observer's darkness for `visible`.
    static let darkSunAltitudeDeg = -6.0

    init(sky: SkyEngine, sgp4: SGP4, observer: Observer, origin: Instant, spanSeconds: Double,
         visibilityStep: Double = PassTrack.visibilityStep, interrupt: Interrupt = .never) {
        self.sky = sky; self.sgp4 = sgp4; self.observer = observer; self.origin = origin; self.spanSeconds = spanSeconds
        self.visibilityStep = visibilityStep; self.interrupt = interrupt
        originMinutes = sgp4.minutesSinceEpoch(instant: origin)
        let first = sky.time(origin), last = sky.time(origin.adding(seconds: spanSeconds))
        let utcFraction = origin.ttFraction - origin.ttMinusUTCSeconds / Constants.secondsPerDay
        ut1Whole = origin.ttWhole
        ut1Fraction = utcFraction + first.ut1MinusUTCSeconds / Constants.secondsPerDay
        ut1DriftPerSecond = spanSeconds > 0 ? (last.ut1MinusUTCSeconds - first.ut1MinusUTCSeconds) / spanSeconds : 0
    }

    struct Look {
        let x: Double
        let azimuthDeg: Double
        let altitudeDeg: Double
        let temeKm: Vector3
        /// From the observer toward the satellite, Earth-fixed.
        let directionUnit: Vector3
    }

    func instant(_ x: Double) -> Instant { origin.adding(seconds: x) }

    /// The satellite `x` seconds after the origin.
    func look(_ x: Double) throws(SkySearchError) -> Look {
        let teme: TEMEState
        do { teme = try sgp4.propagate(minutesSinceEpoch: originMinutes + x / 60) } catch {
            throw .propagation(SatellitePropagationFailure(instant: instant(x), error: error))
        }
        let fraction = ut1Fraction + x * (1 + ut1DriftPerSecond) / Constants.secondsPerDay
        let d = TEMEFrame.temeToEarthFixed(jdUT1Whole: ut1Whole, jdUT1Fraction: fraction) * teme.positionKm - observer.terrestrialKm
        let r = d.length
        let alt = asin(max(-1, min(1, d.dot(observer.up) / r))) * Angle.degreesPerRadian
        let az = Angle.normalizedDegrees(atan2(d.dot(observer.east), d.dot(observer.north)) * Angle.degreesPerRadian)
        return Look(x: x, azimuthDeg: az, altitudeDeg: alt, temeKm: teme.positionKm, directionUnit: d / r)
    }

    func point(_ l: Look) -> SatellitePass.Point {
        SatellitePass.Point(instant: instant(l.x), azimuthDeg: l.azimuthDeg, altitudeDeg: l.altitudeDeg)
    }

    /// Golden-section search for the highest altitude in `a`…`b`.
    func maximum(_ a: Double, _ b: Double) throws(SkySearchError) -> Look {
        let g = (5.0.squareRoot() - 1) / 2
        var a = a, b = b
        var c = b - g * (b - a), d = a + g * (b - a)
        var fc = try look(c), fd = try look(d)
        while b - a > Self.tolerance {
            try interrupt.checkSearch()
            if fc.altitudeDeg > fd.altitudeDeg {
                b = d; d = c; fd = fc
                c = b - g * (b - a); fc = try look(c)
            } else {
                a = c; c = d; fc = fd
                d = a + g * (b - a); fd = try look(d)
            }
        }
        return try look((a + b) / 2)
    }

    /// Bisection for the moment the altitude crosses `level` between `a` and `b`.
    func crossing(_ a: Double, _ b: Double, _ level: Double, rising: Bool) throws(SkySearchError) -> SatellitePass.Point {
        var a = a, b = b
        while b - a > Self.tolerance {
            let m = (a + b) / 2
            if (try look(m).altitudeDeg >= level) == rising { b = m } else { a = m }
        }
        return point(try look((a + b) / 2))
    }

    /// A pass from its rise and culmination, its set solved in `setBracket`, and its visibility.
    func pass(rise: SatellitePass.Point?, peak: Look, setBracket: (Double, Double)?, minAltitudeDeg: Double) throws(SkySearchError) -> SatellitePass {
        let set = try setBracket.map { b throws(SkySearchError) in try crossing(b.0, b.1, minAltitudeDeg, rising: false) }
        let from = rise.map { $0.instant.seconds(since: origin) } ?? 0
        let to = set.map { $0.instant.seconds(since: origin) } ?? spanSeconds
        let window = try visibility(from: from, to: to, around: peak.x)
        return SatellitePass(rise: rise, culmination: point(peak), set: set, minAltitudeDeg: minAltitudeDeg,
                             visibleFrom: window?.from, visibleTo: window?.to)
    }

    /// The first and last moments in `from`…`to` at which the satellite is sunlit and the
    /// observer's Sun below −6°: sampled every 10 s, the edges bisected to 0.01 s. The Sun's
    /// direction is taken once a pass (it moves 0.01° in a quarter of an hour against the stars)
    /// and turned with the Earth.
    func visibility(from: Double, to: Double, around x: Double) throws(SkySearchError) -> (from: SatellitePass.Point, to: SatellitePass.Point)? {
        let t = instant(x)
        let time = sky.time(t)
        let orientation = EarthOrientation(time: time)
        let sunICRFKm = -sky.earthICRF(t).position * Constants.auKm
        let sunTEMEKm = TEMEFrame.temeToICRF(jdTT: t.jdTT).transposed * sunICRFKm
        let sunTOD = orientation.gcrsToTrueOfDate * sunICRFKm
        let sunUp = sin(Self.darkSunAltitudeDeg * Angle.radiansPerDegree)
        func visible(_ y: Double) throws(SkySearchError) -> Bool {
            let gast = orientation.gastRadians + SkyConstants.earthRotationRadiansPerSecond * (y - x)
            let sun = (Matrix3.rotationZ(-gast) * sunTOD).normalized
            guard sun.dot(observer.up) < sunUp else { return false }
            return SGP4.illumination(satelliteKm: try look(y).temeKm, sunKm: sunTEMEKm) == .sunlit
        }
        func edge(_ a: Double, _ b: Double, visibleAtA: Bool) throws(SkySearchError) -> Double {
            var a = a, b = b
            while b - a > Self.tolerance {
                let m = (a + b) / 2
                if try visible(m) == visibleAtA { a = m } else { b = m }
            }
            return (a + b) / 2
        }
        guard to > from else { return nil }
        let n = max(1, Int(((to - from) / visibilityStep).rounded(.up)))
        var first: Double?, last: Double?
        var previous = (x: from, visible: try visible(from))
        if previous.visible { first = from }
        for k in 1...n {
            if k % 64 == 0 { try interrupt.checkSearch() }
            let y = k == n ? to : from + Double(k) * (to - from) / Double(n)
            let v = try visible(y)
            if v != previous.visible {
                let e = try edge(previous.x, y, visibleAtA: previous.visible)
                if v, first == nil { first = e }
                if !v { last = e }
            }
            if v, k == n { last = to }
            previous = (y, v)
        }
        guard let first, let last else { return nil }
        return (point(try look(first)), point(try look(last)))
    }
}
