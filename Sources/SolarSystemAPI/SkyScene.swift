import Ephemeris
import HTTP
import Satellites
import Sky

/// What one `/v1/sky` answer looks at, resolved once for the request: the engine bodies and the
/// satellites (from the element sets the request started with), in the order asked.
struct SkyScene: Sendable {
    let targets: [SkyTarget]
    let bodies: [BodyID]
    let satellites: [(satellite: Satellite, name: String)]

    init(_ targets: [SkyTarget], engine: EphemerisService, catalogue: SatelliteCatalogue) throws(ProblemDetails) {
        self.targets = targets
        bodies = targets.compactMap { if case let .body(b) = $0 { return b } else { return nil } }
        var sats: [(Satellite, String)] = []
        for case let .satellite(n, name) in targets { sats.append((try engine.satellite(n, name: name, in: catalogue), name)) }
        satellites = sats
    }

    /// The cache key's spelling of the satellites (their NORAD numbers and names as asked).
    var satelliteDetail: String { satellites.map { "\($0.satellite.noradID)=\($0.name)" }.joined(separator: ",") }

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
