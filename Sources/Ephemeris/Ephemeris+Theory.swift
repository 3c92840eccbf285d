/// The theory serving one body over one stretch of time: what `/v1/positions` reports per body
/// and `/metrics` counts.
public struct TheorySpan: Sendable, Hashable {
    /// Short name: `DE440` (the kernel's label), `VSOP87A`, `Standish 1992`, `Meeus ch. 37`,
    /// `Meeus ch. 47`; a satellite names its own theory and its parent's, `Lieske E5 + DE440`.
    public let name: String
    /// The TDB Julian dates it serves (neighbours share their ends).
    public let jdTDB: ClosedRange<Double>

    public init(name: String, jdTDB: ClosedRange<Double>) {
        self.name = name
        self.jdTDB = jdTDB
    }
}

/// A theory and where it applies; where several apply, the highest priority serves.
struct TheoryLayer: Sendable {
    let name: String
    let jdTDB: ClosedRange<Double>
    let priority: Int
}

extension Ephemeris {
    /// TDB Julian dates of the accepted instants (UTC years −3000…3000).
    public static let servedJDTDB: ClosedRange<Double> = {
        let first = CivilDateTime.julianDayNumberAtMidnight(year: TimeScale.yearRange.lowerBound, month: 1, day: 1)
        let end = CivilDateTime.julianDayNumberAtMidnight(year: TimeScale.yearRange.upperBound + 1, month: 1, day: 1)
        return TimeScale.instant(utc: CivilDateTime(julianDay: first)).jdTDB...TimeScale.instant(utc: CivilDateTime(julianDay: end)).jdTDB
    }()

    /// The theory serving `body` at `t` and the span over which it does.
    public func theory(_ body: BodyID, at t: Instant) -> TheorySpan {
        theory(body, jdTDB: t.jdTDB)
    }

    /// The theory serving `body` at a TDB Julian date. The layers mirror the tests `state` makes
    /// (the kernel's closed span, then VSOP87A's or Meeus's closed ranges), so the name is the
    /// theory that answered.
    public func theory(_ body: BodyID, jdTDB jd: Double) -> TheorySpan {
        let spans = theorySpans[body.index]
        guard let layer = theoryLayers[body.index].first(where: { $0.jdTDB.contains(jd) }) else {
            return jd < Self.servedJDTDB.lowerBound ? spans[0] : spans[spans.count - 1]
        }
        return spans.first { $0.name == layer.name && $0.jdTDB.contains(jd) } ?? spans[0]
    }

    /// Every theory serving `body` across the accepted range, in time order.
    public func theorySpans(_ body: BodyID) -> [TheorySpan] { theorySpans[body.index] }

    /// The layers of `body`, highest priority first.
    static func layers(_ body: BodyID, kernel: PlanetaryKernel?, issFromElementSets: Bool = false,
                       satellites: SatelliteKernels? = nil, anchors: [MoonAnchor] = []) -> [TheoryLayer] {
        let all = servedJDTDB
        var list: [TheoryLayer]
        switch body {
        case .sun:
            list = [TheoryLayer(name: "heliocentric origin", jdTDB: all, priority: 0)]
        case .mercury, .venus, .earth, .mars, .jupiter, .saturn, .uranus, .neptune:
            list = [TheoryLayer(name: "VSOP87A", jdTDB: vsop87Range, priority: 1), TheoryLayer(name: "Standish 1992", jdTDB: all, priority: 0)]
        case .pluto:
            list = [TheoryLayer(name: "Meeus ch. 37", jdTDB: PlutoTheory.validRange, priority: 1), TheoryLayer(name: "Standish 1992", jdTDB: all, priority: 0)]
        case .moon:
            list = [TheoryLayer(name: "Meeus ch. 47", jdTDB: all, priority: 0)]
        default:
            guard let parent = body.parent else { preconditionFailure("satellites have parents") }
            let own = body == .iss && issFromElementSets ? "SGP4 (the catalogue's circular orbit where it fails)" : satelliteTheoryName(body)
            return spans(moonLayers(body, theory: own, satellites: satellites, anchors: anchors)).flatMap { mine in
                spans(layers(parent, kernel: kernel)).compactMap { theirs -> TheoryLayer? in
                    let lo = max(mine.jdTDB.lowerBound, theirs.jdTDB.lowerBound), hi = min(mine.jdTDB.upperBound, theirs.jdTDB.upperBound)
                    return lo < hi ? TheoryLayer(name: "\(mine.name) + \(theirs.name)", jdTDB: lo...hi, priority: 0) : nil
                }
            }
        }
        if let kernel, NAIFBody.planetaryKernelID(body) != nil {
            list.insert(TheoryLayer(name: kernel.label, jdTDB: kernel.spanJDTDB, priority: 2), at: 0)
        }
        return list
    }

    /// A moon's own layers: its theory, moved near published flybys (``MoonAnchor``), and the
    /// loaded kernels that cover it (``SatelliteKernels``), which win.
    static func moonLayers(_ body: BodyID, theory: String, satellites: SatelliteKernels?, anchors: [MoonAnchor]) -> [TheoryLayer] {
        var list = [TheoryLayer(name: theory, jdTDB: servedJDTDB, priority: 0)]
        func jd(_ seconds: Double) -> Double { Constants.jdJ2000 + seconds / Constants.secondsPerDay }
        for a in anchors where a.body == body {
            let km = Int(a.offsetKm.length.rounded())
            list.append(TheoryLayer(name: "\(theory), moved \(km) km near \(a.source)", jdTDB: jd(a.spanSeconds.lowerBound)...jd(a.spanSeconds.upperBound), priority: 1))
        }
        for span in satellites?.spans(body) ?? [] {
            list.append(TheoryLayer(name: "SPK \(span.file)", jdTDB: span.jdTDB, priority: 2))
        }
        return list
    }

    static func satelliteTheoryName(_ body: BodyID) -> String {
        switch body {
        case .iss: return "seed circular orbit"
        case .phobos, .deimos: return "JPL mean elements"
        case .io, .europa, .ganymede, .callisto: return "Lieske E5"
        case .mimas, .enceladus, .tethys, .dione, .rhea, .titan, .iapetus: return "Harper & Taylor"
        default: return body.rawValue
        }
    }

    /// The layers flattened into time order: at every stretch between two layer ends, the
    /// highest-priority layer covering it; neighbours with the same name merged.
    static func spans(_ layers: [TheoryLayer]) -> [TheorySpan] {
        let all = servedJDTDB
        let cuts = Set(layers.flatMap { [$0.jdTDB.lowerBound, $0.jdTDB.upperBound] }.map { min(max($0, all.lowerBound), all.upperBound) })
            .union([all.lowerBound, all.upperBound]).sorted()
        var out: [TheorySpan] = []
        for (a, b) in zip(cuts, cuts.dropFirst()) {
            let mid = a + (b - a) / 2
            guard let winner = layers.filter({ $0.jdTDB.contains(mid) }).max(by: { $0.priority < $1.priority }) else { continue }
            if let last = out.last, last.name == winner.name {
                out[out.count - 1] = TheorySpan(name: last.name, jdTDB: last.jdTDB.lowerBound...b)
            } else {
                out.append(TheorySpan(name: winner.name, jdTDB: a...b))
            }
        }
        return out
    }

    // MARK: - Model descriptions

    /// The theories serving every instant in `[first, last]` (TDB Julian dates): one summary when
    /// the same theories serve the whole span, else each distinct one in time order, " / "-joined.
    public func modelSummary(fromJDTDB first: Double, toJDTDB last: Double) -> String {
        let lo = min(first, last), hi = max(first, last)
        var edges = [Self.vsop87Range.lowerBound, Self.vsop87Range.upperBound, PlutoTheory.validRange.lowerBound, PlutoTheory.validRange.upperBound]
        if let k = kernel { edges += [k.spanJDTDB.lowerBound, k.spanJDTDB.upperBound] }
        // Probe each edge and just past it: the ranges are closed, so the next theory starts after.
        let inside = edges.filter { $0 > lo && $0 < hi }
        let probes = ([lo, hi] + inside + inside.map { $0.nextUp.nextUp }).sorted()
        var seen: [String] = []
        for jd in probes {
            let s = modelSummary(jdTDB: jd)
            if seen.last != s { seen.append(s) }
        }
        return seen.joined(separator: " / ")
    }

    /// One line naming every theory serving an answer at `jdTDB`.
    public func modelSummary(jdTDB: Double) -> String {
        var moons = "Meeus ch. 44 Galilean moons (Lieske E5); Meeus ch. 46 Saturnian moons (Harper & Taylor); JPL mean elements for Phobos and Deimos; IAU WGCCRE 2015 rotation"
        let kernelMoons = BodyID.allCases.filter { b in satelliteKernels?.spans(b).contains { $0.jdTDB.contains(jdTDB) } ?? false }
        if !kernelMoons.isEmpty {
            let files = Set(kernelMoons.flatMap { b in satelliteKernels?.spans(b).filter { $0.jdTDB.contains(jdTDB) }.map(\.file) ?? [] }).sorted()
            moons = "SPK \(files.joined(separator: ", ")) for \(kernelMoons.map(\.rawValue).joined(separator: ", ")); " + moons
        }
        if let k = kernel, k.spanJDTDB.contains(jdTDB) {
            return "JPL \(k.label) (SPK kernel) for the Sun, planets, Pluto, Earth and Moon; \(moons)"
        }
        let planets = Self.planetTheory(jdTDB: jdTDB) == .vsop87 ? "VSOP87A planets (truncated)" : "Standish (1992) planets"
        let pluto = Self.plutoUsesMeeus(jdTDB: jdTDB) ? "Meeus ch. 37 Pluto" : "Standish (1992) Pluto"
        return "\(planets); \(pluto); Meeus ch. 47 Moon (ELP-2000/82); \(moons)"
    }

    /// The kernel's span in words, e.g. `1899-12-30..2100-01-24 TDB`.
    var kernelSpanText: String? {
        guard let k = kernel else { return nil }
        func day(_ jd: Double) -> String { String(CivilDateTime(julianDay: jd).iso8601.prefix(10)) }
        return "\(day(k.spanJDTDB.lowerBound))..\(day(k.spanJDTDB.upperBound)) TDB"
    }

    /// The theory behind `body`, its tested accuracy and its range: a loaded kernel's segments
    /// first where they cover a moon, and the anchors moving a moon near published flybys.
    public func modelInfo(_ body: BodyID) -> EphemerisModelInfo {
        let base = dataModelInfo(body)
        var notes: [String] = []
        if let spans = satelliteKernels?.spans(body), !spans.isEmpty {
            func day(_ jd: Double) -> String { String(CivilDateTime(julianDay: jd).iso8601.prefix(10)) }
            // A file's stretches listed, up to three; more (a mission kernel's moon moved about
            // each of a hundred flybys) counted.
            var files: [String] = []
            for s in spans where !files.contains(s.file) { files.append(s.file) }
            let parts = files.map { file -> String in
                let mine = spans.filter { $0.file == file }.map(\.jdTDB)
                guard mine.count > 3, let first = mine.first, let last = mine.last else {
                    return mine.map { "\(file) in \(day($0.lowerBound))..\(day($0.upperBound)) TDB" }.joined(separator: ", ")
                }
                return "\(file) in \(mine.count) stretches within \(day(first.lowerBound))..\(day(last.upperBound)) TDB"
            }
            notes.append("SPK kernel " + parts.joined(separator: ", ") + " (from the planet's centre), which wins where it covers")
        }
        let anchors = moonAnchors.filter { $0.body == body }
        if !anchors.isEmpty {
            notes.append("moved near \(anchors.count) published flyby\(anchors.count == 1 ? "" : "s") (\(anchors.map { "\(Int($0.offsetKm.length.rounded())) km, \($0.source)" }.joined(separator: "; ")))")
        }
        guard !notes.isEmpty else { return base }
        return EphemerisModelInfo(theory: notes.joined(separator: "; ") + "; otherwise: " + base.theory, accuracy: base.accuracy,
                                  validity: base.validity, rotation: base.rotation)
    }

    /// ``modelInfo(_:)`` from the DE kernel and the theories alone.
    func dataModelInfo(_ body: BodyID) -> EphemerisModelInfo {
        let fallback = analyticalModelInfo(body)
        guard let k = kernel, let span = kernelSpanText else { return fallback }
        if NAIFBody.planetaryKernelID(body) != nil {
            let what = body == .sun ? "the Sun's centre (the heliocentric origin)"
                : body == .earth ? "the Earth's centre"
                : body == .moon ? "the Moon (geocentric: Earth-Moon barycentre to Moon minus to Earth)"
                : body == .pluto ? "the Pluto system barycentre" : "the system barycentre"
            return EphemerisModelInfo(
                theory: "JPL \(k.label) (SPK kernel, JPL's Chebyshev coefficients), \(what), in \(span); outside: \(fallback.theory)",
                accuracy: "\(k.label) itself in \(span) (the bundled DE440 agrees with Skyfield's DE440 to 0.001 arcsec and 1 km, the Moon to 10 m, at 48 cases 1950-2096); outside: \(fallback.accuracy)",
                validity: "\(k.label) in \(span); \(fallback.validity) outside", rotation: fallback.rotation)
        }
        guard let parent = body.parent, NAIFBody.planetaryKernelID(parent) != nil else { return fallback }
        return EphemerisModelInfo(theory: "\(fallback.theory); the parent's position from JPL \(k.label) in \(span)", accuracy: fallback.accuracy,
                                  validity: fallback.validity, rotation: fallback.rotation)
    }

    /// The analytical theory behind `body`, what serves without a kernel.
    func analyticalModelInfo(_ body: BodyID) -> EphemerisModelInfo {
        let rotation = rotationModel(body)
        let vsop = "VSOP87A (Bretagnon & Francou 1988), truncated, in 1000-3000 AD; Standish (1992) Keplerian elements outside"
        let planetRange = "years -3000..3000 (VSOP87A in 1000-3000, Standish tables 2a/2b outside)"
        func planet(_ measured: String, bound: Int) -> EphemerisModelInfo {
            EphemerisModelInfo(theory: vsop, accuracy: "direction within \(bound) arcsec of JPL DE440 (measured \(measured) max over 48 cases 1950-2096)", validity: planetRange, rotation: rotation)
        }
        switch body {
        case .sun:
            return EphemerisModelInfo(theory: "origin of the heliocentric frame", accuracy: "exact (by definition)", validity: "years -3000..3000", rotation: rotation)
        case .mercury: return planet("9.4 arcsec", bound: 30)
        case .venus: return planet("6.5 arcsec", bound: 30)
        case .earth:
            return EphemerisModelInfo(theory: vsop + "; the Earth-Moon barycentre minus Moon/(1 + 81.30056907)", accuracy: "direction within 30 arcsec of JPL DE440 (measured 5 arcsec max over 48 cases 1950-2096)", validity: planetRange, rotation: rotation)
        case .mars: return planet("10.4 arcsec", bound: 100)
        case .jupiter: return planet("16 arcsec", bound: 800)
        case .saturn: return planet("34 arcsec", bound: 800)
        case .uranus: return planet("27 arcsec", bound: 150)
        case .neptune: return planet("13 arcsec", bound: 80)
        case .pluto:
            return EphemerisModelInfo(theory: "Meeus, Astronomical Algorithms ch. 37 (43-term fit to DE) in 1885-2099; Standish (1992) outside", accuracy: "direction within 80 arcsec of JPL DE440 (measured 2.9 arcsec max over 48 cases 1950-2096)", validity: "years -3000..3000 (Meeus 1885-2099, Standish outside)", rotation: rotation)
        case .moon:
            return EphemerisModelInfo(theory: "Meeus, Astronomical Algorithms ch. 47 (truncated ELP-2000/82), precessed to J2000", accuracy: "geocentric direction within 30 arcsec and distance within 50 km of JPL DE440 (tested 1950-2096)", validity: "years -3000..3000 (best within a few centuries of 2000)", rotation: rotation)
        case .iss where issSource != nil:
            return EphemerisModelInfo(theory: "SGP4 (Vallado et al. 2006) from the loaded element set of NORAD 25544, TEME to J2000 by IAU 1980 nutation and IAU 1976 precession; the catalogue's circular orbit at dates SGP4 refuses", accuracy: "as the element set: about 1 km a day from its epoch for the ISS (see docs/satellites.md)", validity: "days to weeks around the element set's epoch", rotation: rotation)
        case .iss:
            return EphemerisModelInfo(theory: "the catalogue's circular orbit: 408 km altitude, 51.6 deg inclination, 92.7 min period, node fixed at RA 0", accuracy: "illustrative only: not a real-time ISS ephemeris (no TLE)", validity: "any date", rotation: rotation)
        case .phobos, .deimos:
            return EphemerisModelInfo(theory: "JPL planetary satellite mean elements (Laplace plane, precessing node and periapsis)", accuracy: "within 5% of the orbit radius of PyEphem (tested 1995-2040)", validity: "best within a few decades of 2000", rotation: rotation)
        case .io, .europa, .ganymede, .callisto:
            return EphemerisModelInfo(theory: "Meeus, Astronomical Algorithms ch. 44 (Lieske E5 series), geometric", accuracy: "within 3% of the orbit radius of PyEphem (tested 1950-2096)", validity: "years -3000..3000 (best within a few centuries of 2000)", rotation: rotation)
        case .mimas, .enceladus, .tethys, .dione, .rhea, .titan, .iapetus:
            return EphemerisModelInfo(theory: "Meeus, Astronomical Algorithms ch. 46 (Harper & Taylor 1993), geometric", accuracy: "within 3% of the orbit radius of PyEphem (tested 1999-2040)", validity: "years -3000..3000 (best within a few centuries of 2000)", rotation: rotation)
        }
    }
}
