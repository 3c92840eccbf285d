import Ephemeris
import Satellites
import Sky
import SmallBodies

/// Everything a Horizons answer is computed from, as one request sees it: the engine, the
/// observer's sky, the loaded SPK kernels and the mission vehicles' names, the asteroids and
/// comets, the Earth satellites' element sets, the observatory codes and the constellation
/// boundaries. Built per request by the API from what it serves at that moment; pure.
public struct HorizonsContext: Sendable {
    public var ephemeris: Ephemeris
    public var sky: SkyEngine
    public var kernelBodies: KernelBodies?
    /// NAIF id → the mission vehicle's name (`Voyager 1`), for the kernels' bodies.
    public var vehicleNames: [Int: String]
    public var smallBodies: SmallBodyCatalogue
    public var propagator: SmallBodyPropagator?
    public var satellites: SatelliteCatalogue
    public var observatories: ObservatoryCodes
    public var constellations: Constellations?
    /// Unix seconds (the header's time stamp).
    public var now: @Sendable () -> Double
    /// Polled between rows and inside long integrations.
    public var interrupt: Interrupt

    public init(ephemeris: Ephemeris, sky: SkyEngine, kernelBodies: KernelBodies? = nil, vehicleNames: [Int: String] = [:],
                smallBodies: SmallBodyCatalogue = .empty, propagator: SmallBodyPropagator? = nil, satellites: SatelliteCatalogue = .empty,
                observatories: ObservatoryCodes = .empty, constellations: Constellations? = nil,
                now: @escaping @Sendable () -> Double, interrupt: Interrupt = .never) {
        self.ephemeris = ephemeris
        self.sky = sky
        self.kernelBodies = kernelBodies
        self.vehicleNames = vehicleNames
        self.smallBodies = smallBodies
        self.propagator = propagator
        self.satellites = satellites
        self.observatories = observatories
        self.constellations = constellations
        self.now = now
        self.interrupt = interrupt
    }

    /// The planetary ephemeris' name for `{source: …}`.
    var planetarySource: String {
        guard let k = ephemeris.kernel else { return "analytical theories" }
        return k.label.split(separator: " ").first.map(String.init) ?? k.label
    }

    // MARK: - Major bodies

    /// One line of Horizons' major-body list.
    struct MajorEntry: Sendable {
        let id: Int
        let name: String
        let designation: String
        let aliases: String
    }

    /// Every major body a COMMAND may name: the engine's, the ISS when an element set places it,
    /// the kernels' spacecraft (the missions' vehicles by name).
    var majorEntries: [MajorEntry] {
        var out = HorizonsBody.majorBodies.map { MajorEntry(id: $0.id, name: $0.name, designation: $0.designation, aliases: $0.aliases) }
        if satellites.satellite(norad: SatelliteCatalogue.issNoradID) != nil {
            out.append(MajorEntry(id: -125_544, name: "International Space Station", designation: "1998-067A", aliases: "ISS"))
        }
        for id in (kernelBodies?.targets ?? []).sorted(by: { abs($0) < abs($1) }) where NAIFBody.known(id) == nil {
            out.append(MajorEntry(id: id, name: spacecraftName(id), designation: "", aliases: ""))
        }
        return out
    }

    func spacecraftName(_ id: Int) -> String {
        if let n = vehicleNames[id] { return "\(n) (spacecraft)" }
        return id < 0 ? "Spacecraft \(id)" : "NAIF body \(id)"
    }

    /// The body of a major-body id, or nil when the server places none.
    public func majorBody(_ id: Int) -> HorizonsBody? {
        if id == -125_544 { return satelliteBody(norad: SatelliteCatalogue.issNoradID) }
        if let entry = HorizonsBody.majorBodies.first(where: { $0.id == id }), NAIFBody.known(id) != nil {
            return engineBody(id, name: entry.name)
        }
        if let kernels = kernelBodies, kernels.targets.contains(id) {
            return kernelBody(id, kernels: kernels)
        }
        return nil
    }

    func engineBody(_ id: Int, name: String) -> HorizonsBody {
        let eph = ephemeris
        let known = NAIFBody.known(id)
        var engine: BodyID?
        var kind = HorizonsBody.Kind.planet
        switch known {
        case .solarSystemBarycenter?, .earthMoonBarycenter?: kind = .barycenter
        case let .body(b)?:
            engine = b
            if b == .sun { kind = .sun } else if b.isSatellite { kind = .satelliteOfPlanet } else if id < 10 { kind = .barycenter }
        case let .planetCenter(b)?: engine = b
        case nil: break
        }
        let kernel = eph.kernel
        // Planets and system barycentres straight from the DE kernel inside its span (no
        // instant to build); anything else through the engine's NAIF chain.
        let direct: BodyID? = {
            guard let b = engine, !b.isSatellite, kernel != nil else { return nil }
            if case .planetCenter? = known { return nil }
            return b
        }()
        let state: @Sendable (Double) -> (positionKm: Vector3, velocityKmS: Vector3) = { s in
            if let b = direct, let k = kernel, k.spanSeconds.contains(s) {
                let st = k.heliocentricState(b, secondsPastJ2000: s)
                return (st.positionAU * Constants.auKm, st.velocityAUPerDay * (Constants.auKm / Constants.secondsPerDay))
            }
            if id == 0, let k = kernel, k.spanSeconds.contains(s) {
                let sun = k.sunBarycentricState(secondsPastJ2000: s)
                return (-sun.positionKm, -sun.velocityKmPerSecond)
            }
            return eph.naifState(id, at: TimeScale.instant(tdbSecondsPastJ2000: s)) ?? (Vector3(.nan, .nan, .nan), Vector3(.nan, .nan, .nan))
        }
        var radii: (Double, Double)?
        var orientation: (@Sendable (Double) -> Matrix3)?
        var west = true
        var primary: BodyID?
        if let b = engine, kind != .barycenter {
            radii = BodyShapes.radiiKm(b, catalogue: eph.catalogue)
            orientation = { s in eph.orientation(b, at: TimeScale.instant(tdbSecondsPastJ2000: s)).bodyToEquatorial }
            west = BodyShapes.westLongitudes(b, rotation: eph.iauElements(b))
            primary = b.parent == .sun ? nil : b.parent
        }
        let gm: Double? = {
            switch id {
            case 0: return GravityConstants.sunGM + BodyID.heliocentric.reduce(0) { $0 + ($1 == .earth ? GravityConstants.earthGM + GravityConstants.moonGM : GravityConstants.gm($1)) }
            case 3: return GravityConstants.earthGM + GravityConstants.moonGM
            case 599: return GravityConstants.jupiterGM
            case 699: return GravityConstants.saturnGM
            default: return engine.map { $0 == .earth ? GravityConstants.earthGM : GravityConstants.gm($0) }
            }
        }()
        let brightness: QuantityTarget.Brightness = engine.map { Photometry.magnitude($0, sunDistanceAU: 1, observerDistanceAU: 1, phaseDeg: 0) != nil ? .engine($0) : .none } ?? .none
        let source: String
        if let b = engine, b.isSatellite, b != .moon {
            source = eph.theory(b, jdTDB: Constants.jdJ2000).name
        } else {
            source = planetarySource
        }
        return HorizonsBody(kind: kind, id: id, name: name, targetName: "\(name) (\(id))", source: source, engineBody: engine, smallBody: nil,
                            radiiKm: radii, gm: gm, coverage: nil, state: state, orientation: orientation, primeMeridianKnown: true, westLongitudes: west,
                            brightness: kind == .barycenter ? .none : brightness, primary: primary)
    }

    func kernelBody(_ id: Int, kernels: KernelBodies) -> HorizonsBody {
        let eph = ephemeris
        let state: @Sendable (Double) -> (positionKm: Vector3, velocityKmS: Vector3) = { s in
            guard let st = try? kernels.state(id, relativeTo: 10, tdbSecondsPastJ2000: s, ephemeris: eph) else {
                return (Vector3(.nan, .nan, .nan), Vector3(.nan, .nan, .nan))
            }
            return (st.positionKm, st.velocityKmS)
        }
        let name = spacecraftName(id)
        let source = kernels.segments(of: id).first.map { kernels.kernels[$0.kernel].fileName } ?? "SPK"
        return HorizonsBody(kind: .spacecraft, id: id, name: name, targetName: "\(name) (\(id))", source: source, engineBody: nil, smallBody: nil,
                            radiiKm: nil, gm: nil, coverage: kernels.coverage(of: id), state: state, orientation: nil, primeMeridianKnown: false, westLongitudes: true,
                            brightness: .none, primary: nil)
    }

    public func satelliteBody(norad: Int) -> HorizonsBody? {
        guard let sat = satellites.satellite(norad: norad) else { return nil }
        let eph = ephemeris
        let propagator = sat.propagator
        let state: @Sendable (Double) -> (positionKm: Vector3, velocityKmS: Vector3) = { s in
            let t = TimeScale.instant(tdbSecondsPastJ2000: s)
            guard let g = try? propagator.icrfState(at: t) else { return (Vector3(.nan, .nan, .nan), Vector3(.nan, .nan, .nan)) }
            let earth = eph.state(.earth, at: t)
            let m = Precession.equatorialToEclipticJ2000
            return (earth.positionAU * Constants.auKm + m * g.positionKm,
                    earth.velocityAUPerDay * (Constants.auKm / Constants.secondsPerDay) + m * g.velocityKmPerSecond)
        }
        let naif = -100_000 - norad
        let name = norad == SatelliteCatalogue.issNoradID ? "International Space Station" : (sat.elements.name ?? "NORAD \(norad)")
        return HorizonsBody(kind: .earthSatellite, id: naif, name: name, targetName: "\(name) (\(naif))", source: "SGP4, element set \(sat.source)",
                            engineBody: nil, smallBody: nil, radiiKm: nil, gm: nil, coverage: nil, state: state, orientation: nil, primeMeridianKnown: false, westLongitudes: true,
                            brightness: .none, primary: .earth)
    }

    // MARK: - Small bodies

    /// Record numbers as Horizons gives them: a numbered asteroid's number; others past 50,000,000
    /// (asteroids) and 90,000,000 (comets) in the catalogue's order.
    func recordNumber(_ h: SmallBodyCatalogue.Handle) -> Int {
        let body = smallBodies.body(h)
        if let n = body.number { return n }
        let base = body.kind == .comet ? 90_000_000 : 50_000_000
        return base + h.file * 1_000_000 + h.index + 1
    }

    func handle(record: Int) -> SmallBodyCatalogue.Handle? {
        if record < 50_000_000 { return smallBodies.numbered(record) }
        let offset = record >= 90_000_000 ? record - 90_000_000 : record - 50_000_000
        let file = (offset - 1) / 1_000_000, index = (offset - 1) % 1_000_000
        guard file >= 0, file < smallBodies.files.count, index >= 0, index < smallBodies.files[file].count else { return nil }
        let h = SmallBodyCatalogue.Handle(file: file, index: index)
        return recordNumber(h) == record ? h : nil
    }

    /// Horizons' name of a small body: `1 Ceres (A801 AA)`, `99942 Apophis (2004 MN4)`,
    /// `1P/Halley`, `C/1995 O1 (Hale-Bopp)`, `(1935 UZ)`.
    static func horizonsName(_ b: SmallBody) -> String {
        switch b.kind {
        case .asteroid:
            if let n = b.number {
                let name = b.name ?? ""
                let des = b.designation != String(n) && b.designation != name ? " (\(b.designation))" : ""
                return name.isEmpty ? "\(n)\(des)" : "\(n) \(name)\(des)"
            }
            return b.name.map { "\($0) (\(b.designation))" } ?? "(\(b.designation))"
        case .comet:
            return b.fullName
        }
    }

    public func smallBody(_ h: SmallBodyCatalogue.Handle) -> HorizonsBody {
        let body = smallBodies.body(h)
        let propagator = self.propagator
        let interrupt = self.interrupt
        let state: @Sendable (Double) -> (positionKm: Vector3, velocityKmS: Vector3) = { s in
            guard let p = propagator, let st = try? p.heliocentricState(body, atSeconds: s, shouldStop: { (try? interrupt.check()) == nil }) else {
                return (Vector3(.nan, .nan, .nan), Vector3(.nan, .nan, .nan))
            }
            return (st.positionKm, st.velocityKmS)
        }
        let name = Self.horizonsName(body)
        let brightness: QuantityTarget.Brightness
        switch body.brightness {
        case let .asteroid(hh, g)?: brightness = .asteroid(h: hh, g: g)
        case let .comet(m1, k1)?: brightness = .comet(m1: m1, k1: k1)
        case nil: brightness = .none
        }
        let physical = body.physical
        let radii = physical?.radiiKm
        let pole = physical?.pole
        // A pole without a prime meridian: latitudes, the pole's place and L_s, no longitudes.
        let orientation: (@Sendable (Double) -> Matrix3)? = pole.map { p in
            let m = Matrix3(columns: Self.perpendicular(p), p.cross(Self.perpendicular(p)), p)
            return { _ in m }
        }
        let trusted = propagator?.trustedSpan(body).map { [$0] }
        return HorizonsBody(kind: .smallBody, id: recordNumber(h), name: name, targetName: name, source: body.solution ?? body.source.file,
                            engineBody: nil, smallBody: body, radiiKm: radii, gm: physical?.gm, coverage: trusted ?? [],
                            state: state, orientation: orientation, primeMeridianKnown: false, westLongitudes: true, brightness: brightness, primary: nil)
    }

    static func perpendicular(_ v: Vector3) -> Vector3 {
        let a = abs(v.x) < 0.9 ? Vector3(1, 0, 0) : Vector3(0, 1, 0)
        return v.cross(a).cross(v).normalized
    }
}
