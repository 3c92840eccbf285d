import Glibc
import Synchronization
import Ephemeris

/// A stretch of a vehicle's line where it flies a bound orbit about a planet (Cassini at
/// Saturn, Juno at Jupiter, the Mars orbiters, BepiColombo at Mercury). A line sampled over the
/// whole mission puts a few points on each revolution there, so it draws chords, not the orbit:
/// drawings leave such a stretch out and draw the revolution flown up to the moment shown.
public struct OrbitSpan: Sendable, Hashable {
    public let body: BodyID
    /// Hours from launch, inside the vehicle's line span.
    public let hours: ClosedRange<Double>
}

/// Each vehicle's orbit spans, found once (a scan of its whole line) and kept.
final class OrbitSpanCache: Sendable {
    private let spans = Mutex<[String: [OrbitSpan]]>([:])

    func spans(_ vehicle: String, compute: () -> [OrbitSpan]) -> [OrbitSpan] {
        if let known = spans.withLock({ $0[vehicle] }) { return known }
        let found = compute()
        spans.withLock { $0[vehicle] = found }
        return found
    }
}

extension MissionEngine {
    /// The scan's step, hours: an orbit shorter-lived than a few of these is not a span.
    static let orbitScanHours = 24.0
    /// The shortest span kept, hours (a parking orbit before an escape burn is not one).
    static let shortestOrbitHours = 48.0

    /// Where the vehicle flies a bound orbit about a planet (heliocentric missions; a geocentric
    /// mission's line is drawn about the Earth as it is): inside the planet's Hill sphere with
    /// negative two-body energy about it (the planet system's GM), for two days or more. Scanned
    /// daily over the line's span, its ends found to the minute. Sorted by time.
    public func orbitSpans(_ track: VehicleTrack) -> [OrbitSpan] {
        orbitCache.spans(track.vehicle.id) { findOrbitSpans(track) }
    }

    func findOrbitSpans(_ track: VehicleTrack) -> [OrbitSpan] {
        guard mission.referenceFrame == .heliocentric else { return [] }
        let line = lineSpanHours(track)
        var times: [Double] = []
        var t = line.lowerBound
        while t < line.upperBound {
            times.append(t)
            t += Self.orbitScanHours
        }
        times.append(line.upperBound)
        // A sampled orbit (a Mars orbiter's daily samples) is bound throughout: its states are
        // integrations between samples, too dear to scan.
        let sampled = sampledOrbits(track).map { ($0.span, $0.path.body) }
        let bodies = times.map { t in sampled.first { $0.0.contains(t) }?.1 ?? boundBody(track, atHours: t) }
        var spans: [OrbitSpan] = []
        var k = 0
        while k < times.count {
            guard let body = bodies[k] else { k += 1; continue }
            var last = k
            while last + 1 < times.count, bodies[last + 1] == body { last += 1 }
            let start = k == 0 ? times[0] : edge(track, body: body, outside: times[k - 1], inside: times[k])
            let end = last == times.count - 1 ? times[last] : edge(track, body: body, outside: times[last + 1], inside: times[last])
            if end - start >= Self.shortestOrbitHours { spans.append(OrbitSpan(body: body, hours: start...end)) }
            k = last + 1
        }
        return spans
    }

    /// The planet the vehicle is bound to at `t`, if any.
    func boundBody(_ track: VehicleTrack, atHours t: Double) -> BodyID? {
        guard let s = try? state(track, atHours: t) else { return nil }
        let planets = ephemeris.planetPositionsAU(at: s.instant)
        for p in BodyID.heliocentric {
            let q = planets[p.index] * Constants.auKm
            let r = s.heliocentricKm - q
            let hill = q.length * cbrt(GravityConstants.gm(p) / (3 * GravityConstants.sunGM))
            guard r.length < hill else { continue }
            let v = s.velocityKmS - ephemeris.state(p, at: s.instant).velocityAUPerDay * (Constants.auKm / Constants.secondsPerDay)
            return v.lengthSquared / 2 - GravityConstants.gm(p) / r.length < 0 ? p : nil
        }
        return nil
    }

    /// Where between a time bound to `body` and one not the binding begins or ends: bisection
    /// to a minute.
    func edge(_ track: VehicleTrack, body: BodyID, outside: Double, inside: Double) -> Double {
        var (a, b) = (outside, inside)
        while abs(b - a) > 1.0 / 60 {
            let m = (a + b) / 2
            if boundBody(track, atHours: m) == body { b = m } else { a = m }
        }
        return b
    }
}
