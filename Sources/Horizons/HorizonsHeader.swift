import Glibc
import Ephemeris
import SmallBodies

/// The blocks Horizons prints before a table: the target's data (`OBJ_DATA`) and the ephemeris
/// header (target, centre, times, the table's settings), laid out as Horizons lays them out —
/// `Target body name` at column 18 for 32 characters, the physical-parameter lines astroquery
/// reads H and G (or M1 and k1) from, the 79-asterisk rules.
enum HorizonsHeader {
    /// Three 24-character cells after three blanks: `   EC= .0768…  QR= 2.55…   TP= …`.
    static func cells(_ items: [(String, String)]) -> String {
        var line = "   "
        for (i, (label, value)) in items.enumerated() {
            let cell = "\(label)= \(value)"
            line += i == items.count - 1 ? cell : HorizonsText.left(cell, max(24, cell.count + 2))
        }
        return line
    }

    static func value(_ v: Double?) -> String { v.map { HorizonsText.compact($0) } ?? "n.a." }

    /// `OBJ_DATA=YES`: the target's block.
    static func objectData(_ b: HorizonsBody, context c: HorizonsContext) -> String {
        var s = HorizonsText.rule + "\n"
        switch b.kind {
        case .smallBody:
            guard let body = b.smallBody else { break }
            s += HorizonsText.left("JPL/HORIZONS", 30) + HorizonsText.left(b.name, 29) + HorizonsText.stamp(c.now()) + "\n"
            s += "Rec #:\(HorizonsText.right(String(b.id), 8)) (+COV) Soln.date: \(body.solution ?? "n.a.")\n \n"
            s += elementsBlock(body, title: "IAU76/J2000 helio. ecliptic osc. elements (au, days, deg., period=Julian yrs):")
            s += " \n" + physicalBlock(body)
            s += " \n\(body.kind == .comet ? "COMET" : "ASTEROID") comments: \n1: source=\(body.source.file) (\(body.source.format.rawValue)), \(body.orbitClass.name)\n"
        case .spacecraft:
            s += " " + HorizonsText.left(b.name, 70) + HorizonsText.right(String(b.id), 7) + "\n \n"
            if let kernels = c.kernelBodies {
                for e in kernels.segments(of: b.id).prefix(20) {
                    s += " Segment: \(e.label), about \(NAIFBody.name(e.center)), \(KernelBodyError.date(e.startSeconds)) to \(KernelBodyError.date(e.endSeconds))\n"
                }
            }
        case .earthSatellite:
            s += " " + HorizonsText.left(b.name, 70) + HorizonsText.right(String(b.id), 7) + "\n \n"
            s += " Orbit: SGP4 from the element set (\(b.source)).\n"
        default:
            s += " " + HorizonsText.left(b.name, 70) + HorizonsText.right(String(b.id), 7) + "\n \n"
            s += " PHYSICAL DATA (this server's catalogue):\n"
            if let r = b.radiiKm {
                s += "  Equatorial radius (km)= \(HorizonsText.left(HorizonsText.trimmed(r.equatorial), 13)) Polar radius (km)     = \(HorizonsText.trimmed(r.polar))\n"
            }
            if let gm = b.gm { s += "  GM (km^3/s^2)         = \(HorizonsText.trimmed(gm))\n" }
            if let body = b.engineBody, let rot = c.ephemeris.iauElements(body) {
                s += "  Pole (ICRF, J2000)    = \(HorizonsText.fixed(rot.poleRADeg.value, 4)), \(HorizonsText.fixed(rot.poleDecDeg.value, 4)) deg   W rate = \(HorizonsText.fixed(rot.primeMeridianRateDegPerDay, 8)) deg/d\n"
            }
            s += "  Ephemeris: \(b.source)\n"
        }
        s += HorizonsText.rule + "\n"
        return s
    }

    /// The osculating elements at the record's epoch, as Horizons prints a small body's.
    static func elementsBlock(_ body: SmallBody, title: String) -> String {
        let e = body.elements
        var s = title + "\n \n"
        let epoch = HorizonsEpoch(whole: (e.epochJDTDB - 0.5).rounded(.down) + 0.5, fraction: e.epochJDTDB - ((e.epochJDTDB - 0.5).rounded(.down) + 0.5))
        let dayFraction = HorizonsCalendar.format(epoch, secondDecimals: nil, era: .none, gregorianOnly: false)
        s += "  EPOCH=  \(HorizonsText.compact(e.epochJDTDB).hasPrefix(".") ? "0" : "")\(HorizonsText.compact(e.epochJDTDB)) ! \(dayFraction.prefix(11)) (TDB)\n"
        s += cells([("EC", value(e.eccentricity)), ("QR", value(e.perihelionAU)), ("TP", value(e.perihelionJDTDB))]) + "\n"
        s += cells([("OM", value(e.ascendingNodeDeg)), ("W", " " + value(e.argumentOfPerihelionDeg)), ("IN", value(e.inclinationDeg))]) + "\n"
        if e.eccentricity < 1 {
            let a = e.semiMajorAxisAU
            let n = e.meanMotionDegPerDay
            let ma = e.meanAnomalyDeg ?? n.map { Angle.normalizedDegrees($0 * (e.epochJDTDB - e.perihelionJDTDB)) }
            s += cells([("A", value(a)), ("MA", value(ma)), ("ADIST", value(e.aphelionAU))]) + "\n"
            s += cells([("PER", value(e.periodDays.map { $0 / 365.25 })), ("N", value(n))]) + "\n"
        }
        return s
    }

    static func physicalBlock(_ body: SmallBody) -> String {
        let p = body.physical
        switch body.brightness {
        case let .comet(m1, k1)?:
            return "Comet physical (GM= km^3/s^2; RAD= km):\n" + cells([("GM", value(p?.gm)), ("RAD", value(p?.equatorialRadiusKm))]) + "\n"
                + "   M1=  \(HorizonsText.compact(m1))      M2= n.a.      k1=  \(HorizonsText.compact(k1))     k2= n.a.      PHCOF= n.a.\n"
        default:
            var h: Double?, g: Double?
            if case let .asteroid(hh, gg)? = body.brightness { (h, g) = (hh, gg) }
            return "Asteroid physical parameters (km, seconds, rotational period in hours):\n"
                + cells([("GM", value(p?.gm)), ("RAD", value(p?.diameterKm.map { $0 / 2 } ?? p?.equatorialRadiusKm)), ("ROTPER", value(p?.rotationPeriodHours))]) + "\n"
                + cells([("H", value(h)), ("G", value(g)), ("B-V", value(p?.bv))]) + "\n"
                + "                           ALBEDO= \(value(p?.albedo))\n"
        }
    }

    /// `Target body name: 1 Ceres (A801 AA)               {source: JPL#48}`.
    static func nameLine(_ label: String, _ name: String, _ source: String?) -> String {
        HorizonsText.left(label, 18) + (source.map { HorizonsText.left(name, 32) + "{source: \($0)}" } ?? name)
    }

    /// A small body's perturbers line, headed `label` (Horizons words it `Small perturbers:` in
    /// vector and element tables, `Small-body perts:` in observer tables); none for other targets.
    static func smallBodyPerturbers(_ label: String, _ target: HorizonsBody, context c: HorizonsContext) -> [String] {
        guard target.kind == .smallBody else { return [] }
        return [nameLine(label, "Yes", c.propagator.map { "\($0.perturberNumbers.count) of SB441-N16" } ?? "none")]
    }

    /// The ephemeris header: who and where, when, and the table's own lines (`specific`).
    static func ephemerisHeader(_ target: HorizonsBody, center: HorizonsCenter, times: HorizonsTimes, specific: [String],
                                context c: HorizonsContext, objectData: String) -> String {
        var s = objectData.isEmpty ? "" : objectData + "\n\n"
        s += HorizonsText.rule + "\n"
        s += HorizonsText.left("Ephemeris / API_USER \(HorizonsText.ctime(c.now())) SolarSystem server", 65) + "/ Horizons\n"
        s += HorizonsText.rule + "\n"
        s += nameLine("Target body name:", target.targetName, target.source) + "\n"
        s += nameLine("Center body name:", center.body.targetName, center.body.source) + "\n"
        s += nameLine("Center-site name:", center.siteName, nil) + "\n"
        s += HorizonsText.rule + "\n"
        s += "Start time      : \(times.startText)\n"
        s += "Stop  time      : \(times.stopText)\n"
        s += "Step-size       : \(times.stepText)\n"
        s += HorizonsText.rule + "\n"
        for line in specific { s += line + "\n" }
        s += HorizonsText.rule + "\n"
        if let body = target.smallBody {
            s += elementsBlock(body, title: "Initial IAU76/J2000 heliocentric ecliptic osculating elements (au, days, deg.):")
            let st = body.elements.heliocentricState()
            let m = Precession.eclipticToEquatorialJ2000
            let r = m * st.positionKm / Constants.auKm, v = m * st.velocityKmS * (Constants.secondsPerDay / Constants.auKm)
            s += "  Equivalent ICRF heliocentric cartesian coordinates (au, au/d):\n"
            s += "   X=\(e(r.x))  Y=\(e(r.y))  Z=\(e(r.z))\n"
            s += "  VX=\(e(v.x)) VY=\(e(v.y)) VZ=\(e(v.z))\n"
            s += physicalBlock(body)
            s += HorizonsText.rule + "\n"
        }
        return s
    }

    static func e(_ v: Double) -> String {
        var out: [UInt8] = []
        NumberFormat.scientific(v, width: 22, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The centre's site and shape lines.
    static func centerLines(_ center: HorizonsCenter) -> [String] {
        var lines = [
            "Center geodetic : \(center.geodetic) {E-lon(deg),Lat(deg),Alt(km)}",
            "Center cylindric: \(center.cylindrical) {E-lon(deg),Dxy(km),Dz(km)}",
        ]
        if let r = center.body.radiiKm {
            let eq = HorizonsText.fixed(r.equatorial, 1), pole = HorizonsText.fixed(r.polar, 1)
            lines.append(HorizonsText.left("Center radii    : \(eq) x \(eq) x \(pole) km", 50) + "{Equator, meridian, pole}")
        } else {
            lines.append("Center radii    : (unavailable)")
        }
        return lines
    }

    /// `Reference frame : Ecliptic of J2000.0` and its kin (`FK4/B1950.0`, `Ecliptic of B1950.0`).
    static func frameName(_ plane: HorizonsSettings.RefPlane, _ system: HorizonsSettings.RefSystem) -> String {
        switch (plane, system) {
        case (.ecliptic, .icrf): return "Ecliptic of J2000.0"
        case (.ecliptic, .b1950): return "Ecliptic of B1950.0"
        case (.frame, .icrf): return "ICRF"
        case (.frame, .b1950): return "FK4/B1950.0"
        case (.bodyEquator, _): return "Body mean equator and node of date"
        }
    }
}
