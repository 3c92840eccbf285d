import Glibc

/// One naked-eye star (Yale Bright Star Catalogue, 5th ed.), at its J2000 catalogue place.
public struct Star: Sendable, Hashable {
    public let rightAscensionHours: Double
    public let declinationDeg: Double
    /// Visual magnitude V.
    public let magnitude: Double
    /// B − V colour index, nil where the catalogue has none.
    public let colorIndex: Double?
    /// Proper name, nil for unnamed stars.
    public let name: String?
    /// Unit vector in ICRF / equatorial J2000.
    public let directionEquatorial: Vector3
    /// Unit vector in the mean ecliptic and equinox of J2000 (the planets' frame).
    public let directionEcliptic: Vector3
    /// The drawing's brightness tier, 0 (brightest) … 3 (``tiers``).
    public let tier: Int
    /// Point size in pixels within the tier's range.
    public let pointSize: Double
    /// Display colour from B − V, sRGB components in 0…1.
    public let colorRGB: [Double]
}

/// Parses `stars.csv` (`ra` hours, `dec` degrees, `mag` V, `ci` B−V, `name`).
public struct StarCatalogue: Sendable {
    public let stars: [Star]

    /// The starfield's four point-size tiers: upper magnitude bound (exclusive), size at the
    /// bright end, size at the faint end. mag < 1.5: 3–8 px; 1.5–3.5: 2–5 px; 3.5–5.0:
    /// 1.5–3 px; 5.0–6.5: 0.8–2 px.
    public static let tiers: [(brightest: Double, faintest: Double, largest: Double, smallest: Double)] = [
        (-1.5, 1.5, 8, 3),
        (1.5, 3.5, 5, 2),
        (3.5, 5.0, 3, 1.5),
        (5.0, 6.5, 2, 0.8),
    ]

    public init(csv: [UInt8]) throws(StarCatalogueError) {
        var stars: [Star] = []
        stars.reserveCapacity(9000)
        var lineNumber = 0
        var sawHeader = false
        var start = 0
        let count = csv.count
        while start < count {
            var end = start
            while end < count, csv[end] != 0x0A { end += 1 }
            var lineEnd = end
            if lineEnd > start, csv[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            lineNumber += 1
            let line = String(decoding: csv[start..<lineEnd], as: UTF8.self)
            start = end + 1
            if line.isEmpty { continue }
            if !sawHeader {
                guard line.hasPrefix("ra,dec,mag,ci,name") else {
                    throw .malformed(line: lineNumber, detail: "expected the header ra,dec,mag,ci,name")
                }
                sawHeader = true
                continue
            }
            stars.append(try Self.parse(line, lineNumber: lineNumber))
        }
        guard !stars.isEmpty else { throw .malformed(line: lineNumber, detail: "no stars") }
        self.stars = stars
    }

    static func parse(_ line: String, lineNumber: Int) throws(StarCatalogueError) -> Star {
        let fields = line.split(separator: ",", maxSplits: 4, omittingEmptySubsequences: false)
        guard fields.count == 5 else { throw .malformed(line: lineNumber, detail: "expected 5 fields") }
        guard let ra = Double(fields[0]), (0..<24).contains(ra) else { throw .malformed(line: lineNumber, detail: "ra must be hours in 0..<24") }
        guard let dec = Double(fields[1]), (-90...90).contains(dec) else { throw .malformed(line: lineNumber, detail: "dec must be degrees in -90...90") }
        guard let mag = Double(fields[2]), mag.isFinite else { throw .malformed(line: lineNumber, detail: "mag must be a number") }
        let ci: Double?
        if fields[3].isEmpty { ci = nil } else {
            guard let v = Double(fields[3]), v.isFinite else { throw .malformed(line: lineNumber, detail: "ci must be a number or empty") }
            ci = v
        }
        let nameField = fields[4].trimmingCharacters(in: " \"")
        let raRad = ra * Double.pi / 12
        let decRad = dec * Angle.radiansPerDegree
        let equatorial = Vector3(cos(decRad) * cos(raRad), cos(decRad) * sin(raRad), sin(decRad))
        let (tier, size) = pointSize(magnitude: mag)
        return Star(
            rightAscensionHours: ra, declinationDeg: dec, magnitude: mag, colorIndex: ci,
            name: nameField.isEmpty ? nil : nameField,
            directionEquatorial: equatorial,
            directionEcliptic: Precession.equatorialToEclipticJ2000 * equatorial,
            tier: tier, pointSize: size,
            colorRGB: StarColor.rgb(bMinusV: ci ?? 0.65)
        )
    }

    /// Tier and point size for a magnitude, linear within the tier (brighter = larger).
    public static func pointSize(magnitude m: Double) -> (tier: Int, size: Double) {
        for (i, t) in tiers.enumerated() where m < t.faintest || i == tiers.count - 1 {
            let f = max(0, min(1, (m - t.brightest) / (t.faintest - t.brightest)))
            return (i, t.largest + (t.smallest - t.largest) * f)
        }
        return (tiers.count - 1, tiers[tiers.count - 1].smallest)
    }
}

public enum StarCatalogueError: Error, Sendable, CustomStringConvertible {
    case malformed(line: Int, detail: String)
    public var description: String {
        switch self {
        case let .malformed(line, detail): return "stars.csv line \(line): \(detail)"
        }
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        var s = self[...]
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return String(s)
    }
}

/// Star colour from B − V: Ballesteros (2012) gives the effective temperature, the Planckian
/// locus (Kim et al. 2002 cubic fits) its CIE 1931 chromaticity, which goes to linear sRGB
/// (IEC 61966-2-1 matrix), is normalised to a peak of 1 and gamma-encoded.
public enum StarColor {
    /// Effective temperature in kelvin (Ballesteros 2012, EPL 97, 34008).
    public static func temperature(bMinusV bv: Double) -> Double {
        let c = max(-0.4, min(2.0, bv))
        return 4600 * (1 / (0.92 * c + 1.7) + 1 / (0.92 * c + 0.62))
    }

    /// CIE 1931 xy of a blackbody at `kelvin` (Kim et al. 2002, valid 1667–25000 K).
    static func chromaticity(kelvin t0: Double) -> (x: Double, y: Double) {
        let t = max(1667, min(25000, t0))
        let k = 1e3 / t, k2 = k * k, k3 = k2 * k
        let x: Double = t <= 4000
            ? -0.2661239 * k3 - 0.2343589 * k2 + 0.8776956 * k + 0.179910
            : -3.0258469 * k3 + 2.1070379 * k2 + 0.2226347 * k + 0.240390
        let x2 = x * x, x3 = x2 * x
        let y: Double
        if t <= 2222 {
            y = -1.1063814 * x3 - 1.34811020 * x2 + 2.18555832 * x - 0.20219683
        } else if t <= 4000 {
            y = -0.9549476 * x3 - 1.37418593 * x2 + 2.09137015 * x - 0.16748867
        } else {
            y = 3.0817580 * x3 - 5.87338670 * x2 + 3.75112997 * x - 0.37001483
        }
        return (x, y)
    }

    public static func rgb(bMinusV bv: Double) -> [Double] {
        let (x, y) = chromaticity(kelvin: temperature(bMinusV: bv))
        let Y = 1.0
        let X = x / y * Y, Z = (1 - x - y) / y * Y
        var r = 3.2406 * X - 1.5372 * Y - 0.4986 * Z
        var g = -0.9689 * X + 1.8758 * Y + 0.0415 * Z
        var b = 0.0557 * X - 0.2040 * Y + 1.0570 * Z
        r = max(0, r); g = max(0, g); b = max(0, b)
        let peak = max(r, g, b)
        func encode(_ c: Double) -> Double {
            let v = c / peak
            let s = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
            return (s * 1000).rounded() / 1000
        }
        return [encode(r), encode(g), encode(b)]
    }
}
