import Glibc
import Ephemeris

/// How the Earth is turned at one instant: frame bias, IAU 2006 precession (Capitaine et al.
/// 2003, the P03 angles of IERS Conventions 2010 eqs. 5.39–5.40), IAU 2000B nutation, and the
/// Greenwich apparent sidereal time from the Earth rotation angle (IERS Conventions 2010
/// eqs. 5.15, 5.32), and polar motion W (eq. 5.3: the pole's x_p, y_p from the IERS table and
/// the TIO locator s′ = −47 µas T) where the table has them, none elsewhere.
///
/// ```swift
/// let e = EarthOrientation(time: SkyTime(instant: t, deltaTSeconds: 69.2))
/// let trueOfDate = e.gcrsToTrueOfDate * vectorICRF
/// ```
public struct EarthOrientation: Sendable {
    /// GCRS (ICRF axes) → true equator and equinox of date: N · P · B.
    public let gcrsToTrueOfDate: Matrix3
    /// Greenwich apparent sidereal time, radians in [0, 2π).
    public let gastRadians: Double
    /// Earth rotation angle, radians in [0, 2π).
    public let eraRadians: Double
    /// Mean obliquity of date (IAU 2006), radians.
    public let meanObliquityRadians: Double
    /// Nutation in longitude and obliquity, radians.
    public let nutationPsiRadians: Double
    public let nutationEpsilonRadians: Double
    /// Polar motion, pseudo-Earth-fixed → terrestrial (ITRS): Wᵀ = R1(−y_p) R2(−x_p) R3(s′) as
    /// frame rotations; the identity when the pole's coordinates are zero.
    public let polarMotion: Matrix3

    /// Frame bias GCRS → mean J2000 (IERS Conventions 2010 eq. 5.33: dα0 = −14.6 mas,
    /// ξ0 = −16.617 mas, η0 = −6.8192 mas), written with active rotations.
    static let frameBias: Matrix3 = {
        let mas = Angle.radiansPerArcsecond / 1000
        return Matrix3.rotationX(-6.8192 * mas) * Matrix3.rotationY(16.617 * mas) * Matrix3.rotationZ(14.6 * mas)
    }()

    public init(time: SkyTime) {
        let t = time.julianCenturiesTT
        let asec = Angle.radiansPerArcsecond
        let eps0 = SkyConstants.obliquity2006J2000Arcseconds
        let epsA = (eps0 + t * (-46.836769 + t * (-0.0001831 + t * (0.00200340 + t * (-0.000000576 + t * -0.0000000434))))) * asec
        let precession = Self.precession(julianCenturiesTT: t)
        let n = Nutation.angles(julianCenturiesTT: t)
        let nutation = Matrix3.rotationX(epsA + n.epsilon) * Matrix3.rotationZ(n.psi) * Matrix3.rotationX(-epsA)
        gcrsToTrueOfDate = nutation * precession * Self.frameBias
        meanObliquityRadians = epsA
        nutationPsiRadians = n.psi
        nutationEpsilonRadians = n.epsilon

        let era = Self.earthRotationAngle(time)
        eraRadians = era
        // GMST − ERA (IERS Conventions 2010 eq. 5.32), then the equation of the equinoxes with
        // its largest complementary terms (eq. 5.31 and table 5.2e: 2.64 mas sin Ω …).
        let gmstMinusERA = (0.014506 + t * (4612.156534 + t * (1.3915817 + t * (-0.00000044 + t * (-0.000029956 + t * -0.0000000368))))) * asec
        let om = Nutation.delaunayArguments(t).om
        let complementary = (0.00264096 * sin(om) + 0.00006352 * sin(2 * om)) * asec
        let gast = era + gmstMinusERA + n.psi * cos(epsA) + complementary
        gastRadians = Self.wrapped(gast)
        polarMotion = Self.polarMotion(time, julianCenturiesTT: t)
    }

    /// Mean J2000 → mean equator and equinox of date: the P03 angles ψA, ωA, χA (IERS
    /// Conventions 2010 eq. 5.39–5.40), `t` in Julian centuries of TT from J2000.
    static func precession(julianCenturiesTT t: Double) -> Matrix3 {
        let asec = Angle.radiansPerArcsecond
        let eps0 = SkyConstants.obliquity2006J2000Arcseconds
        let psiA = t * (5038.481507 + t * (-1.0790069 + t * (-0.00114045 + t * (0.000132851 + t * -0.0000000951)))) * asec
        let omegaA = (eps0 + t * (-0.025754 + t * (0.0512623 + t * (-0.00772503 + t * (-0.000000467 + t * 0.0000003337))))) * asec
        let chiA = t * (10.556403 + t * (-2.3814292 + t * (-0.00121197 + t * (0.000170663 + t * -0.0000000560)))) * asec
        // IERS writes P = R3(χA) R1(−ωA) R3(−ψA) R1(ε0) with frame (passive) rotations; an
        // active rotation by −θ is the passive one by θ.
        return Matrix3.rotationZ(-chiA) * Matrix3.rotationX(omegaA) * Matrix3.rotationZ(psiA) * Matrix3.rotationX(-eps0 * asec)
    }

    init(gcrsToTrueOfDate: Matrix3, gastRadians: Double, eraRadians: Double, meanObliquityRadians: Double, nutationPsiRadians: Double,
         nutationEpsilonRadians: Double, polarMotion: Matrix3) {
        self.gcrsToTrueOfDate = gcrsToTrueOfDate
        self.gastRadians = gastRadians
        self.eraRadians = eraRadians
        self.meanObliquityRadians = meanObliquityRadians
        self.nutationPsiRadians = nutationPsiRadians
        self.nutationEpsilonRadians = nutationEpsilonRadians
        self.polarMotion = polarMotion
    }

    /// Wᵀ for the time's pole (IERS Conventions 2010 eq. 5.3, 5.13), as Skyfield writes it.
    static func polarMotion(_ time: SkyTime, julianCenturiesTT t: Double) -> Matrix3 {
        guard let pole = time.polarMotionArcseconds else { return .identity }
        let asec = Angle.radiansPerArcsecond
        let sPrime = -47e-6 * t * asec
        return Matrix3.rotationX(pole.y * asec) * Matrix3.rotationY(pole.x * asec) * Matrix3.rotationZ(-sPrime)
    }

    /// Halfway between two orientations a few hours apart (the event searches' in-between
    /// nodes): the matrices and angles averaged. Over 12 h the shortest nutation term (13.7 d,
    /// 0.23″) strays from its chord by 0.002″.
    init(midpoint a: EarthOrientation, _ b: EarthOrientation, time: SkyTime) {
        func mid(_ x: Vector3, _ y: Vector3) -> Vector3 { (x + y) * 0.5 }
        gcrsToTrueOfDate = Matrix3(rows: mid(a.gcrsToTrueOfDate.r0, b.gcrsToTrueOfDate.r0), mid(a.gcrsToTrueOfDate.r1, b.gcrsToTrueOfDate.r1),
                                   mid(a.gcrsToTrueOfDate.r2, b.gcrsToTrueOfDate.r2))
        // The Earth rotation angle exact at `time`; GAST − ERA (precession and nutation in
        // right ascension, slow) averaged.
        func offset(_ o: EarthOrientation) -> Double { Angle.normalizedSignedRadians(o.gastRadians - o.eraRadians) }
        eraRadians = Self.earthRotationAngle(time)
        gastRadians = Self.wrapped(eraRadians + (offset(a) + offset(b)) / 2)
        meanObliquityRadians = (a.meanObliquityRadians + b.meanObliquityRadians) / 2
        nutationPsiRadians = (a.nutationPsiRadians + b.nutationPsiRadians) / 2
        nutationEpsilonRadians = (a.nutationEpsilonRadians + b.nutationEpsilonRadians) / 2
        polarMotion = Self.polarMotion(time, julianCenturiesTT: time.julianCenturiesTT)
    }

    /// Earth rotation angle θ = 2π(0.7790572732640 + 1.00273781191135448 Du), Du = UT1 days
    /// from J2000, kept in whole days and a fraction for precision.
    static func earthRotationAngle(_ time: SkyTime) -> Double {
        let whole = time.ut1Whole - Constants.jdJ2000
        let fraction = time.ut1Fraction
        let turns = (whole.truncatingRemainder(dividingBy: 1) + fraction) + SkyConstants.eraAtJ2000Turns
            + (SkyConstants.eraTurnsPerUT1Day - 1) * (whole + fraction)
        return wrapped(2 * Double.pi * turns.truncatingRemainder(dividingBy: 1))
    }

    @inline(__always) static func wrapped(_ a: Double) -> Double {
        let r = a.truncatingRemainder(dividingBy: 2 * Double.pi)
        return r < 0 ? r + 2 * Double.pi : r
    }

    /// True equator and equinox of date → the terrestrial frame (ITRS where the pole is known).
    public var trueOfDateToTerrestrial: Matrix3 { polarMotion * Matrix3.rotationZ(-gastRadians) }
}
