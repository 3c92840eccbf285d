import Glibc
import Ephemeris

/// A satellite's position and velocity from SGP4, in the TEME frame of the reference code (true
/// equator, mean equinox of date; see ``TEMEFrame``).
public struct TEMEState: Sendable, Hashable {
    public var positionKm: Vector3
    public var velocityKmPerSecond: Vector3
}

/// SGP4/SDP4 as revised by Vallado, Crawford, Hujsak & Kelso, "Revisiting Spacetrack Report #3"
/// (AIAA 2006-6753): near-Earth (period < 225 min) with drag and the zonal harmonics J2–J4, and
/// deep space (period ≥ 225 min) with lunar-solar perturbations and the 12 h and 24 h geopotential
/// resonances (`SGP4+DeepSpace.swift`). WGS-72 constants and the paper's "improved" operation mode
/// (sidereal time at epoch from the IAU 1982 GMST formula; no AFSPC angle wrapping), as its
/// verification run uses.
///
/// Initialisation does the once-per-element-set work (un-Kozai the mean motion, secular rates,
/// drag coefficients, deep-space terms); `propagate` is then a pure function of time.
///
/// ```swift
/// let sgp4 = try SGP4(elements)
/// let state = try sgp4.propagate(minutesSinceEpoch: 90)
/// ```
public struct SGP4: Sendable {
    public let elements: ElementSet

    // Mean elements at epoch: radians, radians per minute.
    let ecco: Double, inclo: Double, nodeo: Double, argpo: Double, mo: Double, bstar: Double
    /// Mean motion with the Kozai J2 correction removed (Brouwer mean motion), rad/min.
    let noUnkozai: Double

    /// True when the simplified drag equations apply (perigee below 220 km, or deep space).
    let isimp: Bool
    let aycof: Double, xlcof: Double, con41: Double, x1mth2: Double, x7thm1: Double
    let cc1: Double, cc4: Double, cc5: Double, d2: Double, d3: Double, d4: Double
    let delmo: Double, eta: Double, omgcof: Double, sinmao: Double, xmcof: Double
    let t2cof: Double, t3cof: Double, t4cof: Double, t5cof: Double
    let mdot: Double, argpdot: Double, nodedot: Double, nodecf: Double
    /// Greenwich mean sidereal time at epoch, radians.
    public let gstoRad: Double
    let deepSpace: DeepSpace?

    /// Prepares `elements` for propagation; throws when SGP4 rejects them at their own epoch
    /// (the reference code's `sgp4init` ends with a propagation to t = 0 for the same check).
    public init(_ elements: ElementSet) throws(SGP4Error) {
        self.elements = elements
        let xke = SGP4Constants.xkePerMinute, j2 = SGP4Constants.j2, j4 = SGP4Constants.j4, j3oj2 = SGP4Constants.j3OverJ2
        let radiusKm = SGP4Constants.earthRadiusKm
        let radiansPerRevPerDay = 2 * Double.pi / SGP4Constants.minutesPerDay
        let deg = Double.pi / 180

        ecco = elements.eccentricity
        inclo = elements.inclinationDeg * deg
        nodeo = elements.raanDeg * deg
        argpo = elements.argumentOfPerigeeDeg * deg
        mo = elements.meanAnomalyDeg * deg
        bstar = elements.bstarPerEarthRadius
        let noKozai = elements.meanMotionRevPerDay * radiansPerRevPerDay

        // Recover the Brouwer mean motion from the Kozai one (Spacetrack Report #3 eqs. for a1, δ1, a0, δ0).
        let eccsq = ecco * ecco
        let omeosq = 1 - eccsq
        let rteosq = omeosq.squareRoot()
        let cosio = cos(inclo), sinio = sin(inclo)
        let cosio2 = cosio * cosio
        let ak = pow(xke / noKozai, 2.0 / 3.0)
        let d1 = 0.75 * j2 * (3 * cosio2 - 1) / (rteosq * omeosq)
        var del = d1 / (ak * ak)
        let adel = ak * (1 - del * del - del * (1.0 / 3.0 + 134 * del * del / 81))
        del = d1 / (adel * adel)
        let no = noKozai / (1 + del)
        noUnkozai = no
        let ao = pow(xke / no, 2.0 / 3.0)
        let po = ao * omeosq
        let con42 = 1 - 5 * cosio2
        con41 = -con42 - cosio2 - cosio2
        let posq = po * po
        let rp = ao * (1 - ecco)
        gstoRad = TEMEFrame.gmst1982Radians(jdUT1: elements.epochJDWhole + elements.epochJDFraction)

        // Atmosphere: s and q0 (Spacetrack Report #3), lowered for perigees under 156 km.
        var sfour = 78 / radiusKm + 1
        let q0 = (120.0 - 78.0) / radiusKm
        var qzms24 = q0 * q0 * q0 * q0
        let perigeeKm = (rp - 1) * radiusKm
        if perigeeKm < 156 {
            sfour = perigeeKm < 98 ? 20 : perigeeKm - 78
            let q = (120 - sfour) / radiusKm
            qzms24 = q * q * q * q
            sfour = sfour / radiusKm + 1
        }
        let pinvsq = 1 / posq
        let tsi = 1 / (ao - sfour)
        let eta = ao * ecco * tsi
        self.eta = eta
        let etasq = eta * eta
        let eeta = ecco * eta
        let psisq = abs(1 - etasq)
        let coef = qzms24 * pow(tsi, 4)
        let coef1 = coef / pow(psisq, 3.5)
        let cc2 = coef1 * no * (ao * (1 + 1.5 * etasq + eeta * (4 + etasq))
            + 0.375 * j2 * tsi / psisq * con41 * (8 + 3 * etasq * (8 + etasq)))
        let cc1 = bstar * cc2
        self.cc1 = cc1
        let cc3 = ecco > 1e-4 ? -2 * coef * tsi * j3oj2 * no * sinio / ecco : 0
        x1mth2 = 1 - cosio2
        cc4 = 2 * no * coef1 * ao * omeosq * (eta * (2 + 0.5 * etasq) + ecco * (0.5 + 2 * etasq)
            - j2 * tsi / (ao * psisq) * (-3 * con41 * (1 - 2 * eeta + etasq * (1.5 - 0.5 * eeta))
                + 0.75 * x1mth2 * (2 * etasq - eeta * (1 + etasq)) * cos(2 * argpo)))
        cc5 = 2 * coef1 * ao * omeosq * (1 + 2.75 * (etasq + eeta) + eeta * etasq)

        // Secular rates of the mean anomaly, perigee and node from J2 and J4.
        let cosio4 = cosio2 * cosio2
        let temp1 = 1.5 * j2 * pinvsq * no
        let temp2 = 0.5 * temp1 * j2 * pinvsq
        let temp3 = -0.46875 * j4 * pinvsq * pinvsq * no
        mdot = no + 0.5 * temp1 * rteosq * con41 + 0.0625 * temp2 * rteosq * (13 - 78 * cosio2 + 137 * cosio4)
        argpdot = -0.5 * temp1 * con42 + 0.0625 * temp2 * (7 - 114 * cosio2 + 395 * cosio4)
            + temp3 * (3 - 36 * cosio2 + 49 * cosio4)
        let xhdot1 = -temp1 * cosio
        nodedot = xhdot1 + (0.5 * temp2 * (4 - 19 * cosio2) + 2 * temp3 * (3 - 7 * cosio2)) * cosio
        omgcof = bstar * cc3 * cos(argpo)
        xmcof = ecco > 1e-4 ? -2.0 / 3.0 * coef * bstar / eeta : 0
        nodecf = 3.5 * omeosq * xhdot1 * cc1
        t2cof = 1.5 * cc1
        // Near 180° inclination 1 + cos i vanishes; the reference code divides by 1.5e-12 instead.
        let onePlusCos = abs(cosio + 1) > 1.5e-12 ? 1 + cosio : 1.5e-12
        xlcof = -0.25 * j3oj2 * sinio * (3 + 5 * cosio) / onePlusCos
        aycof = -0.5 * j3oj2 * sinio
        let delmoRoot = 1 + eta * cos(mo)
        delmo = delmoRoot * delmoRoot * delmoRoot
        sinmao = sin(mo)
        x7thm1 = 7 * cosio2 - 1

        var simple = rp < 220 / radiusKm + 1
        if 2 * Double.pi / no >= 225 {
            simple = true
            deepSpace = DeepSpace(
                epochDaysSince1950: (elements.epochJDWhole - SGP4Constants.jdSGP4Origin) + elements.epochJDFraction,
                ecco: ecco, inclo: inclo, nodeo: nodeo, argpo: argpo, mo: mo, no: no,
                mdot: mdot, argpdot: argpdot, nodedot: nodedot, gsto: gstoRad)
        } else {
            deepSpace = nil
        }
        isimp = simple
        if !simple {
            let cc1sq = cc1 * cc1
            d2 = 4 * ao * tsi * cc1sq
            let temp = d2 * tsi * cc1 / 3
            d3 = (17 * ao + sfour) * temp
            d4 = 0.5 * temp * ao * tsi * (221 * ao + 31 * sfour) * cc1
            t3cof = d2 + 2 * cc1sq
            t4cof = 0.25 * (3 * d3 + cc1 * (12 * d2 + 10 * cc1sq))
            t5cof = 0.2 * (3 * d4 + 12 * cc1 * d3 + 6 * d2 * d2 + 15 * cc1sq * (2 * d2 + cc1sq))
        } else {
            d2 = 0; d3 = 0; d4 = 0; t3cof = 0; t4cof = 0; t5cof = 0
        }
        _ = try propagate(minutesSinceEpoch: 0)
    }

    /// How far from its epoch a set is propagated: 10,000 years, beyond any instant the server
    /// takes (−3000 … 3000) from any epoch since 1957, and far short of a resonance integration
    /// whose step count no longer fits its bookkeeping.
    public static let maxMinutesFromEpoch = 10_000 * 365.25 * SGP4Constants.minutesPerDay

    /// Minutes from the element set's epoch to a UTC Julian date given in two parts.
    @inlinable public func minutesSinceEpoch(jdUTCWhole: Double, jdUTCFraction: Double) -> Double {
        ((jdUTCWhole - elements.epochJDWhole) + (jdUTCFraction - elements.epochJDFraction)) * SGP4Constants.minutesPerDay
    }

    /// The TEME state `t` minutes after the epoch (negative before it).
    public func propagate(minutesSinceEpoch t: Double) throws(SGP4Error) -> TEMEState {
        guard t.isFinite, abs(t) <= Self.maxMinutesFromEpoch else { throw .timeOutOfRange(minutes: t) }
        let xke = SGP4Constants.xkePerMinute, j2 = SGP4Constants.j2, j3oj2 = SGP4Constants.j3OverJ2
        let twoPi = 2 * Double.pi

        // Secular gravity and drag.
        let xmdf = mo + mdot * t
        let argpdf = argpo + argpdot * t
        let nodedf = nodeo + nodedot * t
        var argpm = argpdf
        var mm = xmdf
        let t2 = t * t
        var nodem = nodedf + nodecf * t2
        var tempa = 1 - cc1 * t
        var tempe = bstar * cc4 * t
        var templ = t2cof * t2
        if !isimp {
            let delomg = omgcof * t
            let delmRoot = 1 + eta * cos(xmdf)
            let delm = xmcof * (delmRoot * delmRoot * delmRoot - delmo)
            let temp = delomg + delm
            mm = xmdf + temp
            argpm = argpdf - temp
            let t3 = t2 * t, t4 = t3 * t
            tempa = tempa - d2 * t2 - d3 * t3 - d4 * t4
            tempe = tempe + bstar * cc5 * (sin(mm) - sinmao)
            templ = templ + t3cof * t3 + t4 * (t4cof + t * t5cof)
        }
        var nm = noUnkozai
        var em = ecco
        var inclm = inclo
        if let deepSpace {
            deepSpace.secular(t: t, em: &em, argpm: &argpm, inclm: &inclm, mm: &mm, nodem: &nodem, nm: &nm)
        }
        guard nm > 0 else { throw .meanMotionNotPositive(nm) }
        let am = pow(xke / nm, 2.0 / 3.0) * tempa * tempa
        nm = xke / pow(am, 1.5)
        em -= tempe
        guard em < 1, em >= -0.001 else { throw .meanEccentricityOutOfRange(em) }
        if em < 1e-6 { em = 1e-6 }
        mm += noUnkozai * templ
        var xlm = mm + argpm + nodem
        nodem = fmod(nodem, twoPi)
        argpm = fmod(argpm, twoPi)
        xlm = fmod(xlm, twoPi)
        mm = fmod(xlm - argpm - nodem, twoPi)

        // Lunar-solar periodics (deep space).
        var ep = em, xincp = inclm, argpp = argpm, nodep = nodem, mp = mm
        var sinip = sin(inclm), cosip = cos(inclm)
        var aycof = self.aycof, xlcof = self.xlcof
        var con41 = self.con41, x1mth2 = self.x1mth2, x7thm1 = self.x7thm1
        if let deepSpace {
            deepSpace.periodics(t: t, ep: &ep, inclp: &xincp, nodep: &nodep, argpp: &argpp, mp: &mp)
            if xincp < 0 {
                xincp = -xincp
                nodep += Double.pi
                argpp -= Double.pi
            }
            guard ep >= 0, ep <= 1 else { throw .perturbedEccentricityOutOfRange(ep) }
            sinip = sin(xincp)
            cosip = cos(xincp)
            aycof = -0.5 * j3oj2 * sinip
            let onePlusCos = abs(cosip + 1) > 1.5e-12 ? 1 + cosip : 1.5e-12
            xlcof = -0.25 * j3oj2 * sinip * (3 + 5 * cosip) / onePlusCos
            let cosisq = cosip * cosip
            con41 = 3 * cosisq - 1
            x1mth2 = 1 - cosisq
            x7thm1 = 7 * cosisq - 1
        }

        // Long-period periodics.
        let axnl = ep * cos(argpp)
        var temp = 1 / (am * (1 - ep * ep))
        let aynl = ep * sin(argpp) + temp * aycof
        let xl = mp + argpp + nodep + temp * xlcof * axnl

        // Kepler's equation for E + ω, Newton steps capped at 0.95 rad, at most 10.
        let u = fmod(xl - nodep, twoPi)
        var eo1 = u
        var tem5 = 9999.9
        var sineo1 = 0.0, coseo1 = 0.0
        var iteration = 1
        while abs(tem5) >= 1e-12, iteration <= 10 {
            sineo1 = sin(eo1)
            coseo1 = cos(eo1)
            tem5 = (u - aynl * coseo1 + axnl * sineo1 - eo1) / (1 - coseo1 * axnl - sineo1 * aynl)
            if abs(tem5) >= 0.95 { tem5 = tem5 > 0 ? 0.95 : -0.95 }
            eo1 += tem5
            iteration += 1
        }

        // Short-period periodics.
        let ecose = axnl * coseo1 + aynl * sineo1
        let esine = axnl * sineo1 - aynl * coseo1
        let el2 = axnl * axnl + aynl * aynl
        let pl = am * (1 - el2)
        guard pl >= 0 else { throw .semiLatusRectumNegative(pl) }
        let rl = am * (1 - ecose)
        let rdotl = am.squareRoot() * esine / rl
        let rvdotl = pl.squareRoot() / rl
        let betal = (1 - el2).squareRoot()
        temp = esine / (1 + betal)
        let sinu = am / rl * (sineo1 - aynl - axnl * temp)
        let cosu = am / rl * (coseo1 - axnl + aynl * temp)
        var su = atan2(sinu, cosu)
        let sin2u = (cosu + cosu) * sinu
        let cos2u = 1 - 2 * sinu * sinu
        temp = 1 / pl
        let temp1 = 0.5 * j2 * temp
        let temp2 = temp1 * temp
        let mrt = rl * (1 - 1.5 * temp2 * betal * con41) + 0.5 * temp1 * x1mth2 * cos2u
        su -= 0.25 * temp2 * x7thm1 * sin2u
        let xnode = nodep + 1.5 * temp2 * cosip * sin2u
        let xinc = xincp + 1.5 * temp2 * cosip * sinip * cos2u
        let mvt = rdotl - nm * temp1 * x1mth2 * sin2u / xke
        let rvdot = rvdotl + nm * temp1 * (x1mth2 * cos2u + 1.5 * con41) / xke

        // Orientation vectors.
        let sinsu = sin(su), cossu = cos(su)
        let snod = sin(xnode), cnod = cos(xnode)
        let sini = sin(xinc), cosi = cos(xinc)
        let xmx = -snod * cosi, xmy = cnod * cosi
        let uv = Vector3(xmx * sinsu + cnod * cossu, xmy * sinsu + snod * cossu, sini * sinsu)
        let vv = Vector3(xmx * cossu - cnod * sinsu, xmy * cossu - snod * sinsu, sini * cossu)
        guard mrt >= 1 else { throw .decayed(radiusEarthRadii: mrt) }
        return TEMEState(positionKm: uv * (mrt * SGP4Constants.earthRadiusKm),
                         velocityKmPerSecond: (uv * mvt + vv * rvdot) * SGP4Constants.kmPerSecondPerUnit)
    }
}
