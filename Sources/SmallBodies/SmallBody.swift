import Glibc
import Ephemeris

/// One asteroid or comet as an element file gives it: who it is, its osculating elements, its
/// non-gravitational parameters and its brightness law, and where the record came from.
public struct SmallBody: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case asteroid
        case comet
    }

    /// How bright it is: asteroids by H and G (Bowell et al. 1989), comets by their total
    /// magnitude M1 and slope K1 (m = M1 + 5 log Δ + K1 log r).
    public enum Brightness: Sendable, Hashable {
        case asteroid(h: Double, g: Double)
        case comet(m1: Double, k1: Double)
    }

    /// Where a record came from: the file as the operator named it, its format, and the line
    /// (one-line formats) or record number (JSON) in it.
    public struct Source: Sendable, Hashable {
        public var file: String
        public var format: ElementFormat
        public var line: Int
        public init(file: String, format: ElementFormat, line: Int) {
            self.file = file
            self.format = format
            self.line = line
        }
    }

    /// The asteroid number (nil: unnumbered, or a comet).
    public var number: Int?
    /// The designation as the source spells it unpacked: `2004 MN4`, `67P`, `C/1995 O1`.
    public var designation: String
    /// The name, when it has one (`Apophis`, `Churyumov-Gerasimenko`, `Hale-Bopp`).
    public var name: String?
    public var kind: Kind
    public var elements: OrbitalElements
    /// Non-gravitational parameters (nil: none given).
    public var nonGravitational: NonGravitationalParameters?
    public var brightness: Brightness?
    /// The orbit class (JPL's code and name: `ATE` Aten, `JFc` Jupiter-family comet), when the
    /// source says it or it follows from the elements.
    public var orbitClass: OrbitClass
    /// The solution's identifier and date where the source gives them (SBDB: `orbit_id`, `soln_date`).
    public var solution: String?
    /// Size, mass, pole and albedo where the source gives them (SBDB's `phys_par`).
    public var physical: PhysicalParameters?
    public var source: Source

    public init(number: Int?, designation: String, name: String?, kind: Kind, elements: OrbitalElements,
                nonGravitational: NonGravitationalParameters? = nil, brightness: Brightness? = nil, orbitClass: OrbitClass? = nil,
                solution: String? = nil, physical: PhysicalParameters? = nil, source: Source) {
        self.number = number
        self.designation = designation
        self.name = name
        self.kind = kind
        self.elements = elements
        self.nonGravitational = nonGravitational
        self.brightness = brightness
        self.orbitClass = orbitClass ?? OrbitClass.classify(elements, kind: kind)
        self.solution = solution
        self.physical = physical
        self.source = source
    }

    /// The full name as JPL writes it: `99942 Apophis (2004 MN4)`, `67P/Churyumov-Gerasimenko`,
    /// `C/1995 O1 (Hale-Bopp)`.
    public var fullName: String {
        switch kind {
        case .asteroid:
            let head = [number.map(String.init), name].compactMap { $0 }.joined(separator: " ")
            if head.isEmpty { return designation }
            return designation == name || designation == number.map(String.init) ? head : "\(head) (\(designation))"
        case .comet:
            guard let name else { return designation }
            return designation.hasSuffix("P") || designation.hasSuffix("I") ? "\(designation)/\(name)" : "\(designation) (\(name))"
        }
    }
}

/// What JPL's Small-Body Database says of a body's size, mass, spin and surface (`phys_par`):
/// each nil where the record gives none.
public struct PhysicalParameters: Sendable, Hashable {
    /// Equatorial and polar radius, km: half the largest and the smallest of SBDB's `extent`
    /// (the triaxial shape), else half its `diameter` for both.
    public var equatorialRadiusKm: Double?
    public var polarRadiusKm: Double?
    public var diameterKm: Double?
    /// km³/s².
    public var gm: Double?
    /// The spin pole, ICRF right ascension and declination, degrees.
    public var poleRADeg: Double?
    public var poleDecDeg: Double?
    public var rotationPeriodHours: Double?
    public var albedo: Double?
    /// B − V colour.
    public var bv: Double?

    public init(equatorialRadiusKm: Double? = nil, polarRadiusKm: Double? = nil, diameterKm: Double? = nil, gm: Double? = nil,
                poleRADeg: Double? = nil, poleDecDeg: Double? = nil, rotationPeriodHours: Double? = nil, albedo: Double? = nil, bv: Double? = nil) {
        self.equatorialRadiusKm = equatorialRadiusKm
        self.polarRadiusKm = polarRadiusKm
        self.diameterKm = diameterKm
        self.gm = gm
        self.poleRADeg = poleRADeg
        self.poleDecDeg = poleDecDeg
        self.rotationPeriodHours = rotationPeriodHours
        self.albedo = albedo
        self.bv = bv
    }

    public var radiiKm: (equatorial: Double, polar: Double)? {
        guard let e = equatorialRadiusKm else { return nil }
        return (e, polarRadiusKm ?? e)
    }

    /// The pole as an ICRF unit vector.
    public var pole: Vector3? {
        guard let ra = poleRADeg, let dec = poleDecDeg else { return nil }
        let a = ra * .pi / 180, d = dec * .pi / 180
        return Vector3(cos(d) * cos(a), cos(d) * sin(a), sin(d))
    }
}

/// A dynamical class of small-body orbit, as JPL's SBDB names them.
public struct OrbitClass: Sendable, Hashable {
    public var code: String
    public var name: String

    public init(code: String, name: String) {
        self.code = code
        self.name = name
    }

    /// JPL's class definitions (SBDB "orbit classes", from q, a, Q, the period and the
    /// Tisserand parameter with respect to Jupiter) for records whose source names none.
    static func classify(_ e: OrbitalElements, kind: SmallBody.Kind) -> OrbitClass {
        let q = e.perihelionAU, ecc = e.eccentricity
        if kind == .comet {
            if ecc > 1 { return OrbitClass(code: "HYP", name: "Hyperbolic Comet") }
            if ecc == 1 { return OrbitClass(code: "PAR", name: "Parabolic Comet") }
            let years = (e.periodDays ?? .infinity) / 365.25
            if years > 200 { return OrbitClass(code: "COM", name: "Comet") }
            if years > 20 { return OrbitClass(code: "HTC", name: "Halley-type Comet") }
            let aJ = 5.2026 // Jupiter's semi-major axis, AU (JPL's definition of T_J)
            let a = e.semiMajorAxisAU
            let tj = aJ / a + 2 * cos(e.inclinationDeg * .pi / 180) * (a / aJ * (1 - ecc * ecc)).squareRoot()
            if tj > 3 { return a < aJ ? OrbitClass(code: "ETc", name: "Encke-type Comet") : OrbitClass(code: "CTc", name: "Chiron-type Comet") }
            return OrbitClass(code: "JFc", name: "Jupiter-family Comet")
        }
        if ecc >= 1 { return OrbitClass(code: "HYA", name: "Hyperbolic Asteroid") }
        let a = e.semiMajorAxisAU, big = a * (1 + ecc)
        if a < 1 { return big < 0.983 ? OrbitClass(code: "IEO", name: "Atira") : OrbitClass(code: "ATE", name: "Aten") }
        if q < 1.017 { return OrbitClass(code: "APO", name: "Apollo") }
        if q < 1.3 { return OrbitClass(code: "AMO", name: "Amor") }
        if q < 1.666 && a < 3.2 { return OrbitClass(code: "MCA", name: "Mars-crossing Asteroid") }
        switch a {
        case ..<2.0: return OrbitClass(code: "IMB", name: "Inner Main-belt Asteroid")
        case ..<3.2: return OrbitClass(code: "MBA", name: "Main-belt Asteroid")
        case ..<4.6: return OrbitClass(code: "OMB", name: "Outer Main-belt Asteroid")
        case ..<5.5: return OrbitClass(code: "TJN", name: "Jupiter Trojan")
        case ..<30.1: return OrbitClass(code: "CEN", name: "Centaur")
        default: return OrbitClass(code: "TNO", name: "TransNeptunian Object")
        }
    }
}
