/// The bodies the engine takes from a JPL DE kernel — the Sun, the barycentres of the Mercury …
/// Pluto systems, the Earth and the Moon — each chained through its segments' centres to the
/// solar-system barycentre (the Moon: SSB → Earth-Moon barycentre → Moon) and rotated from the
/// kernel's ICRF/J2000 axes into ecliptic J2000 (obliquity 84381.448″, the frame of
/// `Precession.equatorialToEclipticJ2000`). Heliocentric means relative to the Sun (10).
///
/// ```swift
/// let kernel = try PlanetaryKernel(bytes: mapping, file: "Resources/de440-1900-2100.bsp")
/// kernel.label        // "DE440"
/// kernel.spanJDTDB    // 2415016.5...2488072.5 (SPKKernelTests checks it)
/// let eph = Ephemeris(catalogue: catalogue, kernel: kernel)
/// ```
public final class PlanetaryKernel: Sendable {
    public let spk: SPKKernel
    /// The ephemeris's name, e.g. `DE440`, from its segment names (else the file name).
    public let label: String
    /// Where every body the engine takes from the kernel is covered, TDB seconds past J2000.
    public let spanSeconds: ClosedRange<Double>
    /// The same span as TDB Julian dates.
    public let spanJDTDB: ClosedRange<Double>

    /// One target's usable segments (indices into `spk.segments`, latest in the file first:
    /// they take precedence) and the centre they share.
    struct Link: Sendable {
        let target: Int
        let center: Int
        let segments: [Int]
    }

    let links: [Link]
    /// Per link: its segment when it has only one (the DE kernels), else −1.
    let onlySegment: [Int]
    /// Per `BodyID.index`: the links whose sum is the body's position from the SSB (empty for
    /// bodies the kernel does not serve). The Earth's is its own (399 → 3 → 0).
    let chains: [[Int]]
    let sunChain: [Int]
    /// The geocentric Moon is Σ `moonPlus` − Σ `moonMinus` (their shared links removed).
    let moonPlus: [Int]
    let moonMinus: [Int]
    let toEcliptic = Precession.equatorialToEclipticJ2000

    /// The bodies whose state comes from the kernel inside its span.
    public static let bodies: [BodyID] = BodyID.allCases.filter { NAIFBody.planetaryKernelID($0) != nil }


    public convenience init(bytes: any KernelBytes, file: String) throws(SPKError) {
        try self.init(try SPKKernel(bytes: bytes, file: file))
    }

    public init(_ spk: SPKKernel) throws(SPKError) {
        self.spk = spk
        let file = spk.file
        var links: [Link] = []
        var slotOf: [Int: Int] = [:]

        /// The links from `target` down to the SSB, adding any not yet known.
        func chain(_ target: Int) throws(SPKError) -> [Int] {
            var out: [Int] = []
            var id = target
            while id != 0 {
                guard out.count < 8 else {
                    throw SPKError(.corrupt, file: file, "the segment centres from \(NAIFBody.name(target)) (\(target)) do not reach the solar-system barycentre (0)")
                }
                if let slot = slotOf[id] { out.append(slot); id = links[slot].center; continue }
                let usable = spk.segments.indices.filter { spk.segments[$0].target == id && spk.segments[$0].isEvaluated }
                guard let first = usable.first else {
                    if let other = spk.segments.first(where: { $0.target == id }) {
                        throw SPKError(.unsupported, file: file, "the segment for \(NAIFBody.name(id)) (\(id)) is SPK \(other.typeDescription), which this reader does not evaluate")
                    }
                    throw SPKError(.missingSegments, file: file, "no segment for \(NAIFBody.name(id)) (\(id)); the engine needs the Sun (10), the barycentres 1–9, the Earth (399) and the Moon (301), chained to the solar-system barycentre (0) as in JPL's DE kernels")
                }
                let center = spk.segments[first].center
                for i in usable {
                    let s = spk.segments[i]
                    guard s.center == center else {
                        throw SPKError(.unsupported, file: file, "segments for \(NAIFBody.name(id)) (\(id)) have different centres (\(center), \(s.center))")
                    }
                    guard s.frame == 1 else {
                        throw SPKError(.unsupported, file: file, "the segment for \(NAIFBody.name(id)) (\(id)) is in frame \(s.frame); only J2000/ICRF (1) is supported")
                    }
                }
                slotOf[id] = links.count
                out.append(links.count)
                links.append(Link(target: id, center: center, segments: usable.reversed()))
                id = center
            }
            return out
        }

        var chains = [[Int]](repeating: [], count: BodyID.count)
        for body in Self.bodies { chains[body.index] = try chain(NAIFBody.planetaryKernelID(body) ?? 0) }
        self.chains = chains
        self.links = links
        onlySegment = links.map { $0.segments.count == 1 ? $0.segments[0] : -1 }
        sunChain = chains[BodyID.sun.index]
        // Drop the links the Moon and the Earth share (the Earth-Moon barycentre in DE kernels).
        var plus = chains[BodyID.moon.index], minus = chains[BodyID.earth.index]
        while let a = plus.last, let b = minus.last, a == b { plus.removeLast(); minus.removeLast() }
        moonPlus = plus
        moonMinus = minus

        // The span: every link's longest stretch of contiguous coverage, intersected.
        var lo = -Double.infinity, hi = Double.infinity
        for link in links {
            let pieces = link.segments.map { (spk.segments[$0].startSeconds, spk.segments[$0].endSeconds) }.sorted { $0.0 < $1.0 }
            var merged: [(Double, Double)] = []
            for p in pieces {
                if let last = merged.last, p.0 <= last.1 { merged[merged.count - 1].1 = max(last.1, p.1) } else { merged.append(p) }
            }
            guard let longest = merged.max(by: { $0.1 - $0.0 < $1.1 - $1.0 }) else { continue }
            lo = max(lo, longest.0)
            hi = min(hi, longest.1)
        }
        guard lo.isFinite, hi.isFinite, lo < hi else {
            throw SPKError(.missingSegments, file: file, "the segments the engine needs share no common time span")
        }
        spanSeconds = lo...hi
        spanJDTDB = (Constants.jdJ2000 + lo / Constants.secondsPerDay)...(Constants.jdJ2000 + hi / Constants.secondsPerDay)
        label = Self.label(spk)
    }

    /// `DE440` from segment names like `DE-0440LE-0440`; else the file's name.
    static func label(_ spk: SPKKernel) -> String {
        for s in spk.segments where s.name.hasPrefix("DE-") {
            let digits = s.name.dropFirst(3).prefix { $0.isASCII && $0.isNumber }
            if let n = Int(digits) { return "DE\(n)" }
        }
        return DAFFile.printable(spk.fileName)
    }

    // MARK: - Evaluation (inside `spanSeconds`; the caller checks)

    @inline(__always) func segment(_ link: Int, _ seconds: Double) -> Int {
        let only = onlySegment[link]
        if only >= 0 { return only }
        let list = links[link].segments
        for i in list where spk.records[i].covers(seconds) { return i }
        return list[0]
    }

    @inline(__always) func linkPosition(_ link: Int, _ seconds: Double) -> Vector3 {
        spk.position(segment: segment(link, seconds), secondsPastJ2000: seconds)
    }

    @inline(__always) func linkState(_ link: Int, _ seconds: Double) -> (positionKm: Vector3, velocityKmPerSecond: Vector3) {
        spk.state(segment: segment(link, seconds), secondsPastJ2000: seconds)
    }

    func sumPositions(_ chain: [Int], _ seconds: Double) -> Vector3 {
        var p = Vector3.zero
        for link in chain { p += linkPosition(link, seconds) }
        return p
    }

    func sumStates(_ chain: [Int], _ seconds: Double) -> (Vector3, Vector3) {
        var p = Vector3.zero, v = Vector3.zero
        for link in chain {
            let s = linkState(link, seconds)
            p += s.positionKm
            v += s.velocityKmPerSecond
        }
        return (p, v)
    }

    /// Heliocentric ecliptic J2000 state (AU, AU/day) of the Sun or a planet (the Earth itself,
    /// not the Earth-Moon barycentre; system barycentres for the others).
    public func heliocentricState(_ body: BodyID, secondsPastJ2000 seconds: Double) -> StateVector {
        let (p, v) = sumStates(chains[body.index], seconds)
        let (ps, vs) = sumStates(sunChain, seconds)
        let perDay = Constants.secondsPerDay / Constants.auKm
        return StateVector(positionAU: toEcliptic * (p - ps) / Constants.auKm, velocityAUPerDay: toEcliptic * (v - vs) * perDay)
    }

    /// Heliocentric ecliptic J2000 position (AU) of the Sun or a planet.
    public func heliocentricPosition(_ body: BodyID, secondsPastJ2000 seconds: Double) -> Vector3 {
        toEcliptic * (sumPositions(chains[body.index], seconds) - sumPositions(sunChain, seconds)) / Constants.auKm
    }

    /// The Moon from the Earth's centre, ecliptic J2000: km and km/day.
    public func moonGeocentricState(secondsPastJ2000 seconds: Double) -> (positionKm: Vector3, velocityKmPerDay: Vector3) {
        let (pp, vp) = sumStates(moonPlus, seconds)
        let (pm, vm) = sumStates(moonMinus, seconds)
        return (toEcliptic * (pp - pm), toEcliptic * (vp - vm) * Constants.secondsPerDay)
    }

    /// The Moon from the Earth's centre, ecliptic J2000, km.
    public func moonGeocentricPosition(secondsPastJ2000 seconds: Double) -> Vector3 {
        toEcliptic * (sumPositions(moonPlus, seconds) - sumPositions(moonMinus, seconds))
    }

    /// Every planet's heliocentric position (AU) into `heliocentricAU` at its `BodyID.index`
    /// (Sun, Mercury … Pluto, the Earth), each link evaluated once; returns the geocentric Moon
    /// (km). All ecliptic J2000.
    public func positions(secondsPastJ2000 seconds: Double, heliocentricAU: inout [Vector3]) -> Vector3 {
        withUnsafeTemporaryAllocation(of: Vector3.self, capacity: links.count) { buffer in
            for i in 0..<links.count { buffer[i] = linkPosition(i, seconds) }
            func sum(_ chain: [Int]) -> Vector3 {
                var p = Vector3.zero
                for link in chain { p += buffer[link] }
                return p
            }
            let sun = sum(sunChain)
            let scale = 1 / Constants.auKm
            for body in BodyID.heliocentric {
                heliocentricAU[body.index] = toEcliptic * (sum(chains[body.index]) - sun) * scale
            }
            heliocentricAU[BodyID.sun.index] = .zero
            return toEcliptic * (sum(moonPlus) - sum(moonMinus))
        }
    }

    /// Every planet's heliocentric state (AU, AU/day) into `states` at its `BodyID.index`, each
    /// link evaluated once; returns the geocentric Moon (km, km/day). All ecliptic J2000.
    public func states(secondsPastJ2000 seconds: Double, into states: inout [StateVector]) -> (positionKm: Vector3, velocityKmPerDay: Vector3) {
        withUnsafeTemporaryAllocation(of: (Vector3, Vector3).self, capacity: links.count) { buffer in
            for i in 0..<links.count {
                let s = linkState(i, seconds)
                buffer[i] = (s.positionKm, s.velocityKmPerSecond)
            }
            func sum(_ chain: [Int]) -> (Vector3, Vector3) {
                var p = Vector3.zero, v = Vector3.zero
                for link in chain { p += buffer[link].0; v += buffer[link].1 }
                return (p, v)
            }
            let (ps, vs) = sum(sunChain)
            let scale = 1 / Constants.auKm, perDay = Constants.secondsPerDay / Constants.auKm
            for body in BodyID.heliocentric {
                let (p, v) = sum(chains[body.index])
                states[body.index] = StateVector(positionAU: toEcliptic * (p - ps) * scale, velocityAUPerDay: toEcliptic * (v - vs) * perDay)
            }
            states[BodyID.sun.index] = StateVector(positionAU: .zero, velocityAUPerDay: .zero)
            let (pp, vp) = sum(moonPlus), (pm, vm) = sum(moonMinus)
            return (toEcliptic * (pp - pm), toEcliptic * (vp - vm) * Constants.secondsPerDay)
        }
    }
}
