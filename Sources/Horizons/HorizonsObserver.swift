import Glibc
import Ephemeris
import Sky

/// `EPHEM_TYPE=OBSERVER`: the quantities of `QUANTITIES` (``SkyEngine/quantities(_:from:at:_:refraction:constellations:)``)
/// in Horizons' columns — the CSV layout of its 2022 answers, column for column, `n.a.` where a
/// quantity does not apply or is not computed here (satellite offsets, uncertainties).
enum HorizonsObserver {
    /// One printed column: its header (right-aligned to the field's width) and its field.
    struct Column {
        let header: String
        let width: Int
        let write: @Sendable (ObserverQuantities, inout [UInt8]) -> Void
    }

    static func f(_ header: String, _ width: Int, _ decimals: Int, _ value: @escaping @Sendable (ObserverQuantities) -> Double?) -> Column {
        Column(header: header, width: width) { q, out in
            if let v = value(q) { NumberFormat.fixed(v, decimals: decimals, width: width, to: &out) } else { NumberFormat.pad("n.a.", width: width, to: &out) }
        }
    }

    static func g(_ header: String, _ width: Int, digits: Int, maxDecimals: Int, _ value: @escaping @Sendable (ObserverQuantities) -> Double?) -> Column {
        Column(header: header, width: width) { q, out in
            if let v = value(q) { NumberFormat.significant(v, digits: digits, maxDecimals: maxDecimals, width: width, to: &out) } else { NumberFormat.pad("n.a.", width: width, to: &out) }
        }
    }

    static func na(_ header: String, _ width: Int) -> Column {
        Column(header: header, width: width) { _, out in NumberFormat.pad("n.a.", width: width, to: &out) }
    }

    static func text(_ header: String, _ width: Int, _ value: @escaping @Sendable (ObserverQuantities) -> String?) -> Column {
        Column(header: header, width: width) { q, out in NumberFormat.pad(value(q) ?? "n.a.", width: width, to: &out) }
    }

    /// `HH MM SS.ff` (hours) or `sDD MM SS.f` (degrees).
    static func sexagesimal(_ header: String, _ width: Int, hours: Bool, decimals: Int, _ value: @escaping @Sendable (ObserverQuantities) -> Double?) -> Column {
        Column(header: header, width: width) { q, out in
            guard let v = value(q), v.isFinite else { return NumberFormat.pad("n.a.", width: width, to: &out) }
            let x = hours ? Angle.normalizedDegrees(v) / 15 : abs(v)
            let scale = HorizonsCalendar.pow10(decimals)
            var units = (x * 3600 * scale).rounded()
            if hours, units >= 24 * 3600 * scale { units -= 24 * 3600 * scale }
            let total = Int(units)
            let whole = total / Int(scale), frac = total % Int(scale)
            var s = ""
            if !hours { s += v < 0 ? "-" : "+" }
            s += HorizonsText.pad2(whole / 3600) + " " + HorizonsText.pad2((whole / 60) % 60) + " " + HorizonsText.pad2(whole % 60)
            if decimals > 0 { s += "." + HorizonsText.right(String(frac), decimals).replacingOccurrences(of: " ", with: "0") }
            NumberFormat.pad(s, width: width, to: &out)
        }
    }

    /// The columns of one quantity, as Horizons heads them.
    static func columns(_ n: Int, _ s: HorizonsSettings, comet: Bool) -> [Column] {
        let extra = s.extraPrecision
        let r = s.refracted ? "r" : "a"
        switch n {
        case 1:
            // FK4/B1950: the ICRF place turned by SPICE's fixed rotation, in the ICRF's widths.
            let fk4 = s.refSystem == .b1950
            let frame = fk4 ? "FK4/B1950" : "ICRF"
            let ra: @Sendable (ObserverQuantities) -> Double?, dec: @Sendable (ObserverQuantities) -> Double?
            if fk4 {
                (ra, dec) = ({ b1950($0)?.raDeg }, { b1950($0)?.decDeg })
            } else {
                (ra, dec) = ({ $0.astrometricRADeg }, { $0.astrometricDecDeg })
            }
            if !s.degrees {
                return [sexagesimal(" R.A._(\(frame))", 13, hours: true, decimals: extra ? 4 : 2, ra),
                        sexagesimal(" DEC_(\(frame))", 12, hours: false, decimals: extra ? 3 : 1, dec)]
            }
            return [f(" R.A._(\(frame))", extra ? 16 : 12, extra ? 9 : 5, ra), f(" DEC_(\(frame))", extra ? 15 : 11, extra ? 9 : 5, dec)]
        case 2:
            if !s.degrees {
                return [sexagesimal(" R.A._(\(r)-app)", 14, hours: true, decimals: extra ? 4 : 2) { $0.apparentRADeg },
                        sexagesimal(" DEC_(\(r)-app)", 13, hours: false, decimals: extra ? 3 : 1) { $0.apparentDecDeg }]
            }
            return [f(" R.A._(\(r)-app)", extra ? 17 : 13, extra ? 9 : 5) { $0.apparentRADeg }, f(" DEC_(\(r)-app)", extra ? 16 : 12, extra ? 9 : 5) { $0.apparentDecDeg }]
        case 3:
            return [g("  dRA*cosD", 10, digits: 7, maxDecimals: 5) { $0.raRateArcsecPerHour }, g(" d(DEC)/dt", 10, digits: 6, maxDecimals: 5) { $0.decRateArcsecPerHour }]
        case 4:
            // Horizons' recorded TLIST answers widen the azimuth column by one (`  Azi_(a-app)`).
            let azi = s.tlist != nil ? 13 : 12
            return [f(String(repeating: " ", count: azi - 11) + "Azi_(\(r)-app)", azi, 6) { $0.azimuthDeg }, f(" Elev_(\(r)-app)", 13, 6) { $0.elevationDeg }]
        case 5:
            return [f("  dAZ*cosE", 10, 2) { $0.azimuthRateArcsecPerMinute }, f(" d(ELV)/dt", 10, 2) { $0.elevationRateArcsecPerMinute }]
        case 6: return [na("   X_(sat-prim)", 15), na(" Y_(sat-prim)", 13), na(" SatPANG", 8)]
        case 7: return [f("  L_Ap_Sid_Time", 15, 10) { $0.localSiderealTimeHours }]
        case 8: return [f("  a-mass", 8, 3) { $0.airmass }, f(" mag_ex", 7, 3) { $0.extinctionMag }]
        case 9:
            if comet { return [f("    T-mag", 9, 3) { $0.magnitude }, na("   N-mag", 8)] }
            return [f("    APmag", 9, 3) { $0.magnitude }, f("  S-brt", 7, 3) { $0.surfaceBrightness }]
        case 10: return [f("      Illu%", 11, 5) { $0.illuminatedPercent }]
        case 11: return [f("  Def_illu", 10, 4) { $0.defectOfIlluminationArcsec }]
        case 12: return [na("  ang-sep", 9), na(" vis.", 5)]
        case 13: return [f("  Ang-diam", 10, 6) { $0.angularDiameterArcsec }]
        case 14: return [f("  ObsSub-LON", 12, 6) { $0.observerSubLongitudeDeg }, f(" ObsSub-LAT", 11, 6) { $0.observerSubLatitudeDeg }]
        case 15: return [f("  SunSub-LON", 12, 6) { $0.sunSubLongitudeDeg }, f(" SunSub-LAT", 11, 6) { $0.sunSubLatitudeDeg }]
        case 16: return [f("  SN.ang", 8, 2) { $0.subSolarPositionAngleDeg }, f("  SN.dist", 9, 2) { $0.subSolarDistanceArcsec }]
        case 17: return [f("    NP.ang", 10, 4) { $0.northPolePositionAngleDeg }, f("  NP.dist", 9, 3) { $0.northPoleDistanceArcsec }]
        case 18: return [f("  hEcl-Lon", 10, 4) { $0.heliocentricEclipticLongitudeDeg }, f("hEcl-Lat", 8, 4) { $0.heliocentricEclipticLatitudeDeg }]
        case 19: return [f("                r", 17, 12) { $0.sunRangeAU }, f("       rdot", 11, 7) { $0.sunRangeRateKmS }]
        case 20:
            if s.rangeKm { return [f("             delta", 18, 6) { $0.rangeAU.map { $0 * Constants.auKm } }, f("     deldot", 11, 7) { $0.rangeRateKmS }] }
            return [f("             delta", 18, 14) { $0.rangeAU }, f("     deldot", 11, 7) { $0.rangeRateKmS }]
        case 21: return [f("  1-way_down_LT", 15, 8) { $0.lightTimeMinutes }]
        case 22: return [f("       VmagSn", 13, 7) { $0.speedWrtSunKmS }, f("     VmagOb", 11, 7) { $0.speedWrtObserverKmS }]
        case 23: return [f("     S-O-T", 10, 4) { $0.solarElongationDeg }, text("/r", 2) { $0.elongationCode }]
        case 24: return [f("     S-T-O", 10, 4) { $0.sunTargetObserverDeg }]
        case 25: return [f("  T-O-M", 7, 1) { $0.lunarElongationDeg }, f(" MN_Illu%", 9, 4) { $0.moonIlluminatedPercent }]
        case 26: return [f("     O-P-T", 10, 4) { $0.observerPrimaryTargetDeg }]
        case 27: return [f("    PsAng", 9, 3) { $0.sunPositionAngleDeg }, f("   PsAMV", 8, 3) { $0.velocityPositionAngleDeg }]
        case 28: return [f("      PlAng", 11, 5) { $0.orbitPlaneAngleDeg }]
        case 29: return [text("  Cnst", 6) { $0.constellation }]
        case 30: return [f("        TDB-UT", 14, 6) { $0.tdbMinusUTSeconds }]
        case 31: return [f("     ObsEcLon", 13, 7) { $0.observerEclipticLongitudeDeg }, f("   ObsEcLat", 11, 7) { $0.observerEclipticLatitudeDeg }]
        case 32: return [f("  N.Pole-RA", 11, 5) { $0.northPoleRADeg }, f(" N.Pole-DC", 10, 5) { $0.northPoleDecDeg }]
        case 33: return [f("      GlxLon", 12, 6) { $0.galacticLongitudeDeg }, f("    GlxLat", 10, 6) { $0.galacticLatitudeDeg }]
        case 34: return [f("  L_Ap_SOL_Time", 15, 9) { $0.localSolarTimeHours }]
        case 35: return [f("  399_ins_LT", 12, 6) { $0.siteLightTimeMinutes }]
        case 36: return [na("  RA_3sigma", 11), na(" DEC_3sigma", 11)]
        case 37: return [na("  SMAA_3sig", 11), na(" SMIA_3sig", 10), na("   Theta", 8), na(" Area_3sig", 10)]
        case 38: return [na("  POS_3sigma", 12)]
        case 39: return [na("  RNG_3sigma", 12), na(" RNGRT_3sig", 11)]
        case 40: return [na("   DOP_S_3sig", 13), na(" DOP_X_3sig", 11), na(" RT_delay_3sig", 14)]
        case 41: return [f("  Tru_Anom", 10, 4) { $0.trueAnomalyDeg }]
        case 42: return [f("  L_Ap_Hour_Ang", 15, 9) { $0.hourAngleHours }]
        case 43: return [f("       phi", 10, 4) { $0.phaseAngleDeg }, f("  PAB-LON", 9, 4) { $0.bisectorLongitudeDeg }, f("  PAB-LAT", 9, 4) { $0.bisectorLatitudeDeg }]
        case 44: return [f("   App_Lon_Sun", 14, 7) { $0.solarLongitudeDeg }]
        case 45: return [f(" RA_(ICRF-a-app)", 16, 5) { $0.inertialApparentRADeg }, f(" DEC_(ICRF-a-app)", 17, 5) { $0.inertialApparentDecDeg }]
        case 46: return [g(" I_dRA*cosD", 11, digits: 7, maxDecimals: 5) { $0.inertialRARateArcsecPerHour }, g(" I_d(DEC)/dt", 12, digits: 6, maxDecimals: 5) { $0.inertialDecRateArcsecPerHour }]
        case 47: return [f("  Sky_motion", 12, 7) { $0.skyMotionArcsecPerMinute }, f("  Sky_mot_PA", 12, 6) { $0.skyMotionPositionAngleDeg },
                         f("  RelVel-ANG", 12, 5) { $0.relativeVelocityAngleDeg }]
        case 48: return [na(" Lun_Sky_Brt", 12), na("  sky_SNR", 9)]
        default: return []
        }
    }

    /// The astrometric place in the FK4 equator and equinox of B1950 (degrees, RA in 0..<360).
    static func b1950(_ q: ObserverQuantities) -> (raDeg: Double, decDeg: Double)? {
        guard let ra = q.astrometricRADeg, let dec = q.astrometricDecDeg else { return nil }
        let a = ra * Angle.radiansPerDegree, d = dec * Angle.radiansPerDegree
        return SkyEngine.raDec(Precession.equatorialJ2000ToB1950 * Vector3(cos(d) * cos(a), cos(d) * sin(a), sin(d)))
    }

    /// The date columns' headers: `Date__(UT)__HR:MN` (minutes), `:SS`, `:SC.fff`, with the time
    /// zone's label in a zone (`Date__(UT-07:00)__HR:MN`); `Date_________JDUT`.
    static func dateHeader(_ s: HorizonsSettings, digits: HorizonsSettings.TimeDigits) -> (calendar: String, jd: String) {
        let scale = s.timeScale.rawValue
        let label = "Date__(\(s.timeZone.label(s.timeScale)))__"
        let calendar: String
        switch digits {
        case .minutes: calendar = label + "HR:MN"
        case .seconds: calendar = label + "HR:MN:SS"
        case .fractionalSeconds: calendar = label + "HR:MN:SC.fff"
        }
        let jd = "Date" + String(repeating: "_", count: max(1, 11 - scale.count)) + "JD" + scale
        return (" " + calendar, " " + jd)
    }

    /// The site a table is seen from.
    static func site(_ center: HorizonsCenter, context c: HorizonsContext) -> QuantitySite {
        if let o = center.observer { return .earth(o) }
        if center.body.id == 399 { return .geocenter }
        let body = center.body
        let toICRF = Precession.eclipticToEquatorialJ2000
        return .body(name: body.name, isSun: body.id == 10) { s in
            let st = body.stateKm(s)
            return (toICRF * st.positionKm / Constants.auKm, toICRF * st.velocityKmS * (Constants.secondsPerDay / Constants.auKm))
        }
    }

    /// The target as the quantities take it: heliocentric ICRF AU and AU/day.
    static func quantityTarget(_ b: HorizonsBody, context c: HorizonsContext) -> QuantityTarget {
        let toICRF = Precession.eclipticToEquatorialJ2000
        var primary: (@Sendable (Double) -> Vector3)?
        if let p = b.primary, let pb = c.majorBody(NAIFBody.id(p)) {
            primary = { s in toICRF * pb.stateKm(s).positionKm / Constants.auKm }
        }
        return QuantityTarget(name: b.name, body: b.engineBody,
                              position: { s in toICRF * b.stateKm(s).positionKm / Constants.auKm },
                              velocity: { s in toICRF * b.stateKm(s).velocityKmS * (Constants.secondsPerDay / Constants.auKm) },
                              radiiKm: b.radiiKm, orientation: b.orientation, primeMeridianKnown: b.primeMeridianKnown, westLongitudes: b.westLongitudes,
                              brightness: b.brightness, primary: primary)
    }

    static func table(_ s: HorizonsSettings, target: HorizonsBody, center: HorizonsCenter, times: HorizonsTimes,
                      objectData: String, context c: HorizonsContext) throws(HorizonsFailure) -> HorizonsTable {
        let comet = target.smallBody?.kind == .comet
        let printed = s.quantities.flatMap { columns($0, s, comet: comet) }
        // With a TLIST Horizons prints fractional seconds unless TIME_DIGITS says otherwise.
        let digits: HorizonsSettings.TimeDigits = times.isList && !s.timeDigitsGiven ? .fractionalSeconds : s.timeDigits
        let (calendarHeader, jdHeader) = dateHeader(s, digits: digits)
        let separator = s.csv ? "," : " "
        var header = ""
        var dateColumns: [String] = []
        if s.calFormat != .jd { dateColumns.append(calendarHeader) }
        if s.calFormat != .cal { dateColumns.append(jdHeader) }
        for d in dateColumns { header += d + separator }
        header += " " + separator + " " + separator
        for col in printed { header += col.header + separator }
        let rule = String(repeating: "*", count: header.count)

        var specific: [String] = []
        if target.orientation != nil, target.engineBody != nil {
            specific.append(HorizonsHeader.nameLine("Target pole/equ :", "IAU", target.westLongitudes ? "West-longitude positive" : "East-longitude positive")
                .replacingOccurrences(of: "{source: ", with: "{"))
        } else if target.orientation != nil {
            specific.append("Target pole/equ : SBDB pole (no prime meridian)")
        } else {
            specific.append("Target pole/equ : No model available")
        }
        if let r = target.radiiKm {
            let eq = HorizonsText.fixed(r.equatorial, 1), pole = HorizonsText.fixed(r.polar, 1)
            specific.append(HorizonsText.left("Target radii    : \(eq) x \(eq) x \(pole) km", 50) + "{Equator, meridian, pole}")
        } else {
            specific.append("Target radii    : (unavailable)")
        }
        specific += HorizonsHeader.centerLines(center)
        specific.append("Target primary  : \(target.primary.map { $0.rawValue.prefix(1).uppercased() + $0.rawValue.dropFirst() } ?? "Sun")")
        specific.append(HorizonsHeader.nameLine("Vis. interferer :", "MOON (R_eq= 1737.400) km", c.planetarySource))
        specific.append(HorizonsHeader.nameLine("Rel. light bend :", "Sun", c.planetarySource))
        specific.append("Rel. lght bnd GM: 1.3271E+11 km^3/s^2")
        specific += HorizonsHeader.smallBodyPerturbers("Small-body perts:", target, context: c)
        specific.append("Atmos refraction: \(s.refracted ? "YES (Bennett 1982, 10 C, 1010 hPa)" : "NO (AIRLESS)")")
        specific.append("RA format       : \(s.degrees ? "DEG" : "HMS")")
        specific.append("Time format     : \(s.calFormat.rawValue)")
        specific.append("EOP file        : \(c.sky.deltaT == nil ? "none (ΔT models only)" : "iers-delta-t.csv (IERS finals2000A, EOP 20 C04)")")
        specific.append("Units conversion: 1 au= 149597870.700 km, c= 299792.458 km/s, 1 day= 86400.0 s ")
        specific.append("Table cut-offs 1: Elevation (\(HorizonsText.fixed(s.elevationCutDeg, 1))deg=\(s.elevationCutDeg > -90 ? "YES" : "NO ")),Airmass (>\(HorizonsText.fixed(s.airmassLimit, 3))=\(s.airmassLimit < 38 ? "YES" : "NO ")), Daylight (\(s.skipDaylight ? "YES" : "NO "))")
        let elongationCut = s.solarElongation != 0...180
        specific.append("Table cut-offs 2: Solar elongation (\(HorizonsText.right(HorizonsText.fixed(s.solarElongation.lowerBound, 1), 5)),\(HorizonsText.fixed(s.solarElongation.upperBound, 1))=\(elongationCut ? "YES" : "NO ")),Local Hour Angle(\(HorizonsText.right(HorizonsText.fixed(s.hourAngleCutoffHours, 1), 4))=\(s.hourAngleCutoffHours > 0 ? "YES" : "NO "))")
        specific.append("Table cut-offs 3: RA/DEC angular rate (\(HorizonsText.right(HorizonsText.fixed(s.angularRateCutoff, 1), 8))=\(s.angularRateCutoff > 0 ? "YES" : "NO "))")
        specific.append("Table format    : \(s.csv ? "Comma Separated Values (spreadsheet)" : "Plain text")")
        var head = HorizonsHeader.ephemerisHeader(target, center: center, times: times, specific: specific, context: c, objectData: objectData)
        // Horizons puts the wide rule before the column header too.
        head.removeLast(HorizonsText.rule.count + 1)
        head += rule + "\n" + header + "\n" + rule + "\n$$SOE\n"

        var footer = "Column meaning:\n \n" + HorizonsFooters.observerPreamble + "\n \n"
        for n in s.quantities {
            if n == 1, s.refSystem == .b1950 { footer += fk4Description + "\n \n"; continue }
            if let block = HorizonsFooters.observerColumns[n] { footer += block + "\n \n" } else if let own = ownDescriptions[n] { footer += own + "\n \n" }
        }
        let tail = "$$EOE\n" + rule + "\n" + footer + HorizonsFooter.credit(c) + rule + "\n"

        // What the cut-offs need is computed even when not printed.
        var wanted = s.quantities
        if s.elevationCutDeg > -90 || s.airmassLimit < 38 { wanted += [4, 8] }
        if elongationCut { wanted.append(23) }
        if s.hourAngleCutoffHours > 0 { wanted.append(42) }
        if s.angularRateCutoff > 0 { wanted.append(3) }
        let set = QuantitySet(wanted)
        let qTarget = quantityTarget(target, context: c)
        let site = site(center, context: c)
        let sky = c.sky, constellations = c.constellations, interrupt = c.interrupt, settings = s, greg = s.gregorianOnly
        let atmosphere: Atmosphere? = s.refracted && center.observer != nil ? .standard : nil
        let secondDecimals: Int? = digits == .minutes ? nil : (digits == .seconds ? 0 : 3)
        let sep = UInt8(ascii: s.csv ? "," : " ")
        let rowWidth = header.count + 8
        let rows: @Sendable (Range<Int>) throws(Interruption) -> [UInt8] = { range in
            var out: [UInt8] = []
            out.reserveCapacity(range.count * rowWidth)
            for k in range {
                try interrupt.check()
                guard let e = times.epoch(k) else { continue }
                let q = sky.quantities(qTarget, from: site, at: sky.time(e.instant), set, refraction: atmosphere, constellations: constellations)
                if !passes(q, settings) { continue }
                if settings.calFormat != .jd {
                    HorizonsCalendar.append(times.civil(e), secondDecimals: secondDecimals, era: .letter, gregorianOnly: greg, to: &out)
                    out.append(sep)
                }
                if settings.calFormat != .cal {
                    out.append(0x20)
                    HorizonsCalendar.appendJD(e, to: &out)
                    out.append(sep)
                }
                out.append(q.solarPresence.asciiValue ?? 0x20)
                out.append(sep)
                out.append(q.lunarPresence.asciiValue ?? 0x20)
                out.append(sep)
                for col in printed {
                    col.write(q, &out)
                    out.append(sep)
                }
                out.append(0x0A)
            }
            return out
        }
        return HorizonsTable(head: head, rowCount: times.count, tail: tail, makeRows: rows)
    }

    /// The table cut-offs: rows a cut-off removes are not printed.
    static func passes(_ q: ObserverQuantities, _ s: HorizonsSettings) -> Bool {
        if s.elevationCutDeg > -90, let el = q.elevationDeg, el < s.elevationCutDeg { return false }
        if s.skipDaylight, q.solarPresence == "*" { return false }
        if s.airmassLimit < 38, q.elevationDeg != nil, (q.airmass ?? .infinity) > s.airmassLimit { return false }
        if s.solarElongation != 0...180, let e = q.solarElongationDeg, !s.solarElongation.contains(e) { return false }
        if s.hourAngleCutoffHours > 0, let h = q.hourAngleHours, abs(h) > s.hourAngleCutoffHours { return false }
        if s.angularRateCutoff > 0, let a = q.raRateArcsecPerHour, let d = q.decRateArcsecPerHour, (a * a + d * d).squareRoot() > s.angularRateCutoff { return false }
        return true
    }

    /// Quantity 1 in FK4/B1950 (`REF_SYSTEM=B1950`): Horizons' ICRF description does not apply.
    static let fk4Description = " 'R.A._(FK4/B1950), DEC_(FK4/B1950),' =\n   Astrometric right ascension and declination of the target center with\nrespect to the observing site, compensated for down-leg light-time, in the\nFK4/B1950.0 frame: the ICRF place turned by the fixed FK4-to-ICRF rotation\n(SPICE's J2000-to-B1950 matrix; no E-terms of aberration).\n\n  Units: RA  in decimal degrees (or HH MM SS.ff), DEC in decimal degrees\n         (or sDD MN SC.f)"

    /// Descriptions of the quantities Horizons' recorded answers do not describe (44 – 48).
    static let ownDescriptions: [Int: String] = [
        44: " 'App_Lon_Sun,' =\n   Target-centered apparent ecliptic longitude of the Sun (L_s): the angle in\nthe target's orbital plane from its vernal equinox (the ascending node of its\nequator on its orbit) to the Sun, in the direction of orbital motion.\nUnits: DEGREES",
        45: " 'RA_(ICRF-a-app), DEC_(ICRF-a-app),' =\n   Airless apparent right ascension and declination in the ICRF (light time,\nthe Sun's deflection, stellar aberration; no precession or nutation).\nUnits: DEGREES",
        46: " 'I_dRA*cosD, I_d(DEC)/dt,' =\n   Rates of the ICRF apparent place (45); dRA multiplied by cos(DEC).\nUnits: ARCSECONDS PER HOUR",
        47: " 'Sky_motion, Sky_mot_PA, RelVel-ANG,' =\n   Total rate of the apparent place (ARCSECONDS PER MINUTE), its position angle\neast of north (DEGREES), and the angle of the observer-target relative velocity\nout of the plane of the sky, positive receding (DEGREES).",
        48: " 'Lun_Sky_Brt, sky_SNR,' =\n   Lunar sky brightness and visual signal-to-noise: not computed by this\nserver (n.a.).",
    ]
}

extension HorizonsContext {
    /// `body` as the observer tables take it (heliocentric ICRF path, shape, rotation,
    /// brightness law, primary): what `/v1/sky?quantities=` computes the same quantities from.
    public func quantityTarget(_ body: HorizonsBody) -> QuantityTarget {
        HorizonsObserver.quantityTarget(body, context: self)
    }
}
