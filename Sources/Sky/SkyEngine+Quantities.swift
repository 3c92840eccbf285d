import Glibc
import Ephemeris

/// Observer-table quantities (JPL Horizons' definitions, quoted in docs/horizons.md) from the
/// engine's states. Unlike the `/v1/sky` entry's classic fields, these are computed about the
/// solar-system barycentre as Horizons computes them: the light time is solved with the Sun's
/// barycentric motion (16 km at Ceres' 21 minutes) and aberration uses the observer's
/// barycentric velocity, where the DE kernel covers the instant (heliocentric elsewhere).
extension SkyEngine {
    /// The quantities of `target` seen from `site` at `time` that `wanted` asks for (see
    /// ``QuantitySet``); `refraction` nil gives airless places (Horizons' `APPARENT=AIRLESS`).
    /// `constellations` names the constellation (quantity 29) when given.
    public func quantities(_ target: QuantityTarget, from site: QuantitySite, at time: SkyTime, _ wanted: QuantitySet,
                           refraction: Atmosphere?, constellations: Constellations? = nil) -> ObserverQuantities {
        quantities(target, QuantityGeometry(sky: self, site: site, time: time), wanted, refraction: refraction, constellations: constellations)
    }

    /// The quantities of each of `targets` from one site at one instant: the Earth's
    /// orientation, the station and the Sun's and Moon's places, which every target's row
    /// shares, are found once (a table's row of ten bodies pays them once, not ten times).
    /// Each answer equals ``quantities(_:from:at:_:refraction:constellations:)``'s for its
    /// target, bit for bit.
    public func quantities(_ targets: [QuantityTarget], from site: QuantitySite, at time: SkyTime, _ wanted: QuantitySet,
                           refraction: Atmosphere?, constellations: Constellations? = nil) -> [ObserverQuantities] {
        let g = QuantityGeometry(sky: self, site: site, time: time)
        return targets.map { quantities($0, g, wanted, refraction: refraction, constellations: constellations) }
    }

    func quantities(_ target: QuantityTarget, _ g: QuantityGeometry, _ wanted: QuantitySet,
                    refraction: Atmosphere?, constellations: Constellations?) -> ObserverQuantities {
        var out = ObserverQuantities()
        let site = g.site, time = g.time
        let p = g.place(target.position, deflect: !target.isSun, shift: 0)
        let o = g.orientation
        let tod = o.gcrsToTrueOfDate * p.apparentDirection
        let apparent = Self.raDec(tod)
        let observer = site.observer
        let distanceKm = p.astrometricAU.length * Constants.auKm
        let tau = p.lightTimeS
        let bodySeconds = g.seconds - tau
        let c = SkyConstants.speedOfLightAUPerDay

        // The geometry most quantities share, at the light's departure.
        let targetVelocity = target.velocity(bodySeconds)
        let observerVelocity = g.station.velocityAUPerDay
        // The Sun where the target sees it when the light leaves: its place at the reflection's
        // own light time, displaced by the target's aberration (Horizons' "apparent center of the
        // Sun at reflection time"; 12″ for Ceres, which the phase angle and what follows from it
        // carry).
        let sunGeometric = -(p.bodyAU + g.sunBarycentricVelocityAUPerDay * (p.bodyAU.length / c))
        let sunFromTarget = target.isSun ? sunGeometric : sunGeometric + targetVelocity * (sunGeometric.length / c)
        let towardObserver = -p.astrometricAU
        let phase = target.isSun ? nil : sunFromTarget.angle(to: towardObserver) * Angle.degreesPerRadian
        let radii = target.radiiKm

        if wanted.contains(1) || wanted.contains(29) {
            let a = Self.raDec(p.astrometricAU)
            if wanted.contains(1) { (out.astrometricRADeg, out.astrometricDecDeg) = (a.raDeg, a.decDeg) }
            if wanted.contains(29) { out.constellation = constellations?.abbreviation(icrf: p.astrometricAU.normalized) }
        }
        var horizontal: (azimuthDeg: Double, altitudeDeg: Double, airlessAltitudeDeg: Double)?
        if let observer {
            horizontal = Self.horizontal(trueOfDate: tod, orientation: o, observer: observer, atmosphere: refraction)
        }
        if wanted.contains(2) {
            if let h = horizontal, refraction != nil, h.altitudeDeg != h.airlessAltitudeDeg, let observer {
                // Refraction lifts the place in the sky: the refracted direction back in the
                // equator of date (Horizons' R.A._(r-app)).
                let t = Self.terrestrialDirection(azimuthDeg: h.azimuthDeg, altitudeDeg: h.altitudeDeg, observer: observer)
                let r = Self.raDec(o.trueOfDateToTerrestrial.transposed * t)
                (out.apparentRADeg, out.apparentDecDeg) = (r.raDeg, r.decDeg)
            } else {
                (out.apparentRADeg, out.apparentDecDeg) = (apparent.raDeg, apparent.decDeg)
            }
        }
        if let h = horizontal, wanted.contains(4) { (out.azimuthDeg, out.elevationDeg) = (h.azimuthDeg, h.altitudeDeg) }
        if wanted.contains(any: 3, 5, 46, 47) {
            rates(target, g, p, distanceKm: distanceKm, wanted, refraction: refraction, into: &out)
        }
        if let observer {
            let last = Angle.normalizedDegrees(Angle.degrees(o.gastRadians) + observer.longitudeDeg)
            if wanted.contains(7) { out.localSiderealTimeHours = last / 15 }
            if wanted.contains(42) {
                var ha = Angle.normalizedDegrees(last - apparent.raDeg)
                if ha > 180 { ha -= 360 }
                out.hourAngleHours = ha / 15
            }
            if wanted.contains(35) { out.siteLightTimeMinutes = observer.terrestrialKm.length / Constants.speedOfLightKmPerSecond / 60 }
            if wanted.contains(8), let h = horizontal {
                let refracted = Refraction.apparentAltitudeDeg(trueAltitudeDeg: h.airlessAltitudeDeg, temperatureC: SkyConstants.standardTemperatureC,
                                                               pressureHPa: SkyConstants.standardPressureHPa)
                if let x = Airmass.relative(apparentAltitudeDeg: refracted) {
                    out.airmass = x
                    out.extinctionMag = x * Airmass.extinctionCoefficient(heightKm: observer.elevationM / 1000)
                }
            }
        }

        // The Sun seen from the site: elongation, solar time, the presence flags.
        let needsSun = wanted.contains(any: 23, 34) || observer != nil
        if needsSun, !target.isSun {
            let sun = g.sunPlace
            let sunTOD = o.gcrsToTrueOfDate * sun.apparentDirection
            let sunRA = Self.raDec(sunTOD).raDeg
            if wanted.contains(23) {
                if case .body(_, true, _) = site {
                    out.elongationCode = "/*"
                } else {
                    out.solarElongationDeg = p.apparentDirection.angle(to: sun.apparentDirection) * Angle.degreesPerRadian
                    let east = Angle.normalizedDegrees(apparent.raDeg - sunRA)
                    out.elongationCode = east == 0 || east == 180 ? "/?" : (east < 180 ? "/T" : "/L")
                }
            }
            if let observer {
                let last = Angle.normalizedDegrees(Angle.degrees(o.gastRadians) + observer.longitudeDeg)
                if wanted.contains(34) { out.localSolarTimeHours = Angle.normalizedDegrees(last - sunRA + 180) / 15 }
                let sunH = Self.horizontal(trueOfDate: sunTOD, orientation: o, observer: observer, atmosphere: .standard)
                let semidiameter = asin(min(1, SkyConstants.sunRadiusKm / (sun.astrometricAU.length * Constants.auKm))) * Angle.degreesPerRadian
                out.solarPresence = sunH.altitudeDeg + semidiameter >= 0 ? "*"
                    : sunH.airlessAltitudeDeg >= SkyConstants.civilTwilightDeg ? "C"
                    : sunH.airlessAltitudeDeg >= SkyConstants.nauticalTwilightDeg ? "N"
                    : sunH.airlessAltitudeDeg >= SkyConstants.astronomicalTwilightDeg ? "A" : " "
            }
        } else if target.isSun, let observer, wanted.contains(34) {
            let last = Angle.normalizedDegrees(Angle.degrees(o.gastRadians) + observer.longitudeDeg)
            out.localSolarTimeHours = Angle.normalizedDegrees(last - apparent.raDeg + 180) / 15
        }
        if target.isSun, observer != nil, let h = horizontal {
            let semidiameter = asin(min(1, SkyConstants.sunRadiusKm / distanceKm)) * Angle.degreesPerRadian
            let refracted = Refraction.apparentAltitudeDeg(trueAltitudeDeg: h.airlessAltitudeDeg, temperatureC: SkyConstants.standardTemperatureC,
                                                           pressureHPa: SkyConstants.standardPressureHPa)
            out.solarPresence = refracted + semidiameter >= 0 ? "*"
                : h.airlessAltitudeDeg >= SkyConstants.civilTwilightDeg ? "C"
                : h.airlessAltitudeDeg >= SkyConstants.nauticalTwilightDeg ? "N"
                : h.airlessAltitudeDeg >= SkyConstants.astronomicalTwilightDeg ? "A" : " "
        }

        // The Moon seen from the site: lunar elongation, the Moon's phase, its presence flag.
        if (wanted.contains(25) || observer != nil), target.body != .moon {
            let moon = g.moonPlace
            if wanted.contains(25) {
                var angle = p.apparentDirection.angle(to: moon.apparentDirection) * Angle.degreesPerRadian
                let moonRadius = asin(min(1, SkyConstants.moonRadiusKm / (moon.astrometricAU.length * Constants.auKm))) * Angle.degreesPerRadian
                if angle < moonRadius, distanceKm > moon.astrometricAU.length * Constants.auKm { angle = -angle }
                out.lunarElongationDeg = angle
                let moonPhase = (-moon.bodyAU).angle(to: -moon.astrometricAU)
                out.moonIlluminatedPercent = 50 * (1 + cos(moonPhase))
            }
            if let observer {
                let moonTOD = o.gcrsToTrueOfDate * moon.apparentDirection
                let mh = Self.horizontal(trueOfDate: moonTOD, orientation: o, observer: observer, atmosphere: .standard)
                let semidiameter = asin(min(1, SkyConstants.moonRadiusKm / (moon.astrometricAU.length * Constants.auKm))) * Angle.degreesPerRadian
                out.lunarPresence = mh.altitudeDeg + semidiameter >= 0 ? "m" : " "
            }
        } else if target.body == .moon, let h = horizontal {
            out.lunarPresence = h.altitudeDeg + asin(min(1, SkyConstants.moonRadiusKm / distanceKm)) * Angle.degreesPerRadian >= 0 ? "m" : " "
        }

        // Size, phase and brightness.
        let diameter = radii.map { 2 * asin(min(1, $0.equatorial / distanceKm)) * Angle.degreesPerRadian * 3600 }
        let fraction = phase.map { (1 + cos($0 * Angle.radiansPerDegree)) / 2 }
        if wanted.contains(13) { out.angularDiameterArcsec = diameter }
        if wanted.contains(10) { out.illuminatedPercent = fraction.map { $0 * 100 } }
        if wanted.contains(11), let d = diameter, let k = fraction { out.defectOfIlluminationArcsec = d * (1 - k) }
        if wanted.contains(24), !target.isSun { out.sunTargetObserverDeg = sunFromTarget.angle(to: -p.apparentDirection) * Angle.degreesPerRadian }
        if wanted.contains(43), let phase {
            out.phaseAngleDeg = phase
            let bisector = Precession.equatorialToEclipticJ2000 * ((-sunFromTarget).normalized + p.astrometricAU.normalized)
            let lonLat = Self.longitudeLatitude(bisector)
            (out.bisectorLongitudeDeg, out.bisectorLatitudeDeg) = (lonLat.lon, lonLat.lat)
        }
        if wanted.contains(9) {
            out.magnitude = magnitude(target, sunDistanceAU: sunGeometric.length, distanceAU: p.astrometricAU.length, phaseDeg: phase ?? 0,
                                      bodySeconds: bodySeconds, toObserver: towardObserver, toSun: sunFromTarget, time: time)
            if let v = out.magnitude, let d = diameter, let k = fraction, k > 0 {
                out.surfaceBrightness = v + 2.5 * log10(k * Double.pi * (d / 2) * (d / 2))
            }
        }

        // Ranges, rates and speeds.
        if wanted.contains(18) {
            let e = Self.longitudeLatitude(Precession.equatorialToEclipticJ2000 * p.bodyAU)
            (out.heliocentricEclipticLongitudeDeg, out.heliocentricEclipticLatitudeDeg) = (e.lon, e.lat)
        }
        let kmPerSecond = Constants.auKm / Constants.secondsPerDay
        if wanted.contains(19), !target.isSun {
            out.sunRangeAU = sunGeometric.length
            out.sunRangeRateKmS = p.bodyAU.normalized.dot(targetVelocity) * kmPerSecond
        }
        if wanted.contains(20) || wanted.contains(47) {
            let u = p.astrometricAU.normalized
            let relative = targetVelocity - observerVelocity
            let rate = u.dot(relative) / (1 + u.dot(targetVelocity) / c) * kmPerSecond
            if wanted.contains(20) { (out.rangeAU, out.rangeRateKmS) = (p.astrometricAU.length, rate) }
            if wanted.contains(47) {
                let speed = relative.length * kmPerSecond
                out.relativeVelocityAngleDeg = speed > 0 ? asin(max(-1, min(1, rate / speed))) * Angle.degreesPerRadian : nil
            }
        }
        if wanted.contains(21) { out.lightTimeMinutes = tau / 60 }
        if wanted.contains(22) {
            out.speedWrtSunKmS = targetVelocity.length * kmPerSecond
            out.speedWrtObserverKmS = (targetVelocity - observerVelocity).length * kmPerSecond
        }

        // Directions on the sky of the solar radius vector and the orbit.
        if wanted.contains(27), !target.isSun {
            out.sunPositionAngleDeg = Self.positionAngle(p.bodyAU, at: p.astrometricAU)
            out.velocityPositionAngleDeg = Self.positionAngle(-targetVelocity, at: p.astrometricAU)
        }
        let orbitNormal = p.bodyAU.cross(targetVelocity)
        if wanted.contains(28), !target.isSun, orbitNormal.length > 0 {
            let n = (orbitNormal.z >= 0 ? orbitNormal : -orbitNormal).normalized
            out.orbitPlaneAngleDeg = asin(max(-1, min(1, n.dot(towardObserver.normalized)))) * Angle.degreesPerRadian
        }
        if wanted.contains(26), !target.isSun {
            let primary = target.primary?(bodySeconds) ?? .zero
            let a = (g.station.positionAU - primary), b = (p.bodyAU - primary)
            if a.length > 0, b.length > 0 { out.observerPrimaryTargetDeg = a.angle(to: b) * Angle.degreesPerRadian }
        }
        if wanted.contains(41), !target.isSun, p.bodyAU.length > 0 {
            out.trueAnomalyDeg = Self.trueAnomalyDeg(position: p.bodyAU, velocity: targetVelocity)
        }

        // Frames: the ecliptic of date, the galaxy, the inertial apparent place, the time scales.
        if wanted.contains(31) {
            let epsilon = o.meanObliquityRadians + o.nutationEpsilonRadians
            let e = Self.longitudeLatitude(Matrix3.rotationX(-epsilon) * tod)
            (out.observerEclipticLongitudeDeg, out.observerEclipticLatitudeDeg) = (e.lon, e.lat)
        }
        if wanted.contains(33) {
            let gal = Self.longitudeLatitude(Self.icrfToGalactic * p.apparentDirection)
            (out.galacticLongitudeDeg, out.galacticLatitudeDeg) = (gal.lon, gal.lat)
        }
        if wanted.contains(45) {
            let i = Self.raDec(p.apparentDirection)
            (out.inertialApparentRADeg, out.inertialApparentDecDeg) = (i.raDeg, i.decDeg)
        }
        if wanted.contains(30) { out.tdbMinusUTSeconds = time.instant.ttMinusUTCSeconds + time.instant.tdbMinusTTSeconds }

        // The target's own frame: sub-points, pole, L_s.
        if let orientation = target.orientation, wanted.contains(any: 14, 15, 16, 17, 32, 44) {
            let m = orientation(bodySeconds)
            let pole = Vector3(m.r0.z, m.r1.z, m.r2.z)
            let los = p.astrometricAU.normalized
            if wanted.contains(32) {
                let d = Self.raDec(pole)
                (out.northPoleRADeg, out.northPoleDecDeg) = (d.raDeg, d.decDeg)
            }
            let flattening = radii.map { 1 - $0.polar / $0.equatorial } ?? 0
            if wanted.contains(14) {
                let s = Self.subPoint(m.transposed * towardObserver, flattening: flattening, west: target.westLongitudes)
                (out.observerSubLongitudeDeg, out.observerSubLatitudeDeg) = (target.primeMeridianKnown ? s.lon : nil, s.lat)
            }
            if wanted.contains(15), !target.isSun {
                let s = Self.subPoint(m.transposed * sunFromTarget, flattening: flattening, west: target.westLongitudes)
                (out.sunSubLongitudeDeg, out.sunSubLatitudeDeg) = (target.primeMeridianKnown ? s.lon : nil, s.lat)
            }
            let todFromICRF = o.gcrsToTrueOfDate
            if wanted.contains(16), !target.isSun, let r = radii {
                let s = sunFromTarget.normalized
                out.subSolarPositionAngleDeg = Self.positionAngle(todFromICRF * s, at: todFromICRF * los)
                let sine = (1 - min(1, s.dot(los) * s.dot(los))).squareRoot()
                let d = r.equatorial * sine / distanceKm / Angle.radiansPerArcsecond
                out.subSolarDistanceArcsec = s.dot(-los) >= 0 ? d : -d
            }
            if wanted.contains(17), let r = radii {
                out.northPolePositionAngleDeg = Self.positionAngle(todFromICRF * pole, at: todFromICRF * los)
                let sine = (1 - min(1, pole.dot(los) * pole.dot(los))).squareRoot()
                let d = r.polar * sine / distanceKm / Angle.radiansPerArcsecond
                out.northPoleDistanceArcsec = pole.dot(-los) >= 0 ? d : -d
            }
            if wanted.contains(44), !target.isSun, orbitNormal.length > 0 {
                let n = orbitNormal.normalized
                let equinox = pole.cross(n)
                if equinox.length > 1e-9 {
                    let e = equinox.normalized
                    let s = sunFromTarget.normalized
                    out.solarLongitudeDeg = Angle.normalizedDegrees(atan2(n.cross(e).dot(s), e.dot(s)) * Angle.degreesPerRadian)
                }
            }
        }
        return out
    }

    /// A place on the Earth (or its centre), heliocentric ICRF: AU and AU/day.
    public func siteState(_ observer: Observer?, at time: SkyTime) -> (positionAU: Vector3, velocityAUPerDay: Vector3) {
        let seconds = time.instant.daysSinceJ2000TDB * Constants.secondsPerDay
        return QuantityGeometry.station(sky: self, site: observer.map { .earth($0) } ?? .geocenter, seconds: seconds,
                                        orientation: EarthOrientation(time: time), gastShift: 0)
    }

    /// Quantities 3, 5, 46 and 47: the apparent place's rates by a central difference over ±h
    /// (30 s, less for a target moving fast across the sky), the of-date frame held at the
    /// instant's (its own precession, 0.006″ an hour, is left out).
    func rates(_ target: QuantityTarget, _ g: QuantityGeometry, _ p: ApparentPlace, distanceKm: Double, _ wanted: QuantitySet,
               refraction: Atmosphere?, into out: inout ObserverQuantities) {
        let speedKmS = (target.velocity(g.seconds) - g.station.velocityAUPerDay).length * Constants.auKm / Constants.secondsPerDay
        let h = max(0.05, min(30, 0.002 * distanceKm / max(speedKmS, 1e-9)))
        let before = g.place(target.position, deflect: !target.isSun, shift: -h)
        let after = g.place(target.position, deflect: !target.isSun, shift: h)
        let o = g.orientation
        let perHour = 3600 / (2 * h) / Angle.radiansPerArcsecond
        func rate(_ a: Vector3, _ b: Vector3, at center: Vector3) -> (ra: Double, dec: Double) {
            // The change of direction resolved along east and north at the centre: dRA·cos(Dec), dDec.
            let (east, north) = Self.eastNorth(center)
            let d = b - a
            return (d.dot(east) * perHour, d.dot(north) * perHour)
        }
        if wanted.contains(3) {
            let r = rate(o.gcrsToTrueOfDate * before.apparentDirection, o.gcrsToTrueOfDate * after.apparentDirection, at: o.gcrsToTrueOfDate * p.apparentDirection)
            (out.raRateArcsecPerHour, out.decRateArcsecPerHour) = (r.ra, r.dec)
        }
        if wanted.contains(46) || wanted.contains(47) {
            let r = rate(before.apparentDirection, after.apparentDirection, at: p.apparentDirection)
            if wanted.contains(46) { (out.inertialRARateArcsecPerHour, out.inertialDecRateArcsecPerHour) = (r.ra, r.dec) }
            if wanted.contains(47) {
                out.skyMotionArcsecPerMinute = (r.ra * r.ra + r.dec * r.dec).squareRoot() / 60
                out.skyMotionPositionAngleDeg = Angle.normalizedDegrees(atan2(r.ra, r.dec) * Angle.degreesPerRadian)
            }
        }
        if wanted.contains(5), let observer = g.site.observer {
            let a = Self.horizontal(trueOfDate: o.gcrsToTrueOfDate * before.apparentDirection, orientation: g.shifted(-h), observer: observer, atmosphere: nil)
            let b = Self.horizontal(trueOfDate: o.gcrsToTrueOfDate * after.apparentDirection, orientation: g.shifted(h), observer: observer, atmosphere: nil)
            let c = Self.horizontal(trueOfDate: o.gcrsToTrueOfDate * p.apparentDirection, orientation: o, observer: observer, atmosphere: nil)
            let perMinute = 60 / (2 * h) * 3600
            var turn = Angle.normalizedDegrees(b.azimuthDeg - a.azimuthDeg)
            if turn > 180 { turn -= 360 }
            out.azimuthRateArcsecPerMinute = turn * cos(c.altitudeDeg * Angle.radiansPerDegree) * perMinute
            out.elevationRateArcsecPerMinute = (b.altitudeDeg - a.altitudeDeg) * perMinute
        }
    }

    /// The magnitude of quantity 9 (nil where no law applies).
    func magnitude(_ target: QuantityTarget, sunDistanceAU r: Double, distanceAU d: Double, phaseDeg: Double, bodySeconds: Double,
                   toObserver: Vector3, toSun: Vector3, time: SkyTime) -> Double? {
        switch target.brightness {
        case let .engine(body):
            var subLatitudes = (sun: 0.0, observer: 0.0)
            if body == .saturn || body == .uranus, let orientation = target.orientation {
                let m = orientation(bodySeconds)
                let pole = Vector3(m.r0.z, m.r1.z, m.r2.z)
                func latitude(_ v: Vector3) -> Double { asin(max(-1, min(1, pole.dot(v.normalized)))) * Angle.degreesPerRadian }
                subLatitudes = (latitude(toSun), latitude(toObserver))
            }
            let year = 2000 + time.instant.daysSinceJ2000TDB / 365.25
            return Photometry.magnitude(body, sunDistanceAU: r, observerDistanceAU: d, phaseDeg: phaseDeg, subLatitudesDeg: subLatitudes, year: year)
        case let .asteroid(h, g):
            let v = SmallBodyBrightness.hg(h: h, g: g).magnitude(sunDistanceAU: r, observerDistanceAU: d, phaseDeg: phaseDeg)
            // Horizons rounds beyond 120° of phase, where the H-G law is a guess.
            return phaseDeg > 120 ? v.rounded() : v
        case let .comet(m1, k1):
            return SmallBodyBrightness.comet(m1: m1, k1: k1).magnitude(sunDistanceAU: r, observerDistanceAU: d, phaseDeg: phaseDeg)
        case .none:
            return nil
        }
    }

    /// ICRS → galactic (the IAU 1958 system as the Hipparcos catalogue realised it in the ICRS,
    /// ESA 1997 vol. 1 §1.5.3: the north galactic pole at 192.85948°, +27.12825° and the
    /// galactic centre's longitude of the north celestial pole 122.93192°).
    public static let icrfToGalactic = Matrix3(rows: Vector3(-0.0548755604162154, -0.8734370902348850, -0.4838350155487132),
                                               Vector3(0.4941094278755837, -0.4448296299600112, 0.7469822444972189),
                                               Vector3(-0.8676661490190047, -0.1980763734312015, 0.4559837761750669))

    /// Longitude in [0, 360) and latitude of a vector, degrees.
    static func longitudeLatitude(_ v: Vector3) -> (lon: Double, lat: Double) {
        let r = raDec(v)
        return (r.raDeg, r.decDeg)
    }

    /// Unit vectors toward increasing right ascension and declination at a direction.
    static func eastNorth(_ direction: Vector3) -> (east: Vector3, north: Vector3) {
        let u = direction.normalized
        let z = Vector3(0, 0, 1)
        var east = z.cross(u)
        if east.length < 1e-12 { east = Vector3(0, 1, 0) }
        east = east.normalized
        return (east, u.cross(east))
    }

    /// The position angle (east of north, [0, 360)) of vector `v` seen at `direction`, both in
    /// one frame (its pole is the north the angle counts from).
    static func positionAngle(_ v: Vector3, at direction: Vector3) -> Double {
        let (east, north) = eastNorth(direction)
        return Angle.normalizedDegrees(atan2(v.dot(east), v.dot(north)) * Angle.degreesPerRadian)
    }

    /// Planetodetic longitude (west- or east-positive, [0, 360)) and latitude of the point under
    /// a body-fixed direction, on a spheroid of the given flattening.
    static func subPoint(_ v: Vector3, flattening f: Double, west: Bool) -> (lon: Double, lat: Double) {
        let eastLongitude = atan2(v.y, v.x) * Angle.degreesPerRadian
        let lon = Angle.normalizedDegrees(west ? -eastLongitude : eastLongitude)
        let rho = (v.x * v.x + v.y * v.y).squareRoot()
        let lat = atan2(v.z, rho * (1 - f) * (1 - f)) * Angle.degreesPerRadian
        return (lon, lat)
    }

    /// The true anomaly (degrees, [0, 360)) of the heliocentric two-body orbit through a state
    /// (AU, AU/day), with the Sun's GM.
    static func trueAnomalyDeg(position r: Vector3, velocity v: Vector3) -> Double {
        let mu = GravitationalParameter.sunAU3PerDay2
        let h = r.cross(v)
        let e = v.cross(h) / mu - r.normalized
        guard e.length > 1e-12 else { return 0 }
        var nu = acos(max(-1, min(1, e.normalized.dot(r.normalized))))
        if r.dot(v) < 0 { nu = 2 * .pi - nu }
        return nu * Angle.degreesPerRadian
    }

    /// The terrestrial direction of an azimuth and an altitude at a site.
    static func terrestrialDirection(azimuthDeg: Double, altitudeDeg: Double, observer: Observer) -> Vector3 {
        let a = azimuthDeg * Angle.radiansPerDegree, h = altitudeDeg * Angle.radiansPerDegree
        return observer.north * (cos(h) * cos(a)) + observer.east * (cos(h) * sin(a)) + observer.up * sin(h)
    }
}

/// The observer's station and the light-time solution of one row, about the solar-system
/// barycentre where the kernel covers the instant; the Sun's and the Moon's places, found the
/// first time a target needs them and shared by every target of the row. One caller at a time.
final class QuantityGeometry {
    let sky: SkyEngine
    let site: QuantitySite
    let time: SkyTime
    let orientation: EarthOrientation
    let seconds: Double
    let station: (positionAU: Vector3, velocityAUPerDay: Vector3)
    /// The Sun's velocity about the barycentre (zero without a kernel), AU/day.
    let sunBarycentricVelocityAUPerDay: Vector3
    /// The Sun's apparent place from the station (undeflected).
    lazy var sunPlace: ApparentPlace = place({ _ in .zero }, deflect: false, shift: 0)
    /// The Moon's apparent place from the station.
    lazy var moonPlace: ApparentPlace = place({ [sky] s in sky.heliocentricICRF(.moon, tdbSeconds: s) }, deflect: true, shift: 0)

    init(sky: SkyEngine, site: QuantitySite, time: SkyTime) {
        self.sky = sky
        self.site = site
        self.time = time
        orientation = EarthOrientation(time: time)
        seconds = time.instant.daysSinceJ2000TDB * Constants.secondsPerDay
        let toICRF = Precession.eclipticToEquatorialJ2000
        if let k = sky.ephemeris.kernel, k.spanSeconds.contains(seconds) {
            let sun = k.sunBarycentricState(secondsPastJ2000: seconds)
            sunBarycentricVelocityAUPerDay = toICRF * sun.velocityKmPerSecond * (Constants.secondsPerDay / Constants.auKm)
        } else {
            sunBarycentricVelocityAUPerDay = .zero
        }
        station = Self.station(sky: sky, site: site, seconds: seconds, orientation: orientation, gastShift: 0)
    }

    /// The station (heliocentric ICRF AU, AU/day) `gastShift` seconds from the row's instant.
    static func station(sky: SkyEngine, site: QuantitySite, seconds s: Double, orientation o: EarthOrientation, gastShift h: Double)
        -> (positionAU: Vector3, velocityAUPerDay: Vector3) {
        switch site {
        case let .body(_, _, state):
            return state(s)
        case .geocenter, .earth:
            let toICRF = Precession.eclipticToEquatorialJ2000
            let earth: StateVector
            if let k = sky.ephemeris.kernel, k.spanSeconds.contains(s) {
                earth = k.heliocentricState(.earth, secondsPastJ2000: s)
            } else {
                earth = sky.ephemeris.state(.earth, at: TimeScale.instant(tdbSecondsPastJ2000: s))
            }
            var position = toICRF * earth.positionAU, velocity = toICRF * earth.velocityAUPerDay
            if case let .earth(observer) = site {
                let gast = o.gastRadians + h * SkyConstants.earthRotationRadiansPerSecond
                let toGCRS = o.gcrsToTrueOfDate.transposed
                let rTOD = Matrix3.rotationZ(gast) * (o.polarMotion.transposed * observer.terrestrialKm)
                let vTOD = Vector3(0, 0, SkyConstants.earthRotationRadiansPerSecond).cross(rTOD)
                position += toGCRS * rTOD / Constants.auKm
                velocity += toGCRS * vTOD * (Constants.secondsPerDay / Constants.auKm)
            }
            return (position, velocity)
        }
    }

    /// The Earth's orientation `h` seconds from the row's instant: the same precession and
    /// nutation, the sidereal angle moved on.
    func shifted(_ h: Double) -> EarthOrientation {
        EarthOrientation(shifting: orientation, bySeconds: h)
    }

    /// A target's apparent place `shift` seconds from the row's instant (light time to 1 ns,
    /// the Sun's barycentric motion over it, the Sun's deflection, aberration with the observer's
    /// barycentric velocity).
    func place(_ position: (Double) -> Vector3, deflect: Bool, shift: Double) -> ApparentPlace {
        let s = seconds + shift
        let o = shift == 0 ? station : Self.station(sky: sky, site: site, seconds: s, orientation: orientation, gastShift: shift)
        let vSun = sunBarycentricVelocityAUPerDay / Constants.secondsPerDay
        var tau = 0.0
        var b = position(s)
        var p = b - o.positionAU
        for _ in 0..<10 {
            let next = p.length * SkyConstants.lightTimePerAUSeconds
            let settled = abs(next - tau) < 1e-9
            tau = next
            b = position(s - tau)
            p = b - o.positionAU - vSun * tau
            if settled { break }
        }
        var direction = p.normalized
        if deflect { direction = ApparentPlace.deflected(direction, bodyAU: b, observerAU: o.positionAU) }
        let velocity = o.velocityAUPerDay + sunBarycentricVelocityAUPerDay
        return ApparentPlace(bodyAU: b, astrometricAU: p, apparentDirection: ApparentPlace.aberrated(direction, velocityAUPerDay: velocity), lightTimeS: tau)
    }
}

extension EarthOrientation {
    /// `o` `h` seconds later for the Earth's spin only (the sidereal angle and the rotation angle).
    init(shifting o: EarthOrientation, bySeconds h: Double) {
        let turn = h * SkyConstants.earthRotationRadiansPerSecond
        self.init(gcrsToTrueOfDate: o.gcrsToTrueOfDate, gastRadians: Self.wrapped(o.gastRadians + turn), eraRadians: Self.wrapped(o.eraRadians + turn),
                  meanObliquityRadians: o.meanObliquityRadians, nutationPsiRadians: o.nutationPsiRadians,
                  nutationEpsilonRadians: o.nutationEpsilonRadians, polarMotion: o.polarMotion)
    }
}
