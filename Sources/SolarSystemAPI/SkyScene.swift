import Ephemeris
import HTTP
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
              skippingFailures: Bool = false) throws(ProblemDetails) -> [Entry] {
        var engineViews = sky.view(bodies, from: observer, at: time, atmosphere: atmosphere)[...]
        var satelliteIndex = 0
        var out: [Entry] = []
        out.reserveCapacity(targets.count)
        for t in targets {
            switch t {
            case .body:
                out.append(.body(engineViews.removeFirst()))
            case let .smallBody(id, name):
                do {
                    out.append(.body(try smallBodyView(sky, id: id, name: name, from: observer, at: time, atmosphere: atmosphere)))
                } catch {
                    if skippingFailures { continue }
                    throw error
                }
            case .satellite:
                let (s, name) = satellites[satelliteIndex]
                satelliteIndex += 1
                do {
                    out.append(.satellite(try sky.view(satellite: s.propagator, id: name, from: observer, at: time, atmosphere: atmosphere), s))
                } catch {
                    if skippingFailures { continue }
                    throw EphemerisService.unpropagatable(s, name: name, at: time.instant, error)
                }
            }
        }
        return out
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
    static func write(_ e: SkyScene.Entry, into w: inout JSONWriter) {
        guard case let .satellite(s, satellite) = e else { return write(e.position, into: &w) }
        write(s.position, into: &w) { w in
            SatelliteAnnotation(noradID: satellite.noradID, name: satellite.elements.name, epoch: EphemerisService.epoch(satellite),
                                ageDays: s.minutesSinceEpoch / 1440, subpoint: s.subpoint, illumination: s.illumination).write(into: &w)
        }
    }

    static func csvRows(_ time: SkyTime, _ entries: [SkyScene.Entry]) -> [UInt8] {
        csvRows(time, entries.map(\.position), illumination: entries.map { e in
            if case let .satellite(s, _) = e { return s.illumination.rawValue }
            return ""
        })
    }
}
