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

/// The transits of Mercury and Venus of 1901–2100 against Espenak's catalogue (geocentric, UT
/// to the minute): every one found, none extra, the grazing ones without contacts II and III.
/// Until 2015 the catalogue's UT is the eclipse catalogue's (measured) ΔT from TT: each contact
/// within 30 s in TT (Venus 45 s: 2004's contact I is 34 s and 2012's 40 s after the catalogue's
/// minute, and so is 2012's greatest transit by 35 s, which no choice of radii moves; a Venus of
/// 8.41" at 1 au, the cloud tops, brings 2004's I to 29 s but takes 2012's II and IV past 32 s).
/// After 2015 its ΔT is an older extrapolation we do not know (it puts
/// 2016's 20 s and 2098's 25 s above the eclipse catalogue's), so the ΔT-free durations are
/// compared: ingress, egress and the whole transit within 60 s (two times rounded to the minute).
@Suite struct TransitCatalogueTests {
    @Test(arguments: ["mercury", "venus"]) func transits(planet: String) throws {
        let catalogue = EspenakCatalogue.transits(planet)
        #expect(!catalogue.isEmpty)
        let found = TestSky.engine.transits(BodyID(rawValue: planet)!, start: EclipseCatalogueTests.start, stop: EclipseCatalogueTests.stop)
        #expect(found.count == catalogue.count, "\(planet): \(found.map(\.id))")
        var worst = (contact: 0.0, duration: 0.0, separation: 0.0)
        let bound = planet == "venus" ? 45.0 : 30.0
        for ref in catalogue {
            let t = try #require(found.first { abs($0.greatest.seconds(since: ref.contacts[2]!)) < 86_400 }, "not found: \(ref.line)")
            let ours = [t.contacts[0].instant, t.contacts[1].instant, t.greatest, t.contacts[2].instant, t.contacts[3].instant]
            for (o, r) in zip(ours, ref.contacts) { #expect((o == nil) == (r == nil), "\(ref.line): contacts II/III differ") }
            if ref.contacts[2]!.utc.year < 2016 {
                for (o, reference) in zip(ours, ref.contacts) {
                    guard let r = reference, let instant = o else { continue }
                    let dt = abs(instant.seconds(since: EspenakCatalogue.tdFromNASAUT(r)))
                    worst.contact = max(worst.contact, dt)
                    #expect(dt <= bound, "\(ref.line): \(instant.iso8601)")
                }
            }
            for (a, b) in [(0, 1), (3, 4), (0, 4)] {
                guard let oa = ours[a], let ob = ours[b], let ra = ref.contacts[a], let rb = ref.contacts[b] else { continue }
                let dd = abs(ob.seconds(since: oa) - rb.seconds(since: ra))
                worst.duration = max(worst.duration, dd)
                #expect(dd <= 60, "\(ref.line): contacts \(a)–\(b) last \(ob.seconds(since: oa)) s")
            }
            worst.separation = max(worst.separation, abs(t.minimumSeparationArcsec - ref.minimumSeparationArcsec))
            #expect(abs(t.minimumSeparationArcsec - ref.minimumSeparationArcsec) < 0.5, "\(ref.line): \(t.minimumSeparationArcsec)\"")
        }
        print("\(planet) transits 1901-2100: \(catalogue.count) in the catalogue, \(found.count) found; worst contact (to 2015, TT) \(worst.contact) s, ingress/egress/duration \(worst.duration) s, least separation \(worst.separation)\"")
    }

    /// EclipseWise's contacts of the 2019 transit of Mercury, to the second: within 5 s.
    @Test func mercury2019() throws {
        let rows = TestSky.table("eclipses/transit-mercury-2019.tsv")
        let t = try #require(TestSky.engine.transits(.mercury, start: try TimeScale.utc(year: 2019, month: 11, day: 1), stop: try TimeScale.utc(year: 2019, month: 12, day: 1)).first)
        let ours = [t.contacts[0].instant, t.contacts[1].instant, t.greatest, t.contacts[2].instant, t.contacts[3].instant]
        var worst = 0.0
        for (row, o) in zip(rows, ours) {
            let instant = try #require(o)
            let dt = abs(instant.seconds(since: try TimeScale.parse(row["ut"]!)))
            worst = max(worst, dt)
            #expect(dt <= 5, "\(row): \(instant.iso8601)")
        }
        print("Mercury transit 2019 vs EclipseWise: worst contact \(worst) s")
    }
}
