import Foundation
import Testing
import Ephemeris
import Sky
@testable import MissionKernels

/// Launch pads where the Earth really had them at launch: Skyfield (IAU 2006/2000A, its own
/// UT1) places each pad within 100 m of where ``SurfaceSite`` does with UT1 and the pole from
/// the IERS table (before 1972 the engine's ΔT); the IAU rotation model the bodies are drawn
/// with put them 4–9 km west.
@Suite("Launch sites on the real Earth")
struct LaunchSiteTests {
    struct Fixture: Decodable {
        struct Pad: Decodable { let mission: String; let pad: String; let utc: String; let latitudeDeg: Double; let longitudeDeg: Double; let eclipticKm: [Double] }
        let pads: [Pad]
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, UTC.
    static func instant(_ iso: String) throws -> Instant {
        let n = iso.split(whereSeparator: { "-T:Z".contains($0) }).compactMap { Double($0) }
        return try TimeScale.utc(year: Int(n[0]), month: Int(n[1]), day: Int(n[2]), hour: Int(n[3]), minute: Int(n[4]), second: n[5])
    }

    static let table = try? DeltaTTable(csv: Repository.bytes("Resources/iers-delta-t.csv"))

    @Test("each mission's pad at its launch time is where Skyfield puts it, within 100 m")
    func padsAgreeWithSkyfield() throws {
        let fixture = try JSONDecoder().decode(Fixture.self, from: Data(Repository.bytes("Tests/MissionKernelsTests/Fixtures/pads-skyfield.json")))
        let eph = Repository.ephemeris
        let terrestrial = TerrestrialFrame(ephemeris: eph, deltaT: try #require(Self.table))
        #expect(fixture.pads.count == 6)
        for p in fixture.pads {
            let site = SurfaceSite(body: .earth, latitudeDeg: p.latitudeDeg, longitudeDeg: p.longitudeDeg)
            let t = try Self.instant(p.utc)
            let seconds = t.daysSinceJ2000TDB * Constants.secondsPerDay
            let earth = try #require(eph.naifState(399, at: t))
            let served = site.state(at: seconds, ephemeris: eph, terrestrial: terrestrial).positionKm - earth.positionKm
            let expected = Vector3(p.eclipticKm[0], p.eclipticKm[1], p.eclipticKm[2])
            #expect((served - expected).length < 0.1, "\(p.mission) \(p.pad): \((served - expected).length * 1000) m from Skyfield's")
            // The IAU rotation model is what the pads used to turn with: kilometres off.
            let iau = eph.orientation(.earth, at: t).bodyToEcliptic * site.bodyFixedKm(radiusKm: 6_371)
            #expect((iau - expected).length > 3, "\(p.mission): the IAU model is \((iau - expected).length) km off")
        }
    }

    @Test("the pad's velocity is the Earth's turning: 0.41 km/s east at Cape Canaveral")
    func padTurnsWithTheEarth() throws {
        let eph = Repository.ephemeris
        let t = try Self.instant("2026-04-01T22:35:12Z")
        let seconds = t.daysSinceJ2000TDB * Constants.secondsPerDay
        let earth = try #require(eph.naifState(399, at: t))
        let s = SurfaceSite.lc39B.state(at: seconds, ephemeris: eph)
        let v = s.velocityKmS - earth.velocityKmS
        #expect(abs(v.length - 0.465_1 * cos(28.627 * .pi / 180)) < 0.002, "\(v.length) km/s")
        #expect(abs(v.dot(s.positionKm - earth.positionKm)) < 1e-6 * (s.positionKm - earth.positionKm).length)
    }
}
