import Foundation
import Testing
import Ephemeris
import Satellites
@testable import Sky

/// `deep-space-passes.json`: Skyfield's `find_events` for two 12 h Molniya sets of the SGP4
/// verification file over three days at three places (`scripts/make-satellite-fixtures.py`). A
/// deep-space pass search samples by the satellite's motion across the sky (up to a twentieth of
/// the period between samples) instead of every minute: it must find what Skyfield finds.
struct DeepSpacePassFixture: Decodable {
    struct Event: Decodable { let kind: Int, utcISO: String, altitudeDeg: Double, azimuthDeg: Double }
    struct Place: Decodable { let name: String, latitudeDeg: Double, longitudeDeg: Double, elevationM: Double, events: [Event] }
    struct Set: Decodable { let name: String, line1: String, line2: String, places: [Place] }
    let start: String, stop: String, minAltitudeDeg: Double
    let sets: [Set]
}

@Suite("Deep-space passes against Skyfield")
struct DeepSpacePassTests {
    static let fixture = TestSky.fixture("deep-space-passes.json", as: DeepSpacePassFixture.self)

    /// Skyfield's events as stretches above the minimum: a rise (nil when already up at the
    /// start), its culminations (Skyfield lists every local maximum; a pass is the highest), a set.
    struct Stretch { var rise: Instant?; var culminations: [(Instant, Double)] = []; var set: Instant? }

    static func stretches(_ events: [DeepSpacePassFixture.Event]) throws -> [Stretch] {
        var out: [Stretch] = []
        var current: Stretch?
        for e in events {
            let t = try TimeScale.parse(e.utcISO)
            switch e.kind {
            case 0: current = Stretch(rise: t)
            case 1:
                if current == nil { current = Stretch(rise: nil) }
                current?.culminations.append((t, e.altitudeDeg))
            default:
                if current == nil { current = Stretch(rise: nil) }
                current?.set = t
                out.append(current!)
                current = nil
            }
        }
        if let current { out.append(current) }
        // A stretch whose culmination falls after the window is not a pass of the window.
        return out.filter { !$0.culminations.isEmpty }
    }

    @Test("rises, culminations and sets within 1 s of Skyfield, none missing, none extra")
    func passesMatchSkyfield() throws {
        let start = try TimeScale.parse(Self.fixture.start), stop = try TimeScale.parse(Self.fixture.stop)
        var passes = 0, worst = 0.0
        for set in Self.fixture.sets {
            let sgp4 = try SGP4(try TLEParser.parse(line1: set.line1[...], line2: set.line2[...], verifyChecksums: false))
            for p in set.places {
                let observer = TestSky.observer(p.latitudeDeg, p.longitudeDeg, p.elevationM)
                // A stretch still above the minimum at the window's end may culminate higher after
                // it (ours then is not a pass of the window; Skyfield lists the lower maximum
                // inside it): compare the stretches that set inside the window.
                let ours = try TestSky.engine.passes(sgp4, from: observer, start: start, stop: stop, minAltitudeDeg: Self.fixture.minAltitudeDeg)
                    .filter { $0.set.map { $0.instant <= stop } ?? false }
                let theirs = try Self.stretches(p.events).filter { $0.set != nil }
                #expect(ours.count == theirs.count, "\(set.name) \(p.name): \(ours.count) passes, Skyfield \(theirs.count)")
                for (o, t) in zip(ours, theirs) {
                    func check(_ a: Instant?, _ b: Instant?, _ what: String) {
                        guard let b else { return }
                        guard let a else { Issue.record("\(set.name) \(p.name): no \(what), Skyfield's at \(b.iso8601)"); return }
                        let dt = abs(a.seconds(since: b))
                        worst = max(worst, dt)
                        #expect(dt < 1, "\(set.name) \(p.name) \(what): \(dt) s from Skyfield")
                    }
                    check(o.rise?.instant, t.rise, "rise")
                    check(o.set?.instant, t.set, "set")
                    let highest = t.culminations.max { $0.1 < $1.1 }!
                    check(o.culmination.instant, highest.0, "culmination")
                    #expect(abs(o.culmination.altitudeDeg - highest.1) < 60.0 / 3600, "\(set.name) \(p.name) culmination altitude")
                    passes += 1
                }
            }
        }
        print("deep-space passes: \(passes) against Skyfield, worst \(worst) s")
        #expect(passes >= 15)
    }
}
