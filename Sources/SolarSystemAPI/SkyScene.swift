import Ephemeris
import Horizons
import HTTPCore
import Satellites
import Sky
import SmallBodies

/// What one `/v1/sky` answer looks at, resolved once for the request: the engine bodies and the
/// satellites (from the element sets the request started with), in the order asked.
struct SkyScene: Sendable {
    let targets: [SkyTarget]
    let bodies: [BodyID]
    let satellites: [(satellite: Satellite, name: String)]
    /// The asteroids and comets, from the catalogue the request started with.
    let smallBodies: [(id: String, name: String)]
    let smallBodyFeed: SmallBodyFeed.Current?
    let engine: EphemerisService
    /// The observer quantities asked for (`quantities=`), nil when none were.
    private(set) var quantities: Quantities?

    /// What `quantities=` computes: the set, its fields, and each target as the Horizons
    /// dialect's observer tables take it (aligned with `targets`).
    struct Quantities: Sendable {
        let set: QuantitySet
        let fields: [QuantityEncoding.Field]
        let targets: [QuantityTarget]
        let constellations: Constellations?
    }

    init(_ targets: [SkyTarget], engine: EphemerisService, catalogue: SatelliteCatalogue) throws(ProblemDetails) {
        self.targets = targets
        self.engine = engine
        bodies = targets.compactMap { if case let .body(b) = $0 { return b } else { return nil } }
        var sats: [(Satellite, String)] = []
        for case let .satellite(n, name) in targets { sats.append((try engine.satellite(n, name: name, in: catalogue), name)) }
        satellites = sats
        smallBodies = targets.compactMap { if case let .smallBody(id, name) = $0 { return (id, name) } else { return nil } }
        smallBodyFeed = smallBodies.isEmpty ? nil : engine.smallBodies?.current
    }

    /// The cache key's spelling of the satellites (their NORAD numbers and names as asked) and
    /// small bodies (their ids and names, and the element files' generation).
    var satelliteDetail: String {
        satellites.map { "\($0.satellite.noradID)=\($0.name)" }.joined(separator: ",")
            + (smallBodies.isEmpty ? "" : ";sb\(smallBodyFeed?.generation ?? 0):" + smallBodies.map { "\($0.id)=\($0.name)" }.joined(separator: ","))
    }

    /// Asks every target's observer quantities of `set` too, the targets built as the Horizons
    /// endpoint builds them from `context` (with this scene's element sets and small bodies).
    mutating func computing(_ set: QuantitySet, context: HorizonsContext, catalogue: SatelliteCatalogue) {
        var context = context
        context.satellites = catalogue
        if let feed = smallBodyFeed {
            context.smallBodies = feed.catalogue
            context.propagator = feed.propagator
        }
        var out: [QuantityTarget] = []
        for t in targets {
            let body: HorizonsBody?
            switch t {
            case let .body(b): body = context.majorBody(NAIFBody.id(b))
            case let .satellite(n, _): body = context.satelliteBody(norad: n)
            case let .smallBody(id, _): body = context.smallBodies.resolve(id).map { context.smallBody($0) }
            }
            // SkyTarget.list admits only what these resolve (observable engine bodies, loaded
            // element sets, catalogued small bodies); a body that cannot be placed is NaN, and
            // the view's own 422 comes first.
            guard let body else { preconditionFailure("sky target \(t) has no Horizons body") }
            out.append(context.quantityTarget(body))
        }
        quantities = Quantities(set: set, fields: QuantityEncoding.fields(of: set), targets: out, constellations: context.constellations)
    }

    /// One body of the view, with its quantities when they were asked for.
    struct Row {
        let entry: Entry
        let quantities: ObserverQuantities?
    }

    enum Entry {
        case body(SkyPosition)
        case satellite(SatelliteSkyPosition, Satellite)

        var position: SkyPosition {
            switch self {
            case let .body(p): return p
            case let .satellite(s, _): return s.position
            }
        }
    }

    /// Every target at `time`; a satellite SGP4 cannot place there is the 422 of the positions,
    /// or with `skippingFailures` (a streamed table, its head already sent) left out of that row.
    func view(_ sky: SkyEngine, from observer: Observer, at time: SkyTime, atmosphere: Atmosphere?,
              skippingFailures: Bool = false) throws(ProblemDetails) -> [Row] {
        var engineViews = sky.view(bodies, from: observer, at: time, atmosphere: atmosphere)[...]
        var satelliteIndex = 0
        var entries: [Entry] = []
        var placed: [Int] = []
        entries.reserveCapacity(targets.count)
        placed.reserveCapacity(targets.count)
        for (i, t) in targets.enumerated() {
            switch t {
            case .body:
                entries.append(.body(engineViews.removeFirst()))
                placed.append(i)
            case let .smallBody(id, name):
                do {
                    entries.append(.body(try smallBodyView(sky, id: id, name: name, from: observer, at: time, atmosphere: atmosphere)))
                    placed.append(i)
                } catch {
                    if skippingFailures { continue }
                    throw error
                }
            case .satellite:
                let (s, name) = satellites[satelliteIndex]
                satelliteIndex += 1
                do {
                    entries.append(.satellite(try sky.view(satellite: s.propagator, id: name, from: observer, at: time, atmosphere: atmosphere), s))
                    placed.append(i)
                } catch {
                    if skippingFailures { continue }
                    throw EphemerisService.unpropagatable(s, name: name, at: time.instant, error)
                }
            }
        }
        guard let q = quantities else { return entries.map { Row(entry: $0, quantities: nil) } }
        let site = QuantitySite.earth(observer)
        let rows = sky.quantities(placed.map { q.targets[$0] }, from: site, at: time, q.set, refraction: atmosphere, constellations: q.constellations)
        return zip(entries, rows).map { Row(entry: $0, quantities: $1) }
    }
}

extension SkyScene {
    /// The small bodies as the events search takes them: name and heliocentric position.
    var pointSources: [(id: String, heliocentricEclipticAU: @Sendable (Double) -> Vector3)] {
        let engine = engine, feed = smallBodyFeed
        return smallBodies.map { (id, name) in
            (name, { @Sendable s in
                let t = TimeScale.instant(tdbSecondsPastJ2000: s)
                return (try? engine.smallBodyState(id, name: name, model: .nbody, at: t, current: feed).0.positionAU) ?? Vector3(.nan, .nan, .nan)
            })
        }
    }

    /// A small body in the sky: its state checked at the instant (a 422 beyond the trusted
    /// span), then placed with light time from the same path.
    func smallBodyView(_ sky: SkyEngine, id: String, name: String, from observer: Observer, at time: SkyTime,
                       atmosphere: Atmosphere?) throws(ProblemDetails) -> SkyPosition {
        let current = smallBodyFeed
        _ = try engine.smallBodyState(id, name: name, model: .nbody, at: time.instant, current: current)
        let brightness: SkyEngine.SmallBodyBrightness? = current.flatMap { c in
            c.catalogue.resolve(id).flatMap { h in
                switch c.catalogue.body(h).brightness {
                case let .asteroid(h, g)?: return .hg(h: h, g: g)
                case let .comet(m1, k1)?: return .comet(m1: m1, k1: k1)
                case nil: return nil
                }
            }
        }
        return sky.view(id: name, heliocentricEclipticAU: { s in
            let t = TimeScale.instant(tdbSecondsPastJ2000: s)
            return (try? engine.smallBodyState(id, name: name, model: .nbody, at: t, current: current).0.positionAU) ?? Vector3(.nan, .nan, .nan)
        }, brightness: brightness, from: observer, at: time, atmosphere: atmosphere)
    }
}

extension SkyEncoding {
    static func write(_ row: SkyScene.Row, fields: [QuantityEncoding.Field], into w: inout JSONWriter) {
        let e = row.entry
        write(e.position, into: &w) { w in
            if case let .satellite(s, satellite) = e {
                SatelliteAnnotation(noradID: satellite.noradID, name: satellite.elements.name, epoch: EphemerisService.epoch(satellite),
                                    ageDays: s.minutesSinceEpoch / 1440, subpoint: s.subpoint, illumination: s.illumination).write(into: &w)
            }
            if let q = row.quantities { QuantityEncoding.write(q, fields: fields, into: &w) }
        }
    }

    static func csvRows(_ time: SkyTime, _ rows: [SkyScene.Row], fields: [QuantityEncoding.Field]) -> [UInt8] {
        csvRows(time, rows.map(\.entry.position), illumination: rows.map { r in
            if case let .satellite(s, _) = r.entry { return s.illumination.rawValue }
            return ""
        }, quantities: fields.isEmpty ? nil : (rows.map(\.quantities), fields))
    }
}
