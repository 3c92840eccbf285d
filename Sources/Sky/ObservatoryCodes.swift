import Ephemeris

/// The Minor Planet Center's list of observatory codes (`ObsCodes.html`, the list Horizons'
/// `CENTER='675'` and `'F51@399'` name sites from): per line the three-character code, the
/// east longitude (degrees), the parallax constants ρ cos φ′ and ρ sin φ′ (in Earth equatorial
/// radii) and the name, in fixed columns (1–3, 5–13, 14–21, 22–30, 31–); the HTML around the
/// list and its heading are skipped. Sites in space (a blank place: Hubble, Gaia …) are kept,
/// with no place.
///
/// ```swift
/// let codes = try ObservatoryCodes(text: bytes, source: "mpc-ObsCodes.html")
/// codes["675"]?.name            // "Palomar Mountain"
/// ```
public struct ObservatoryCodes: Sendable {
    public struct Site: Sendable, Hashable {
        public let code: String
        public let name: String
        /// East longitude, degrees (0 … 360 as the MPC writes it).
        public let longitudeDeg: Double?
        public let rhoCosPhi: Double?
        public let rhoSinPhi: Double?

        /// The site on the Earth (nil for a site in space).
        public var observer: Observer? {
            guard let lon = longitudeDeg, let c = rhoCosPhi, let s = rhoSinPhi else { return nil }
            return try? Observer(longitudeDeg: lon, axisDistanceKm: c * ObservatoryCodes.earthRadiusKm, equatorDistanceKm: s * ObservatoryCodes.earthRadiusKm)
        }
    }

    /// The Earth radius the MPC's parallax constants are in units of (IAU 1976, as the MPC
    /// states for the list), km.
    public static let earthRadiusKm = 6_378.14

    public let sites: [String: Site]
    /// The file the list came from, for answers that name it.
    public let source: String
    /// Lines that looked like a site but could not be read (line number, text).
    public let problems: [(line: Int, text: String)]

    public static let empty = ObservatoryCodes(sites: [:], source: "none", problems: [])

    init(sites: [String: Site], source: String, problems: [(line: Int, text: String)]) {
        self.sites = sites
        self.source = source
        self.problems = problems
    }

    public var count: Int { sites.count }
    public subscript(code: String) -> Site? { sites[code.uppercased()] }

    /// At most this many bytes are read (the MPC's full list is about 150 KB).
    public static let maxBytes = 4 << 20

    /// Reads the list; a text with no site at all is refused.
    public init(text bytes: [UInt8], source: String) throws(ObservatoryCodesError) {
        guard bytes.count <= Self.maxBytes else { throw ObservatoryCodesError(source: source, reason: "larger than \(Self.maxBytes) bytes") }
        var sites: [String: Site] = [:]
        var problems: [(Int, String)] = []
        var lineNumber = 0
        for raw in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = Array(raw)
            if line.last == 0x0D { line.removeLast() }
            // A site line: three code characters (letters and digits) and a space; the heading
            // ("Code  Long. …") and the HTML tags fail that.
            guard line.count >= 4, line[3] == 0x20, line[0..<3].allSatisfy({ Self.isCodeCharacter($0) }) else { continue }
            let code = String(decoding: line[0..<3], as: UTF8.self)
            func field(_ r: Range<Int>) -> String {
                guard r.lowerBound < line.count else { return "" }
                return String(decoding: line[r.lowerBound..<min(r.upperBound, line.count)], as: UTF8.self).trimmingCharacters(in: " ")
            }
            let lonText = field(4..<13), cosText = field(13..<21), sinText = field(21..<30)
            let name = String(field(30..<max(30, line.count)))
            if lonText.isEmpty && cosText.isEmpty && sinText.isEmpty {
                sites[code] = Site(code: code, name: name, longitudeDeg: nil, rhoCosPhi: nil, rhoSinPhi: nil)
                continue
            }
            guard let lon = Double(lonText), let c = Double(cosText), let s = Double(sinText), (0...360).contains(lon), (0...1.1).contains(c), abs(s) <= 1.1 else {
                if problems.count < 100 { problems.append((lineNumber, String(decoding: line.prefix(80), as: UTF8.self))) }
                continue
            }
            if sites[code] == nil { sites[code] = Site(code: code, name: name, longitudeDeg: lon, rhoCosPhi: c, rhoSinPhi: s) }
        }
        guard !sites.isEmpty else { throw ObservatoryCodesError(source: source, reason: "no observatory code line (code, longitude, ρ cos φ′, ρ sin φ′, name in the MPC's columns)") }
        self.sites = sites
        self.source = source
        self.problems = problems
    }

    static func isCodeCharacter(_ b: UInt8) -> Bool {
        (0x30...0x39).contains(b) || (0x41...0x5A).contains(b)
    }
}

public struct ObservatoryCodesError: Error, Sendable, CustomStringConvertible {
    public let source: String
    public let reason: String
    public var description: String { "\(source): not an MPC observatory code list: \(reason)" }
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        String(Substring(self).trimmingCharacters(in: set))
    }
}
