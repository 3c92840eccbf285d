import Ephemeris

extension HorizonsContext {
    /// The Sun's velocity about the solar-system barycentre (ecliptic J2000 km/s; zero outside the
    /// DE kernel): what moves the barycentric light-time solution off the heliocentric one.
    func sunBarycentricVelocityKmS(_ seconds: Double) -> Vector3 {
        guard let k = ephemeris.kernel, k.spanSeconds.contains(seconds) else { return .zero }
        return k.sunBarycentricState(secondsPastJ2000: seconds).velocityKmPerSecond
    }

    /// The target relative to the centre at TDB `seconds` (ecliptic J2000 km, km/s) and the
    /// one-way light time (s): geometric (`NONE`), with the light time solved about the
    /// barycentre (`LT`: the target where the light left it), and aberrated by the centre's
    /// barycentric velocity (`LT+S`).
    func relative(_ target: HorizonsBody, _ center: HorizonsCenter, seconds s: Double,
                  correction: HorizonsSettings.Correction) -> (positionKm: Vector3, velocityKmS: Vector3, lightTimeS: Double) {
        let c = centerState(center, seconds: s)
        guard correction != .none else {
            let t = target.stateKm(s)
            let p = t.positionKm - c.positionKm
            return (p, t.velocityKmS - c.velocityKmS, p.length / Constants.speedOfLightKmPerSecond)
        }
        let vSun = sunBarycentricVelocityKmS(s)
        var tau = 0.0
        var t = target.stateKm(s)
        var p = t.positionKm - c.positionKm
        for _ in 0..<10 {
            let next = p.length / Constants.speedOfLightKmPerSecond
            let settled = abs(next - tau) < 1e-9
            tau = next
            t = target.stateKm(s - tau)
            p = t.positionKm - c.positionKm - vSun * tau
            if settled { break }
        }
        if correction == .lightTimeStellar {
            // Relativistic aberration (Explanatory Supplement 3rd ed. eq. 7.40) with the centre's
            // barycentric velocity: the direction turns, the range stays.
            let beta = (c.velocityKmS + vSun) / Constants.speedOfLightKmPerSecond
            let u = p.normalized
            let inverseGamma = (1 - beta.dot(beta)).squareRoot()
            let pb = u.dot(beta)
            let aberrated = (u * inverseGamma + beta * (1 + pb / (1 + inverseGamma))).normalized
            p = aberrated * p.length
        }
        return (p, t.velocityKmS - c.velocityKmS, tau)
    }

    /// Ecliptic J2000 → the table's reference plane in its reference system at TDB `seconds`:
    /// the ecliptic or equator of J2000 (ICRF) or of B1950 (FK4), or the centre's equator with
    /// its node on the system's equator; nil for `BODY EQUATOR` about a centre without a
    /// rotation model.
    func planeRotation(_ plane: HorizonsSettings.RefPlane, system: HorizonsSettings.RefSystem,
                       center: HorizonsCenter) -> (@Sendable (Double) -> Matrix3)? {
        let toEquator = system == .b1950 ? Precession.equatorialJ2000ToB1950 * Precession.eclipticToEquatorialJ2000
            : Precession.eclipticToEquatorialJ2000
        switch plane {
        case .ecliptic:
            let m = system == .b1950 ? Precession.equatorialJ2000ToEclipticB1950 * Precession.eclipticToEquatorialJ2000 : .identity
            return { _ in m }
        case .frame: return { _ in toEquator }
        case .bodyEquator:
            guard let orientation = center.body.orientation else { return nil }
            let fromICRF = system == .b1950 ? Precession.equatorialJ2000ToB1950 : .identity
            return { s in
                let m = orientation(s)
                let pole = fromICRF * Vector3(m.r0.z, m.r1.z, m.r2.z)
                var x = Vector3(0, 0, 1).cross(pole)
                if x.length < 1e-12 { x = Vector3(1, 0, 0) }
                x = x.normalized
                let y = pole.cross(x)
                return Matrix3(rows: x, y, pole) * toEquator
            }
        }
    }
}

/// `EPHEM_TYPE=VECTORS`: Cartesian states of the target about the centre.
enum HorizonsVectors {
    /// The quantities of each `VEC_TABLE` (1 position; 2 state; 3 state, light time, range, range
    /// rate; 4 position and those three; 5 velocity; 6 those three only).
    static func columns(_ table: Int) -> (position: Bool, velocity: Bool, range: Bool) {
        switch table {
        case 1: return (true, false, false)
        case 2: return (true, true, false)
        case 4: return (true, false, true)
        case 5: return (false, true, false)
        case 6: return (false, false, true)
        default: return (true, true, true)
        }
    }

    static func outputFormat(_ table: Int) -> String {
        switch table {
        case 1: return "1 (position)"
        case 2: return "2 (position, velocity)"
        case 4: return "4 (position, LT, range, range-rate)"
        case 5: return "5 (velocity)"
        case 6: return "6 (LT, range, range-rate)"
        default: return "3 (position, velocity, LT, range, range-rate)"
        }
    }

    static func unitScale(_ u: HorizonsSettings.Units) -> (length: Double, velocity: Double, time: Double) {
        switch u {
        case .kmS: return (1, 1, 1)
        case .auD: return (1 / Constants.auKm, Constants.secondsPerDay / Constants.auKm, 1 / Constants.secondsPerDay)
        case .kmD: return (1, Constants.secondsPerDay, 1 / Constants.secondsPerDay)
        }
    }

    static func table(_ s: HorizonsSettings, target: HorizonsBody, center: HorizonsCenter, times: HorizonsTimes,
                      objectData: String, context c: HorizonsContext) -> HorizonsTable {
        let cols = columns(s.vecTable)
        var specific = HorizonsHeader.centerLines(center)
        specific += HorizonsHeader.smallBodyPerturbers("Small perturbers:", target, context: c)
        let outputType: String
        switch s.correction {
        case .none: outputType = "GEOMETRIC cartesian states"
        case .lightTime: outputType = "Astrometric cartesian states"
        case .lightTimeStellar: outputType = "Apparent cartesian states"
        }
        specific += ["Output units    : \(s.units.rawValue)", "Output type     : \(outputType)",
                     "Output format   : \(outputFormat(s.vecTable))", "Reference frame : \(HorizonsHeader.frameName(s.refPlane, s.refSystem))"]
        var head = HorizonsHeader.ephemerisHeader(target, center: center, times: times, specific: specific, context: c, objectData: objectData)

        // The CSV column header: JDTDB (17), the calendar date (31), the quantities (23 each).
        var names: [String] = []
        if cols.position { names += ["X", "Y", "Z"] }
        if cols.velocity { names += ["VX", "VY", "VZ"] }
        if s.vecUncertainties {
            if cols.position { names += ["X_s", "Y_s", "Z_s"] }
            if cols.velocity { names += ["VX_s", "VY_s", "VZ_s"] }
        }
        if cols.range { names += ["LT", "RG", "RR"] }
        let scaleName = s.timeScale.rawValue
        var header = ""
        if s.csv {
            header = HorizonsText.right("JD\(scaleName)", 17) + ","
            if s.calFormat != .jd { header += HorizonsText.right("Calendar Date (\(scaleName))", 31) + "," }
            if s.vecDeltaT { header += HorizonsText.right("delta-T", 13) + "," }
            for n in names { header += HorizonsText.right(n, 23) + "," }
            let stars = String(repeating: "*", count: header.count)
            head += header + "\n" + stars + "\n"
        }
        head += "$$SOE\n"
        let rotation = c.planeRotation(s.refPlane, system: s.refSystem, center: center) ?? { _ in .identity }
        let units = unitScale(s.units)
        let greg = s.gregorianOnly
        let rule = s.csv ? String(repeating: "*", count: header.count) : HorizonsText.rule
        let tail = "$$EOE\n" + rule + "\n" + footer(s) + "\n" + HorizonsFooter.credit(c) + rule + "\n"
        let interrupt = c.interrupt
        let settings = s
        let rows: @Sendable (Range<Int>) throws(Interruption) -> [UInt8] = { range in
            var out: [UInt8] = []
            out.reserveCapacity(range.count * (settings.csv ? 270 : 300))
            for k in range {
                try interrupt.check()
                guard let e = times.epoch(k) else { continue }
                let seconds = e.instant.daysSinceJ2000TDB * Constants.secondsPerDay
                let r = c.relative(target, center, seconds: seconds, correction: settings.correction)
                let m = rotation(seconds)
                let p = m * r.positionKm * units.length, v = m * r.velocityKmS * units.velocity
                let range = r.positionKm.length
                let rate = range > 0 ? r.positionKm.dot(r.velocityKmS) / range : 0
                var values: [Double] = []
                if cols.position { values += [p.x, p.y, p.z] }
                if cols.velocity { values += [v.x, v.y, v.z] }
                let uncertainties = settings.vecUncertainties ? (cols.position ? 3 : 0) + (cols.velocity ? 3 : 0) : 0
                let extra: [Double] = cols.range ? [r.lightTimeS * units.time, range * units.length, rate * units.velocity] : []
                if settings.csv {
                    HorizonsCalendar.appendJD(e, to: &out)
                    out.append(0x2C)
                    if settings.calFormat != .jd {
                        out += Array(" ".utf8)
                        HorizonsCalendar.append(e, secondDecimals: 4, era: .words, gregorianOnly: greg, to: &out)
                        out.append(0x2C)
                    }
                    if settings.vecDeltaT {
                        NumberFormat.fixed(e.instant.ttMinusUTCSeconds + (settings.timeScale == .tdb ? e.instant.tdbMinusTTSeconds : 0), decimals: 6, width: 13, to: &out)
                        out.append(0x2C)
                    }
                    for x in values { out.append(0x20); NumberFormat.scientific(x, width: 22, to: &out); out.append(0x2C) }
                    for _ in 0..<uncertainties { NumberFormat.pad("n.a.", width: 23, to: &out); out.append(0x2C) }
                    for x in extra { out.append(0x20); NumberFormat.scientific(x, width: 22, to: &out); out.append(0x2C) }
                    out.append(0x0A)
                } else {
                    HorizonsCalendar.appendJD(e, to: &out)
                    out += Array(" = ".utf8)
                    HorizonsCalendar.append(e, secondDecimals: 4, era: .words, gregorianOnly: greg, to: &out)
                    out += Array(" \(settings.timeScale.rawValue) ".utf8)
                    if settings.vecDeltaT {
                        out += Array(" delta-T= ".utf8)
                        NumberFormat.fixed(e.instant.ttMinusUTCSeconds + e.instant.tdbMinusTTSeconds, decimals: 6, width: 0, to: &out)
                    }
                    out.append(0x0A)
                    var labels: [String] = []
                    if cols.position { labels += ["X =", "Y =", "Z ="] }
                    if cols.velocity { labels += ["VX=", "VY=", "VZ="] }
                    appendLabelled(values, labels, labelled: settings.vecLabels, to: &out)
                    if cols.range { appendLabelled(extra, ["LT=", "RG=", "RR="], labelled: settings.vecLabels, to: &out) }
                }
            }
            return out
        }
        return HorizonsTable(head: head, rowCount: times.count, tail: tail, makeRows: rows)
    }

    /// ` X =-8.354726583796999E-01 Y = 2.455132459520164E+00 Z = 2.314862198331841E-01`, three to
    /// a line.
    static func appendLabelled(_ values: [Double], _ labels: [String], labelled: Bool, to out: inout [UInt8]) {
        for (i, x) in values.enumerated() {
            out.append(0x20)
            if labelled { out += Array(labels[i].utf8) }
            NumberFormat.scientific(x, width: 22, to: &out)
            if i % 3 == 2 || i == values.count - 1 { out.append(0x0A) }
        }
    }

    static func footer(_ s: HorizonsSettings) -> String {
        HorizonsFooter.adapt(HorizonsFooters.vectors, settings: s)
    }
}
