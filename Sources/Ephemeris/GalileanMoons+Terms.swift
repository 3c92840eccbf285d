// The periodic terms of Lieske's E5 theory of the Galilean satellites as given by Meeus,
// *Astronomical Algorithms* (2nd ed., 1998), chapter 44, "higher accuracy" method.
//
// Transcribed from, and checked term by term against, three independent implementations of that
// chapter: PyMeeus `JupiterMoons.py` (architest/pymeeus), Sonia Keys's `meeus/v3/jupitermoons`
// (Go) and Bill Gray's Project Pluto `jsats.cpp` (as carried by timmyd7777/SSCore, with Kazumi
// Akiyama's 2002 corrections). Where they disagree the majority wins:
//   - Io radius:        −0.0000387 cos(l1 − π3)     (PyMeeus, Keys; Gray has π1)
//   - Io latitude:      −0.0000311 sin(L1 − ψ)      (PyMeeus, Keys; Gray has +)
//   - Ganymede radius:  −0.0007919 cos(l3 − π4)     (PyMeeus, Gray; Keys has 0.0007917)
//                       +0.0000070 cos(2l2 − 3l3 + π3) (PyMeeus, Keys; Gray has −)
//   - Ganymede latitude: +0.0000037 sin(L3 + ψ − 2Π − 3G) (PyMeeus, Keys; Gray has 2G)
//   - Callisto: +0.00107 sin(3l3 − 7l4 + 4π4)       (PyMeeus, Keys; Gray has 3l3 + 7l4)
// Every argument is an integer combination of the fundamental arguments (GalileanMoons.swift)
// plus a constant phase; the satellite's own true longitude L and Σ enter the latitude series only.

private typealias T = GalileanMoons.Term

extension GalileanMoons {
    /// One periodic term: `amplitude × sin(argument)` (longitude, latitude) or
    /// `amplitude × cos(argument)` (radius vector). The argument is written as in the book, an
    /// integer combination of the sixteen fundamental arguments (`GalileanMoons.fundamentals`)
    /// plus a constant (Π, the longitude of Jupiter's perihelion, and any explicit degrees); in
    /// the latitude series the satellite's own true longitude L and longitude correction Σ enter
    /// too. As the fundamental arguments are linear in time except for Γ inside G, the term is
    /// stored folded: argument = phase + rate·t + gamma·Γ (+ trueLongitude·L + sigma·Σ), degrees.
    struct Term: Sendable {
        let amplitude: Double
        let phase: Double
        let rate: Double
        let gamma: Double
        let trueLongitude: Double
        let sigma: Double

        init(_ amplitude: Double,
             l1: Double = 0, l2: Double = 0, l3: Double = 0, l4: Double = 0,
             π1: Double = 0, π2: Double = 0, π3: Double = 0, π4: Double = 0,
             ω1: Double = 0, ω2: Double = 0, ω3: Double = 0, ω4: Double = 0,
             ψ: Double = 0, G: Double = 0, Gʹ: Double = 0, Φλ: Double = 0,
             Π: Double = 0, L: Double = 0, Σ: Double = 0, degrees: Double = 0) {
            let k = SIMD16(l1, l2, l3, l4, π1, π2, π3, π4, ω1, ω2, ω3, ω4, ψ, G, Gʹ, Φλ)
            self.amplitude = amplitude
            phase = (k * GalileanMoons.fundamentals.atEpoch).sum() + Π * GalileanMoons.jupiterPerihelionDegrees + degrees
            rate = (k * GalileanMoons.fundamentals.perDay).sum()
            gamma = G
            trueLongitude = L
            sigma = Σ
        }
    }

    /// A series laid out for evaluation four terms at a time (zero-amplitude padding).
    struct PackedSeries: Sendable {
        let amplitude: [SIMD4<Double>]
        let phase: [SIMD4<Double>]
        let rate: [SIMD4<Double>]
        let gamma: [SIMD4<Double>]
        let trueLongitude: [SIMD4<Double>]
        let sigma: [SIMD4<Double>]

        init(_ terms: [Term]) {
            func lanes(_ field: (Term) -> Double) -> [SIMD4<Double>] {
                stride(from: 0, to: terms.count, by: 4).map { start in
                    var v = SIMD4<Double>()
                    for lane in 0..<4 where start + lane < terms.count { v[lane] = field(terms[start + lane]) }
                    return v
                }
            }
            amplitude = lanes(\.amplitude); phase = lanes(\.phase); rate = lanes(\.rate)
            gamma = lanes(\.gamma); trueLongitude = lanes(\.trueLongitude); sigma = lanes(\.sigma)
        }

        /// Σ amplitude × sin(argument) (or cos), arguments in degrees.
        @inline(__always) func sum(t: Double, gamma g: Double, trueLongitude l: Double = 0, sigma s: Double = 0,
                                   cosine: Bool = false) -> Double {
            var total = SIMD4<Double>()
            for i in amplitude.indices {
                let argument = phase[i] + rate[i] * t + gamma[i] * g + trueLongitude[i] * l + sigma[i] * s
                let sc = SatelliteTrig.sinCos(degrees: argument)
                total += amplitude[i] * (cosine ? sc.cos : sc.sin)
            }
            return total.sum()
        }

        /// The sine series (latitude) and its derivative with respect to the true longitude L,
        /// per radian of L: Σ amplitude × sin(argument) and Σ amplitude × k_L × cos(argument),
        /// from the same sines and cosines.
        @inline(__always) func sumAndLongitudeDerivative(t: Double, gamma g: Double, trueLongitude l: Double,
                                                         sigma s: Double) -> (sum: Double, perRadianOfL: Double) {
            var total = SIMD4<Double>(), derivative = SIMD4<Double>()
            for i in amplitude.indices {
                let argument = phase[i] + rate[i] * t + gamma[i] * g + trueLongitude[i] * l + sigma[i] * s
                let sc = SatelliteTrig.sinCos(degrees: argument)
                total += amplitude[i] * sc.sin
                derivative += amplitude[i] * trueLongitude[i] * sc.cos
            }
            return (total.sum(), derivative.sum())
        }
    }

    static let longitudeSeries = longitudeTerms.map(PackedSeries.init)
    static let latitudeSeries = latitudeTerms.map(PackedSeries.init)
    static let radiusSeries = radiusTerms.map(PackedSeries.init)

    // MARK: Σ1…Σ4, periodic terms in longitude (degrees)

    static let longitudeTerms: [[Term]] = [ioLongitude, europaLongitude, ganymedeLongitude, callistoLongitude]

    static let ioLongitude: [Term] = [
        T(+0.47259, l1: 2, l2: -2),
        T(-0.03478, π3: 1, π4: -1),
        T(+0.01081, l2: 1, l3: -2, π3: 1),
        T(+0.00738, Φλ: 1),
        T(+0.00713, l2: 1, l3: -2, π2: 1),
        T(-0.00674, π1: 1, π3: 1, G: -2, Π: -2),
        T(+0.00666, l2: 1, l3: -2, π4: 1),
        T(+0.00445, l1: 1, π3: -1),
        T(-0.00354, l1: 1, l2: -1),
        T(-0.00317, ψ: 2, Π: -2),
        T(+0.00265, l1: 1, π4: -1),
        T(-0.00186, G: 1),
        T(+0.00162, π2: 1, π3: -1),
        T(+0.00158, l1: 4, l2: -4),
        T(-0.00155, l1: 1, l3: -1),
        T(-0.00138, ω3: 1, ψ: 1, G: -2, Π: -2),
        T(-0.00115, l1: 2, l2: -4, ω2: 2),
        T(+0.00089, π2: 1, π4: -1),
        T(+0.00085, l1: 1, π3: 1, G: -2, Π: -2),
        T(+0.00083, ω2: 1, ω3: -1),
        T(+0.00053, ω2: -1, ψ: 1),
    ]

    static let europaLongitude: [Term] = [
        T(+1.06476, l2: 2, l3: -2),
        T(+0.04256, l1: 1, l2: -2, π3: 1),
        T(+0.03581, l2: 1, π3: -1),
        T(+0.02395, l1: 1, l2: -2, π4: 1),
        T(+0.01984, l2: 1, π4: -1),
        T(-0.01778, Φλ: 1),
        T(+0.01654, l2: 1, π2: -1),
        T(+0.01334, l2: 1, l3: -2, π2: 1),
        T(+0.01294, π3: 1, π4: -1),
        T(-0.01142, l2: 1, l3: -1),
        T(-0.01057, G: 1),
        T(-0.00775, ψ: 2, Π: -2),
        T(+0.00524, l1: 2, l2: -2),
        T(-0.00460, l1: 1, l3: -1),
        T(+0.00316, ω3: 1, ψ: 1, G: -2, Π: -2),
        T(-0.00203, π1: 1, π3: 1, G: -2, Π: -2),
        T(+0.00146, ω3: -1, ψ: 1),
        T(-0.00145, G: 2),
        T(+0.00125, ω4: -1, ψ: 1),
        T(-0.00115, l1: 1, l3: -2, π3: 1),
        T(-0.00094, l2: 2, ω2: -2),
        T(+0.00086, l1: 2, l2: -4, ω2: 2),
        T(-0.00086, G: -2, Gʹ: 5, degrees: 52.225),
        T(-0.00078, l2: 1, l4: -1),
        T(-0.00064, l3: 3, l4: -7, π4: 4),
        T(+0.00064, π1: 1, π4: -1),
        T(-0.00063, l1: 1, l3: -2, π4: 1),
        T(+0.00058, ω3: 1, ω4: -1),
        T(+0.00056, ψ: 2, G: -2, Π: -2),
        T(+0.00056, l2: 2, l4: -2),
        T(+0.00055, l1: 2, l3: -2),
        T(+0.00052, l3: 3, l4: -7, π3: 1, π4: 3),
        T(-0.00043, l1: 1, π3: -1),
        T(+0.00041, l2: 5, l3: -5),
        T(+0.00041, π4: 1, Π: -1),
        T(+0.00032, ω2: 1, ω3: -1),
        T(+0.00032, l3: 2, G: -2, Π: -2),
    ]

    static let ganymedeLongitude: [Term] = [
        T(+0.16490, l3: 1, π3: -1),
        T(+0.09081, l3: 1, π4: -1),
        T(-0.06907, l2: 1, l3: -1),
        T(+0.03784, π3: 1, π4: -1),
        T(+0.01846, l3: 2, l4: -2),
        T(-0.01340, G: 1),
        T(-0.01014, ψ: 2, Π: -2),
        T(+0.00704, l2: 1, l3: -2, π3: 1),
        T(-0.00620, l2: 1, l3: -2, π2: 1),
        T(-0.00541, l3: 1, l4: -1),
        T(+0.00381, l2: 1, l3: -2, π4: 1),
        T(+0.00235, ω3: -1, ψ: 1),
        T(+0.00198, ω4: -1, ψ: 1),
        T(+0.00176, Φλ: 1),
        T(+0.00130, l3: 3, l4: -3),
        T(+0.00125, l1: 1, l3: -1),
        T(-0.00119, G: -2, Gʹ: 5, degrees: 52.225),
        T(+0.00109, l1: 1, l2: -1),
        T(-0.00100, l3: 3, l4: -7, π4: 4),
        T(+0.00091, ω3: 1, ω4: -1),
        T(+0.00080, l3: 3, l4: -7, π3: 1, π4: 3),
        T(-0.00075, l2: 2, l3: -3, π3: 1),
        T(+0.00072, π1: 1, π3: 1, G: -2, Π: -2),
        T(+0.00069, π4: 1, Π: -1),
        T(-0.00058, l3: 2, l4: -3, π4: 1),
        T(-0.00057, l3: 1, l4: -2, π4: 1),
        T(+0.00056, l3: 1, π3: 1, G: -2, Π: -2),
        T(-0.00052, l2: 1, l3: -2, π1: 1),
        T(-0.00050, π2: 1, π3: -1),
        T(+0.00048, l3: 1, l4: -2, π3: 1),
        T(-0.00045, l2: 2, l3: -3, π4: 1),
        T(-0.00041, π2: 1, π4: -1),
        T(-0.00038, G: 2),
        T(-0.00037, π3: 1, π4: -1, ω3: 1, ω4: -1),
        T(-0.00032, l3: 3, l4: -7, π3: 2, π4: 2),
        T(+0.00030, l3: 4, l4: -4),
        T(+0.00029, l3: 1, π4: 1, G: -2, Π: -2),
        T(-0.00028, ω3: 1, ψ: 1, G: -2, Π: -2),
        T(+0.00026, l3: 1, G: -1, Π: -1),
        T(+0.00024, l2: 1, l3: -3, l4: 2),
        T(+0.00021, l3: 2, G: -2, Π: -2),
        T(-0.00021, l3: 1, π2: -1),
        T(+0.00017, l3: 2, π3: -2),
    ]

    static let callistoLongitude: [Term] = [
        T(+0.84287, l4: 1, π4: -1),
        T(+0.03431, π3: -1, π4: 1),
        T(-0.03305, ψ: 2, Π: -2),
        T(-0.03211, G: 1),
        T(-0.01862, l4: 1, π3: -1),
        T(+0.01186, ω4: -1, ψ: 1),
        T(+0.00623, l4: 1, π4: 1, G: -2, Π: -2),
        T(+0.00387, l4: 2, π4: -2),
        T(-0.00284, G: -2, Gʹ: 5, degrees: 52.225),
        T(-0.00234, π4: -2, ψ: 2),
        T(-0.00223, l3: 1, l4: -1),
        T(-0.00208, l4: 1, Π: -1),
        T(+0.00178, π4: -2, ω4: 1, ψ: 1),
        T(+0.00134, π4: 1, Π: -1),
        T(+0.00125, l4: 2, G: -2, Π: -2),
        T(-0.00117, G: 2),
        T(-0.00112, l3: 2, l4: -2),
        T(+0.00107, l3: 3, l4: -7, π4: 4),
        T(+0.00102, l4: 1, G: -1, Π: -1),
        T(+0.00096, l4: 2, ω4: -1, ψ: -1),
        T(+0.00087, ω4: -2, ψ: 2),
        T(-0.00085, l3: 3, l4: -7, π3: 1, π4: 3),
        T(+0.00085, l3: 1, l4: -2, π4: 1),
        T(-0.00081, l4: 2, ψ: -2),
        T(+0.00071, l4: 1, π4: 1, G: -3, Π: -2),
        T(+0.00061, l1: 1, l4: -1),
        T(-0.00056, ω3: -1, ψ: 1),
        T(-0.00054, l3: 1, l4: -2, π3: 1),
        T(+0.00051, l2: 1, l4: -1),
        T(+0.00042, ψ: 2, G: -2, Π: -2),
        T(+0.00039, π4: 2, ω4: -2),
        T(+0.00036, π4: -1, ω4: -1, ψ: 1, Π: 1),
        T(+0.00035, G: -1, Gʹ: 2, degrees: 188.37),
        T(-0.00035, l4: 1, π4: -1, ψ: -2, Π: 2),
        T(-0.00032, l4: 1, π4: 1, G: -1, Π: -2),
        T(+0.00030, G: -2, Gʹ: 2, degrees: 149.15),
        T(+0.00029, l3: 3, l4: -7, π3: 2, π4: 2),
        T(+0.00028, l4: 1, π4: -1, ψ: 2, Π: -2),
        T(-0.00028, l4: 2, ω4: -2),
        T(-0.00027, π3: 1, π4: -1, ω3: 1, ω4: -1),
        T(-0.00026, G: -3, Gʹ: 5, degrees: 188.37),
        T(+0.00025, ω3: -1, ω4: 1),
        T(-0.00025, l2: 1, l3: -3, l4: 2),
        T(-0.00023, l3: 3, l4: -3),
        T(+0.00021, l4: 2, G: -3, Π: -2),
        T(-0.00021, l3: 2, l4: -3, π4: 1),
        T(+0.00019, l4: 1, π4: -1, G: -1),
        T(-0.00019, l4: 2, π3: -1, π4: -1),
        T(-0.00018, l4: 1, π4: -1, G: 1),
        T(-0.00016, l4: 1, π3: 1, G: -2, Π: -2),
    ]

    // MARK: tan B, periodic terms in latitude (dimensionless)

    static let latitudeTerms: [[Term]] = [ioLatitude, europaLatitude, ganymedeLatitude, callistoLatitude]

    static let ioLatitude: [Term] = [
        T(+0.0006393, ω1: -1, L: 1),
        T(+0.0001825, ω2: -1, L: 1),
        T(+0.0000329, ω3: -1, L: 1),
        T(-0.0000311, ψ: -1, L: 1),
        T(+0.0000093, ω4: -1, L: 1),
        T(+0.0000075, l2: -4, ω2: 1, L: 3, Σ: -1.9927),
        T(+0.0000046, ψ: 1, G: -2, Π: -2, L: 1),
    ]

    static let europaLatitude: [Term] = [
        T(+0.0081004, ω2: -1, L: 1),
        T(+0.0004512, ω3: -1, L: 1),
        T(-0.0003284, ψ: -1, L: 1),
        T(+0.0001160, ω4: -1, L: 1),
        T(+0.0000272, l1: 1, l3: -2, ω2: 1, Σ: 1.0146),
        T(-0.0000144, ω1: -1, L: 1),
        T(+0.0000143, ψ: 1, G: -2, Π: -2, L: 1),
        T(+0.0000035, ψ: -1, G: 1, L: 1),
        T(-0.0000028, l1: 1, l3: -2, ω3: 1, Σ: 1.0146),
    ]

    static let ganymedeLatitude: [Term] = [
        T(+0.0032402, ω3: -1, L: 1),
        T(-0.0016911, ψ: -1, L: 1),
        T(+0.0006847, ω4: -1, L: 1),
        T(-0.0002797, ω2: -1, L: 1),
        T(+0.0000321, ψ: 1, G: -2, Π: -2, L: 1),
        T(+0.0000051, ψ: -1, G: 1, L: 1),
        T(-0.0000045, ψ: -1, G: -1, L: 1),
        T(-0.0000045, ψ: 1, Π: -2, L: 1),
        T(+0.0000037, ψ: 1, G: -3, Π: -2, L: 1),
        T(+0.0000030, l2: 2, ω2: 1, L: -3, Σ: 4.03),
        T(-0.0000021, l2: 2, ω3: 1, L: -3, Σ: 4.03),
    ]

    static let callistoLatitude: [Term] = [
        T(-0.0076579, ψ: -1, L: 1),
        T(+0.0044134, ω4: -1, L: 1),
        T(-0.0005112, ω3: -1, L: 1),
        T(+0.0000773, ψ: 1, G: -2, Π: -2, L: 1),
        T(+0.0000104, ψ: -1, G: 1, L: 1),
        T(-0.0000102, ψ: -1, G: -1, L: 1),
        T(+0.0000088, ψ: 1, G: -3, Π: -2, L: 1),
        T(-0.0000038, ψ: 1, G: -1, Π: -2, L: 1),
    ]

    // MARK: R/a − 1, periodic terms in the radius vector (dimensionless)

    static let radiusTerms: [[Term]] = [ioRadius, europaRadius, ganymedeRadius, callistoRadius]

    static let ioRadius: [Term] = [
        T(-0.0041339, l1: 2, l2: -2),
        T(-0.0000387, l1: 1, π3: -1),
        T(-0.0000214, l1: 1, π4: -1),
        T(+0.0000170, l1: 1, l2: -1),
        T(-0.0000131, l1: 4, l2: -4),
        T(+0.0000106, l1: 1, l3: -1),
        T(-0.0000066, l1: 1, π3: 1, G: -2, Π: -2),
    ]

    static let europaRadius: [Term] = [
        T(+0.0093848, l1: 1, l2: -1),
        T(-0.0003116, l2: 1, π3: -1),
        T(-0.0001744, l2: 1, π4: -1),
        T(-0.0001442, l2: 1, π2: -1),
        T(+0.0000553, l2: 1, l3: -1),
        T(+0.0000523, l1: 1, l3: -1),
        T(-0.0000290, l1: 2, l2: -2),
        T(+0.0000164, l2: 2, ω2: -2),
        T(+0.0000107, l1: 1, l3: -2, π3: 1),
        T(-0.0000102, l2: 1, π1: -1),
        T(-0.0000091, l1: 2, l3: -2),
    ]

    static let ganymedeRadius: [Term] = [
        T(-0.0014388, l3: 1, π3: -1),
        T(-0.0007919, l3: 1, π4: -1),
        T(+0.0006342, l2: 1, l3: -1),
        T(-0.0001761, l3: 2, l4: -2),
        T(+0.0000294, l3: 1, l4: -1),
        T(-0.0000156, l3: 3, l4: -3),
        T(+0.0000156, l1: 1, l3: -1),
        T(-0.0000153, l1: 1, l2: -1),
        T(+0.0000070, l2: 2, l3: -3, π3: 1),
        T(-0.0000051, l3: 1, π3: 1, G: -2, Π: -2),
    ]

    static let callistoRadius: [Term] = [
        T(-0.0073546, l4: 1, π4: -1),
        T(+0.0001621, l4: 1, π3: -1),
        T(+0.0000974, l3: 1, l4: -1),
        T(-0.0000543, l4: 1, π4: 1, G: -2, Π: -2),
        T(-0.0000271, l4: 2, π4: -2),
        T(+0.0000182, l4: 1, Π: -1),
        T(+0.0000177, l3: 2, l4: -2),
        T(-0.0000167, l4: 2, ω4: -1, ψ: -1),
        T(+0.0000167, ω4: -1, ψ: 1),
        T(-0.0000155, l4: 2, G: -2, Π: -2),
        T(+0.0000142, l4: 2, ψ: -2),
        T(+0.0000105, l1: 1, l4: -1),
        T(+0.0000092, l2: 1, l4: -1),
        T(-0.0000089, l4: 1, G: -1, Π: -1),
        T(-0.0000062, l4: 1, π4: 1, G: -3, Π: -2),
        T(+0.0000048, l4: 2, ω4: -2),
    ]
}
