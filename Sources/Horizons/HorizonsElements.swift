import Glibc
import Ephemeris

/// Osculating two-body elements of a state about a centre of gravitational parameter μ, as
/// Horizons' ELEMENTS table gives them: eccentricity, periapsis distance, inclination, node,
/// argument of periapsis, time of periapsis (the nearest one for an ellipse), mean motion, mean
/// and true anomaly, semi-major axis, apoapsis distance and period (both 9.999999999999998E+99
/// for an open orbit, as Horizons prints them). Angles in degrees; lengths and times in the
/// state's units.
struct OsculatingElements: Equatable {
    var eccentricity: Double
    var periapsis: Double
    var inclinationDeg: Double
    var nodeDeg: Double
    var argumentOfPeriapsisDeg: Double
    /// Time of periapsis relative to the epoch (add the epoch for Horizons' absolute Tp).
    var periapsisTimeFromEpoch: Double
    var meanMotionDegPerTime: Double
    var meanAnomalyDeg: Double
    var trueAnomalyDeg: Double
    var semiMajorAxis: Double
    var apoapsis: Double
    var period: Double

    static let undefined = 9.999999999999998e99

    init?(position r: Vector3, velocity v: Vector3, mu: Double) {
        let rl = r.length
        guard rl > 0, mu > 0, r.isFinite, v.isFinite else { return nil }
        let h = r.cross(v)
        let hl = h.length
        guard hl > 0 else { return nil }
        let ev = v.cross(h) / mu - r / rl
        let e = ev.length
        let energy = v.dot(v) / 2 - mu / rl
        let a = -mu / (2 * energy)
        let inclination = acos(max(-1, min(1, h.z / hl)))
        let node = Vector3(-h.y, h.x, 0)
        let nl = node.length
        let deg = Angle.degreesPerRadian
        var omega = 0.0, argument = 0.0, nu = 0.0
        if nl > 1e-12 * hl {
            omega = atan2(node.y, node.x)
            if e > 1e-12 {
                argument = acos(max(-1, min(1, node.dot(ev) / (nl * e))))
                if ev.z < 0 { argument = 2 * .pi - argument }
            }
        } else if e > 1e-12 {
            // An orbit in the reference plane: the node is undefined, ω is the longitude of periapsis.
            argument = atan2(ev.y, ev.x)
            if h.z < 0 { argument = -argument }
        }
        if e > 1e-12 {
            nu = acos(max(-1, min(1, ev.dot(r) / (e * rl))))
            if r.dot(v) < 0 { nu = 2 * .pi - nu }
        } else {
            let reference = nl > 1e-12 * hl ? node / nl : Vector3(1, 0, 0)
            nu = acos(max(-1, min(1, reference.dot(r) / rl)))
            if reference.cross(r).dot(h) < 0 { nu = 2 * .pi - nu }
        }
        let n = (mu / abs(a * a * a)).squareRoot()
        var mean: Double
        var fromEpoch: Double
        if e < 1 {
            let eccentricAnomaly = 2 * atan2((1 - e).squareRoot() * sin(nu / 2), (1 + e).squareRoot() * cos(nu / 2))
            mean = eccentricAnomaly - e * sin(eccentricAnomaly)
            mean = mean.truncatingRemainder(dividingBy: 2 * .pi)
            if mean < 0 { mean += 2 * .pi }
            // The nearest periapsis: behind the epoch in the first half-orbit, ahead in the second.
            fromEpoch = mean <= .pi ? -mean / n : (2 * .pi - mean) / n
        } else {
            let signedNu = nu > .pi ? nu - 2 * .pi : nu
            let f = 2 * atanh(((e - 1) / (e + 1)).squareRoot() * tan(signedNu / 2))
            mean = e * sinh(f) - f
            fromEpoch = -mean / n
        }
        eccentricity = e
        periapsis = a * (1 - e)
        inclinationDeg = inclination * deg
        nodeDeg = Angle.normalizedDegrees(omega * deg)
        argumentOfPeriapsisDeg = Angle.normalizedDegrees(argument * deg)
        periapsisTimeFromEpoch = fromEpoch
        meanMotionDegPerTime = n * deg
        meanAnomalyDeg = e < 1 ? mean * deg : mean * deg
        trueAnomalyDeg = Angle.normalizedDegrees(nu * deg)
        semiMajorAxis = a
        apoapsis = e < 1 ? a * (1 + e) : Self.undefined
        period = e < 1 ? 2 * .pi / n : Self.undefined
    }
}

/// `EPHEM_TYPE=ELEMENTS`: osculating elements of the target about the centre.
enum HorizonsElements {
    static let names = ["EC", "QR", "IN", "OM", "W", "Tp", "N", "MA", "TA", "A", "AD", "PR"]

    static func table(_ s: HorizonsSettings, target: HorizonsBody, center: HorizonsCenter, times: HorizonsTimes,
                      objectData: String, context c: HorizonsContext) throws(HorizonsFailure) -> HorizonsTable {
        guard center.observer == nil else {
            throw HorizonsFailure(" Cannot output elements relative to a site: CENTER must be a body's centre (500@…)")
        }
        guard let gm = center.body.gm else {
            throw HorizonsFailure(" Cannot output elements: the GM of \(center.body.targetName) is not known")
        }
        guard let rotation = c.planeRotation(s.refPlane, system: s.refSystem, center: center) else {
            throw HorizonsFailure(" Cannot output elements in the BODY EQUATOR plane of \(center.body.targetName): no rotation model")
        }
        let units = HorizonsVectors.unitScale(s.units)
        // μ in the table's units: km³/s² → au³/d² or km³/d².
        let mu = gm * units.length * units.length * units.length / (units.time * units.time)
        var specific = HorizonsHeader.centerLines(center)
        let muText: String
        switch s.units {
        case .auD: muText = "\(HorizonsText.scientific(mu)) au^3/d^2"
        case .kmD: muText = "\(HorizonsText.scientific(mu)) km^3/d^2"
        case .kmS: muText = "\(HorizonsText.scientific(mu)) km^3/s^2"
        }
        specific.append("Keplerian GM    : \(muText)")
        specific += HorizonsHeader.smallBodyPerturbers("Small perturbers:", target, context: c)
        let unitWords: String
        switch s.units {
        case .auD: unitWords = "AU-D, deg, Julian Day Number (Tp)"
        case .kmS: unitWords = "KM-S, deg, Julian Day Number (Tp)"
        case .kmD: unitWords = "KM-D, deg, Julian Day Number (Tp)"
        }
        specific += ["Output units    : \(unitWords)", "Output type     : GEOMETRIC osculating elements", "Output format   : 10",
                     "Reference frame : \(HorizonsHeader.frameName(s.refPlane, s.refSystem))"]
        var head = HorizonsHeader.ephemerisHeader(target, center: center, times: times, specific: specific, context: c, objectData: objectData)
        let scaleName = s.timeScale.rawValue
        var header = ""
        if s.csv {
            header = HorizonsText.right("JD\(scaleName)", 17) + ","
            if s.calFormat != .jd { header += HorizonsText.right("Calendar Date (\(scaleName))", 31) + "," }
            for n in names { header += HorizonsText.right(n, 23) + "," }
            head += header + "\n" + String(repeating: "*", count: header.count) + "\n"
        }
        head += "$$SOE\n"
        let rule = s.csv ? String(repeating: "*", count: header.count) : HorizonsText.rule
        var footer = HorizonsFooter.adapt(HorizonsFooters.elements, settings: s)
        if s.tpRelative { footer = footer.replacingOccurrences(of: "Tp     Time of periapsis (Julian Day Number)", with: "Tp     Time of periapsis relative to epoch (P-E)") }
        let tail = "$$EOE\n" + rule + "\n" + footer + "\n" + HorizonsFooter.credit(c) + rule + "\n"
        let settings = s, greg = s.gregorianOnly, interrupt = c.interrupt
        let rows: @Sendable (Range<Int>) throws(Interruption) -> [UInt8] = { range in
            var out: [UInt8] = []
            out.reserveCapacity(range.count * 340)
            for k in range {
                try interrupt.check()
                guard let e = times.epoch(k) else { continue }
                let seconds = e.instant.daysSinceJ2000TDB * Constants.secondsPerDay
                let r = c.relative(target, center, seconds: seconds, correction: .none)
                let m = rotation(seconds)
                let el = OsculatingElements(position: m * r.positionKm * units.length, velocity: m * r.velocityKmS * units.velocity, mu: mu)
                // Tp as a Julian date (the epoch's in days), or relative to the epoch, days.
                let tpDays = (el?.periapsisTimeFromEpoch ?? .nan) / (units.time == 1 ? Constants.secondsPerDay : 1)
                let tp = settings.tpRelative ? tpDays : e.jd + tpDays
                let values: [Double] = el.map { [$0.eccentricity, $0.periapsis, $0.inclinationDeg, $0.nodeDeg, $0.argumentOfPeriapsisDeg, tp,
                                                 $0.meanMotionDegPerTime, $0.meanAnomalyDeg, $0.trueAnomalyDeg, $0.semiMajorAxis, $0.apoapsis, $0.period] }
                    ?? Array(repeating: .nan, count: 12)
                HorizonsCalendar.appendJD(e, to: &out)
                if settings.csv {
                    out.append(0x2C)
                    if settings.calFormat != .jd {
                        out.append(0x20)
                        HorizonsCalendar.append(e, secondDecimals: 4, era: .words, gregorianOnly: greg, to: &out)
                        out.append(0x2C)
                    }
                    for x in values { out.append(0x20); NumberFormat.scientific(x, width: 22, to: &out); out.append(0x2C) }
                    out.append(0x0A)
                } else {
                    out += Array(" = ".utf8)
                    HorizonsCalendar.append(e, secondDecimals: 4, era: .words, gregorianOnly: greg, to: &out)
                    out += Array(" \(settings.timeScale.rawValue) \n".utf8)
                    let labels = ["EC=", "QR=", "IN=", "OM=", "W =", "Tp=", "N =", "MA=", "TA=", "A =", "AD=", "PR="]
                    for (i, x) in values.enumerated() {
                        out.append(0x20)
                        if settings.elementLabels { out += Array(labels[i].utf8) }
                        if i == 5, !settings.tpRelative { NumberFormat.fixed(x, decimals: 12, width: 22, to: &out) } else { NumberFormat.scientific(x, width: 22, to: &out) }
                        if i % 3 == 2 { out.append(0x0A) }
                    }
                }
            }
            return out
        }
        return HorizonsTable(head: head, rowCount: times.count, tail: tail, makeRows: rows)
    }
}
