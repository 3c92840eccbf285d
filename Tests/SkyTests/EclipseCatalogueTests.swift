import Foundation
import Testing
import Ephemeris
@testable import Sky

/// Every solar and lunar eclipse of 1901–2100 against NASA's catalogues (Espenak), with the
/// catalogue's ΔT for the places (a second of ΔT moves the point of greatest eclipse by 0.004°).
@Suite struct EclipseCatalogueTests {
    static let start = try! TimeScale.utc(year: 1901, month: 1, day: 1)
    static let stop = try! TimeScale.utc(year: 2101, month: 1, day: 1)

    @Test func solarEclipses() throws {
        let catalogue = EspenakCatalogue.solar
        #expect(catalogue.count > 400)
        let found = TestSky.engine.solarEclipses(start: Self.start, stop: Self.stop)
        var worst = (time: 0.0, gamma: 0.0, magnitude: 0.0, duration: 0.0, point: 0.0, nonCentralPoint: 0.0, width: 0.0, altitude: 0.0)
        var unmatched = found.indices.map { $0 }
        for ref in catalogue {
            guard let i = unmatched.firstIndex(where: { abs(found[$0].greatest.seconds(since: ref.greatestTD)) < 3 * 3600 }) else {
                Issue.record("not found: \(ref.line)"); continue
            }
            let e = found[unmatched.remove(at: i)]
            let types = ["P": SolarEclipseType.partial, "A": .annular, "T": .total, "H": .hybrid]
            #expect(e.type == types[ref.type], "\(ref.line): \(e.type)")
            #expect(e.saros == ref.saros, "\(ref.line): saros \(e.saros)")
            #expect(e.lunation == ref.lunation, "\(ref.line): lunation \(e.lunation)")
            let dt = abs(e.greatest.seconds(since: ref.greatestTD))
            worst.time = max(worst.time, dt)
            #expect(dt <= 10, "\(ref.line): greatest \(e.greatest.jdTT) off by \(dt) s")
            worst.gamma = max(worst.gamma, abs(e.gamma - ref.gamma))
            #expect(abs(e.gamma - ref.gamma) <= 0.002, "\(ref.line): gamma \(e.gamma)")
            worst.magnitude = max(worst.magnitude, abs(e.magnitude - ref.magnitude))
            #expect(abs(e.magnitude - ref.magnitude) <= 0.002, "\(ref.line): magnitude \(e.magnitude)")
            if let d = ref.centralDurationSeconds {
                let got = try #require(e.centralDurationSeconds, "\(ref.line): no central duration")
                worst.duration = max(worst.duration, abs(got - d))
                #expect(abs(got - d) <= 2, "\(ref.line): duration \(got)")
            }
            if let w = ref.pathWidthKm, let got = e.pathWidthKm { worst.width = max(worst.width, abs(got - w)) }
            worst.altitude = max(worst.altitude, abs(e.sunAltitudeDeg - ref.sunAltitude))
            // The place at the catalogue's ΔT: a second of ΔT is 0.0042° of longitude.
            let lonShift = (e.deltaTSeconds - ref.deltaT) * 360 / 86_164.1
            let dLon = angleDifferenceDeg(e.greatestLongitudeDeg + lonShift, ref.longitude) * cos(ref.latitude * .pi / 180)
            let latitude = e.greatestLatitudeDeg
            let dp = max(abs(latitude - ref.latitude), dLon)
            if e.central { worst.point = max(worst.point, dp) } else { worst.nonCentralPoint = max(worst.nonCentralPoint, dp) }
            #expect(dp <= 0.1, "\(ref.line): point \(e.greatestLatitudeDeg), \(e.greatestLongitudeDeg) (ΔT \(e.deltaTSeconds))")
        }
        for i in unmatched { Issue.record("extra: \(found[i].id) \(found[i].type) gamma \(found[i].gamma)") }
        print("solar eclipses 1901-2100: \(catalogue.count) in the catalogue, \(found.count) found; worst: greatest \(worst.time) s, gamma \(worst.gamma), magnitude \(worst.magnitude), central duration \(worst.duration) s, point \(worst.point) deg (non-central: \(worst.nonCentralPoint) deg), path width \(worst.width) km, Sun altitude \(worst.altitude) deg")
    }

    @Test func lunarEclipses() throws {
        let catalogue = EspenakCatalogue.lunar
        #expect(catalogue.count > 400)
        let found = TestSky.engine.lunarEclipses(start: Self.start, stop: Self.stop)
        var worst = (time: 0.0, penumbral: 0.0, umbral: 0.0, gamma: 0.0, partial: 0.0, total: 0.0)
        var unmatched = found.indices.map { $0 }
        for ref in catalogue {
            guard let i = unmatched.firstIndex(where: { abs(found[$0].greatest.seconds(since: ref.greatestUT)) < 3 * 3600 }) else {
                Issue.record("not found: \(ref.line)"); continue
            }
            let e = found[unmatched.remove(at: i)]
            let types = ["N": LunarEclipse.Kind.penumbral, "P": .partial, "T": .total]
            #expect(e.type == types[ref.type], "\(ref.line): \(e.type)")
            #expect(e.saros == ref.saros, "\(ref.line): saros \(e.saros)")
            // The catalogue's UT, to the minute, with its ΔT: compared in TT.
            let dt = abs(e.greatest.seconds(since: EspenakCatalogue.tdFromNASAUT(ref.greatestUT)))
            worst.time = max(worst.time, dt)
            #expect(dt <= 60, "\(ref.line): greatest \(e.greatest.iso8601) (TT \(e.greatest.jdTT))")
            worst.penumbral = max(worst.penumbral, abs(e.penumbralMagnitude - ref.penumbralMagnitude))
            worst.umbral = max(worst.umbral, abs(e.umbralMagnitude - ref.umbralMagnitude))
            worst.gamma = max(worst.gamma, abs(e.gamma - ref.gamma))
            #expect(abs(e.penumbralMagnitude - ref.penumbralMagnitude) <= 0.005, "\(ref.line): penumbral \(e.penumbralMagnitude)")
            #expect(abs(e.umbralMagnitude - ref.umbralMagnitude) <= 0.005, "\(ref.line): umbral \(e.umbralMagnitude)")
            if let p = ref.partialSemiDurationMinutes, let u1 = e.contacts[1].instant, let u4 = e.contacts[4].instant {
                worst.partial = max(worst.partial, abs(u4.seconds(since: u1) / 120 - p))
            }
            if let p = ref.totalSemiDurationMinutes, let u2 = e.contacts[2].instant, let u3 = e.contacts[3].instant {
                worst.total = max(worst.total, abs(u3.seconds(since: u2) / 120 - p))
            }
        }
        for i in unmatched { Issue.record("extra: \(found[i].id) \(found[i].type) pen \(found[i].penumbralMagnitude)") }
        print("lunar eclipses 1901-2100: \(catalogue.count) in the catalogue, \(found.count) found; worst: greatest \(worst.time) s, penumbral magnitude \(worst.penumbral), umbral \(worst.umbral), gamma \(worst.gamma), semi-durations \(worst.partial) / \(worst.total) min")
    }
}
