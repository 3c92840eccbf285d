import Glibc

/// Heliocentric planets from E. M. Standish's "Keplerian Elements for Approximate Positions of
/// the Major Planets" (JPL, 1992; fit to DE405): table 1 inside 1800–2050 (the catalogue's
/// `orbital_elements_j2000`), table 2a with the 2b corrections to M outside it.
/// Frame: mean ecliptic and equinox of J2000. The "Earth" row is the Earth–Moon barycentre.
public enum StandishPlanets {
    /// Which of Standish's tables served an instant.
    public enum Table: String, Sendable {
        case table1 = "Standish (1992) table 1, 1800–2050"
        case table2 = "Standish (1992) tables 2a/2b, 3000 BC–3000 AD"
    }

    /// Table 1 is used for TDB Julian dates in [1800-01-01, 2051-01-01).
    public static let table1Range = 2_378_496.5..<2_470_172.5

    /// Additional terms of table 2b: M += b·T² + c·cos(f·T) + s·sin(f·T) (degrees; f·T in degrees).
    struct Table2bTerms: Sendable {
        let b: Double, c: Double, s: Double, f: Double
        static let none = Table2bTerms(b: 0, c: 0, s: 0, f: 0)
    }

    private static func row(_ v: [Double], _ r: [Double]) -> StandishElements {
        StandishElements(
            semiMajorAxisAU: Polynomial1(value: v[0], ratePerCentury: r[0]),
            eccentricity: Polynomial1(value: v[1], ratePerCentury: r[1]),
            inclinationDeg: Polynomial1(value: v[2], ratePerCentury: r[2]),
            meanLongitudeDeg: Polynomial1(value: v[3], ratePerCentury: r[3]),
            longitudeOfPerihelionDeg: Polynomial1(value: v[4], ratePerCentury: r[4]),
            longitudeOfAscendingNodeDeg: Polynomial1(value: v[5], ratePerCentury: r[5])
        )
    }

    /// Table 2a (a, e, I, L, ϖ, Ω and their rates per century) and 2b, JPL `p_elem_t2.txt`.
    static let table2: [BodyID: (elements: StandishElements, extra: Table2bTerms)] = [
        .mercury: (row([0.38709843, 0.20563661, 7.00559432, 252.25166724, 77.45771895, 48.33961819],
                       [0.00000000, 0.00002123, -0.00590158, 149472.67486623, 0.15940013, -0.12214182]), .none),
        .venus: (row([0.72332102, 0.00676399, 3.39777545, 181.97970850, 131.76755713, 76.67261496],
                     [-0.00000026, -0.00005107, 0.00043494, 58517.81560260, 0.05679648, -0.27274174]), .none),
        .earth: (row([1.00000018, 0.01673163, -0.00054346, 100.46691572, 102.93005885, -5.11260389],
                     [-0.00000003, -0.00003661, -0.01337178, 35999.37306329, 0.31795260, -0.24123856]), .none),
        .mars: (row([1.52371243, 0.09336511, 1.85181869, -4.56813164, -23.91744784, 49.71320984],
                    [0.00000097, 0.00009149, -0.00724757, 19140.29934243, 0.45223625, -0.26852431]), .none),
        .jupiter: (row([5.20248019, 0.04853590, 1.29861416, 34.33479152, 14.27495244, 100.29282654],
                       [-0.00002864, 0.00018026, -0.00322699, 3034.90371757, 0.18199196, 0.13024619]),
                   Table2bTerms(b: -0.00012452, c: 0.06064060, s: -0.35635438, f: 38.35125000)),
        .saturn: (row([9.54149883, 0.05550825, 2.49424102, 50.07571329, 92.86136063, 113.63998702],
                      [-0.00003065, -0.00032044, 0.00451969, 1222.11494724, 0.54179478, -0.25015002]),
                  Table2bTerms(b: 0.00025899, c: -0.13434469, s: 0.87320147, f: 38.35125000)),
        .uranus: (row([19.18797948, 0.04685740, 0.77298127, 314.20276625, 172.43404441, 73.96250215],
                      [-0.00020455, -0.00001550, -0.00180155, 428.49512595, 0.09266985, 0.05739699]),
                  Table2bTerms(b: 0.00058331, c: -0.97731848, s: 0.17689245, f: 7.67025000)),
        .neptune: (row([30.06952752, 0.00895439, 1.77005520, 304.22289287, 46.68158724, 131.78635853],
                       [0.00006447, 0.00000818, 0.00022400, 218.46515314, 0.01009938, -0.00606302]),
                   Table2bTerms(b: -0.00041348, c: 0.68346318, s: -0.10162547, f: 7.67025000)),
        .pluto: (row([39.48686035, 0.24885238, 17.14104260, 238.96535011, 224.09702598, 110.30167986],
                     [0.00449751, 0.00006016, 0.00000501, 145.18042903, -0.00968827, -0.00809981]),
                 Table2bTerms(b: -0.01262724, c: 0, s: 0, f: 0)),
    ]

    public static func table(forJDTDB jd: Double) -> Table {
        table1Range.contains(jd) ? .table1 : .table2
    }

    /// Heliocentric position (AU) and velocity (AU/day) of a planet's (for `.earth`: the
    /// Earth–Moon barycentre's) Keplerian orbit at `jdTDB`.
    ///
    /// `table1` is the catalogue's row for the body; it is used inside 1800–2050.
    public static func state(_ body: BodyID, jdTDB: Double, table1: StandishElements) -> (positionAU: Vector3, velocityAUPerDay: Vector3) {
        let T = (jdTDB - Constants.jdJ2000) / Constants.daysPerJulianCentury
        if table1Range.contains(jdTDB) {
            return state(elements: table1, extra: .none, T: T)
        }
        guard let t2 = table2[body] else { preconditionFailure("\(body) has no Standish elements") }
        return state(elements: t2.elements, extra: t2.extra, T: T)
    }

    static func state(elements el: StandishElements, extra: Table2bTerms, T: Double) -> (positionAU: Vector3, velocityAUPerDay: Vector3) {
        let rad = Angle.radiansPerDegree
        let a = el.semiMajorAxisAU.at(T)
        let e = el.eccentricity.at(T)
        let inc = el.inclinationDeg.at(T) * rad
        let L = el.meanLongitudeDeg.at(T)
        let varpi = el.longitudeOfPerihelionDeg.at(T)
        let node = el.longitudeOfAscendingNodeDeg.at(T) * rad
        let omega = varpi * rad - node
        let fT = extra.f * T * rad
        let meanAnomalyDeg = L - varpi + extra.b * T * T + extra.c * cos(fT) + extra.s * sin(fT)
        let M = Angle.normalizedSignedRadians(meanAnomalyDeg * rad)
        // dM/dT in degrees per century (the element rates plus the table-2b terms), to radians per day.
        let dMdT = el.meanLongitudeDeg.ratePerCentury - el.longitudeOfPerihelionDeg.ratePerCentury
            + 2 * extra.b * T - extra.c * extra.f * rad * sin(fT) + extra.s * extra.f * rad * cos(fT)
        // The in-plane angle advances by dL/dt (M's rate plus the perihelion's), which is what the
        // velocity in the inertial frame sees.
        let meanMotion = (dMdT + el.longitudeOfPerihelionDeg.ratePerCentury) * rad / Constants.daysPerJulianCentury

        let E = Kepler.solve(meanAnomaly: M, eccentricity: e)
        let cosE = cos(E), sinE = sin(E)
        let rootOneMinusE2 = (1 - e * e).squareRoot()
        let xp = a * (cosE - e)
        let yp = a * rootOneMinusE2 * sinE
        let Edot = meanMotion / (1 - e * cosE)
        let vxp = -a * sinE * Edot
        let vyp = a * rootOneMinusE2 * cosE * Edot

        // Orbital plane → ecliptic: Rz(Ω) · Rx(I) · Rz(ω).
        let cw = cos(omega), sw = sin(omega), cO = cos(node), sO = sin(node), ci = cos(inc), si = sin(inc)
        let m11 = cw * cO - sw * sO * ci, m12 = -sw * cO - cw * sO * ci
        let m21 = cw * sO + sw * cO * ci, m22 = -sw * sO + cw * cO * ci
        let m31 = sw * si, m32 = cw * si
        let position = Vector3(m11 * xp + m12 * yp, m21 * xp + m22 * yp, m31 * xp + m32 * yp)
        let velocity = Vector3(m11 * vxp + m12 * vyp, m21 * vxp + m22 * vyp, m31 * vxp + m32 * vyp)
        return (position, velocity)
    }
}
