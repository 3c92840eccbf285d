import Foundation
import Testing
import HTTPTestSupport
import Sky
@testable import SolarSystemAPI

/// `/v1/sky?quantities=`: Horizons' observer quantities as fields of the sky answer, the same
/// numbers the Horizons endpoint prints for the same site, instant and target.
@Suite("Observer quantities in /v1/sky", .serialized)
struct SkyQuantitiesTests {
    /// Palomar (the MPC's 675 is a parallax constant; a geodetic site makes the two requests name
    /// the same place exactly).
    static let site = (lat: 33.3563, lon: -116.8650, elevationM: 1712.0)
    static let instant = "2026-03-01T04:00:00Z"
    /// The same instant as a Julian date in UT.
    static let jdUT = "2461100.666666667"

    static func sky(_ bodies: String, _ quantities: String, refraction: Bool = true, csv: Bool = false) throws -> RawResponse {
        try HorizonsServer.shared.get("/v1/sky?date=\(instant)&lat=\(site.lat)&lon=\(site.lon)&elevation=\(site.elevationM)&bodies=\(bodies)&quantities=\(quantities)&refraction=\(refraction)",
                                      headers: csv ? ["Accept": "text/csv"] : [:])
    }

    /// Horizons' CSV observer table for one instant: header names → printed fields.
    static func horizons(_ command: String, _ quantities: String, apparent: String) throws -> [String: String] {
        let r = try HorizonsServer.get([("format", "text"), ("COMMAND", "'\(command)'"), ("EPHEM_TYPE", "OBSERVER"), ("CENTER", "'coord@399'"),
                                        ("COORD_TYPE", "GEODETIC"), ("SITE_COORD", "'\(site.lon),\(site.lat),\(site.elevationM / 1000)'"),
                                        ("TLIST", "'\(jdUT)'"), ("QUANTITIES", "'\(quantities)'"), ("ANG_FORMAT", "DEG"), ("EXTRA_PREC", "YES"),
                                        ("CSV_FORMAT", "YES"), ("APPARENT", apparent)])
        #expect(r.status == 200, "\(r.bodyText.prefix(300))")
        let lines = r.bodyText.split(separator: "\n").map(String.init)
        guard let soe = lines.firstIndex(of: "$$SOE"), soe >= 2 else { return [:] }
        let header = lines[soe - 2].components(separatedBy: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let row = lines[soe + 1].components(separatedBy: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(header.count == row.count)
        return Dictionary(zip(header, row), uniquingKeysWith: { a, _ in a })
    }

    /// Horizons' column, the sky field, and the printed decimals of that column.
    static let compared: [(column: String, field: String, decimals: Int)] = [
        ("R.A._(ICRF)", "astrometricRADeg", 9), ("DEC_(ICRF)", "astrometricDecDeg", 9),
        ("R.A._(r-app)", "apparentRADeg", 9), ("DEC_(r-app)", "apparentDecDeg", 9),
        ("Azi_(r-app)", "azimuthDeg", 6), ("Elev_(r-app)", "elevationDeg", 6),
        ("APmag", "magnitude", 3), ("Illu%", "illuminatedPercent", 5), ("Ang-diam", "angularDiameterArcsec", 6),
        ("r", "sunRangeAU", 12), ("delta", "rangeAU", 14), ("deldot", "rangeRateKmS", 7),
        ("1-way_down_LT", "lightTimeMinutes", 8), ("S-O-T", "solarElongationDeg", 4), ("S-T-O", "sunTargetObserverDeg", 4),
        ("ObsEcLon", "observerEclipticLongitudeDeg", 7), ("GlxLat", "galacticLatitudeDeg", 6), ("phi", "phaseAngleDeg", 4),
    ]

    @Test("Mars, the Moon and Ceres from Palomar: every field equals the Horizons endpoint's printed value to its digits; the constellation and elongation flag are its text")
    func sameAsHorizons() throws {
        let quantities = "1,2,4,9,10,13,19,20,21,23,24,29,31,33,43"
        let r = try Self.sky("mars,moon,sb:1", quantities)
        #expect(r.status == 200)
        let bodies = r.objects("bodies")
        #expect(bodies.map { $0["id"] as? String } == ["mars", "moon", "sb:1"])
        for (body, command) in zip(bodies, ["499", "301", "Ceres;"]) {
            let q = try #require(body["quantities"] as? [String: Any], "\(command)")
            let printed = try Self.horizons(command, quantities, apparent: "REFRACTED")
            var checked = 0
            for c in Self.compared {
                guard let text = printed[c.column] else { continue }
                if text == "n.a." {
                    #expect(q[c.field] is NSNull, "\(command) \(c.field)")
                    continue
                }
                let want = try #require(Double(text), "\(command) \(c.column) = \(text)")
                let got = try #require(number(q[c.field]), "\(command) \(c.field)")
                #expect(abs(got - want) <= 0.51 * pow(10, -Double(c.decimals)) + 1e-9 * abs(want), "\(command) \(c.field): \(got) vs Horizons \(want)")
                checked += 1
            }
            #expect(checked >= 14, "\(command): \(checked) columns compared")
            #expect(q["constellation"] as? String == printed["Cnst"])
            #expect(q["elongationCode"] as? String == printed["/r"])
        }
    }

    @Test("Exactly the fields asked for, in Horizons' order, with the presence flags; all gives every computed quantity; unasked, no quantities member")
    func fieldsAskedFor() throws {
        let r = try Self.sky("saturn", "20,4")
        let q = try #require(r.objects("bodies").first?["quantities"] as? [String: Any])
        #expect(Set(q.keys) == ["azimuthDeg", "elevationDeg", "rangeAU", "rangeRateKmS", "solarPresence", "lunarPresence"])
        let order = try #require(String(decoding: r.body, as: UTF8.self).range(of: #""quantities":{"azimuthDeg""#))
        #expect(!order.isEmpty)
        let all = try Self.sky("saturn", "all")
        let every = try #require(all.objects("bodies").first?["quantities"] as? [String: Any])
        #expect(every.count == QuantityEncoding.fields(of: .computed).count)
        // 40 quantities in 67 fields, and the two flags.
        #expect(every.count == 69)
        // Saturn has a rotation model: its sub-observer point and pole are there.
        #expect(number(every["observerSubLatitudeDeg"]) != nil)
        #expect(number(every["northPoleRADeg"]) != nil)
        let plain = try HorizonsServer.shared.get("/v1/sky?date=\(Self.instant)&lat=10&lon=20&bodies=saturn")
        #expect(plain.objects("bodies").first?["quantities"] == nil)
    }

    @Test("Many bodies in one answer: each body's quantities are those it gets asked alone, byte for byte (the row's shared Sun, Moon and station found once)")
    func sharedRow() throws {
        let bodies = ["sun", "moon", "mars", "jupiter", "saturn", "titan"]
        let together = try Self.sky(bodies.joined(separator: ","), "all")
        let rows = together.objects("bodies")
        #expect(rows.count == bodies.count)
        for (i, b) in bodies.enumerated() {
            let alone = try #require(Self.sky(b, "all").objects("bodies").first?["quantities"] as? [String: Any])
            let shared = try #require(rows[i]["quantities"] as? [String: Any], "\(b)")
            let a = try JSONSerialization.data(withJSONObject: alone, options: .sortedKeys)
            let t = try JSONSerialization.data(withJSONObject: shared, options: .sortedKeys)
            #expect(a == t, "\(b): \(String(decoding: a, as: UTF8.self)) against \(String(decoding: t, as: UTF8.self))")
            // Every body carries both presence flags; for all but the Sun and the Moon themselves they
            // come from the row's shared Sun's and Moon's places.
            #expect(shared["solarPresence"] != nil && shared["lunarPresence"] != nil, "\(b)")
        }
    }

    @Test("Another set of quantities is another answer, never the cached one; airless asks Horizons' AIRLESS")
    func cacheKeyAndRefraction() throws {
        let a = try Self.sky("jupiter", "20")
        let b = try Self.sky("jupiter", "21")
        let qa = try #require(a.objects("bodies").first?["quantities"] as? [String: Any])
        let qb = try #require(b.objects("bodies").first?["quantities"] as? [String: Any])
        #expect(qa["rangeAU"] != nil && qa["lightTimeMinutes"] == nil)
        #expect(qb["lightTimeMinutes"] != nil && qb["rangeAU"] == nil)
        let airless = try Self.sky("jupiter", "4", refraction: false)
        let q = try #require(airless.objects("bodies").first?["quantities"] as? [String: Any])
        let printed = try Self.horizons("599", "4", apparent: "AIRLESS")
        let el = try #require(Double(printed["Elev_(a-app)"] ?? ""))
        #expect(abs((number(q["elevationDeg"]) ?? .nan) - el) <= 0.51e-6)
    }

    @Test("CSV: the quantities as q<number>_ columns after the classic ones")
    func csv() throws {
        let r = try Self.sky("sb:1,venus", "4,23", csv: true)
        #expect(r.status == 200)
        let rows = r.csvRows
        #expect(rows.count == 3)
        let header = rows[0]
        #expect(Array(header.suffix(6)) == ["q4_azimuth_deg", "q4_elevation_deg", "q23_solar_elongation_deg", "q23_elongation_code", "solar_presence", "lunar_presence"])
        #expect(Set(header).count == header.count)
        for row in rows.dropFirst() {
            #expect(row.count == header.count)
            let azimuth = try #require(Double(row[header.firstIndex(of: "azimuth_deg")!]))
            let q4 = try #require(Double(row[header.firstIndex(of: "q4_azimuth_deg")!]))
            // The classic field and Horizons' azimuth: the same refracted place (within 1e-6°).
            #expect(abs(azimuth - q4) < 1e-6)
            #expect(["/T", "/L"].contains(row[header.firstIndex(of: "q23_elongation_code")!]))
        }
    }

    @Test("A satellite of the element sets: its quantities from SGP4, the range its distanceKm, the light time its lightTimeS")
    func satellite() throws {
        let r = try SatelliteServer.shared.get("/v1/sky?\(SkySatelliteEndpointsTests.london)&date=2026-09-24T14:34:03.831991Z&bodies=iss&refraction=false&quantities=4,20,21")
        #expect(r.status == 200)
        let iss = try #require(r.objects("bodies").first)
        let q = try #require(iss["quantities"] as? [String: Any])
        let rangeKm = (number(q["rangeAU"]) ?? .nan) * 149_597_870.7
        #expect(abs(rangeKm - (number(iss["distanceKm"]) ?? 0)) < 0.01)
        #expect(abs((number(q["lightTimeMinutes"]) ?? .nan) * 60 - (number(iss["lightTimeS"]) ?? 0)) < 1e-6)
        #expect(abs((number(q["elevationDeg"]) ?? .nan) - SkySatelliteEndpointsTests.skyfield.altitudeDeg) < 1.0 / 60)
    }

    @Test("A series carries the quantities in every sample")
    func series() throws {
        let r = try HorizonsServer.shared.get("/v1/sky?start=2026-03-01&stop=2026-03-02&step=6h&lat=33&lon=-116&bodies=moon,mars&quantities=10,24")
        #expect(r.status == 200)
        let samples = r.json["samples"] as? [[String: Any]] ?? []
        #expect(samples.count == 5)
        for s in samples {
            let bodies = s["bodies"] as? [[String: Any]] ?? []
            #expect(bodies.count == 2)
            #expect(bodies.allSatisfy { number(($0["quantities"] as? [String: Any])?["illuminatedPercent"]) != nil })
        }
    }

    @Test("A table's quantities count against its size: refused before anything is sent, not cut mid-stream by the CPU budget")
    func tableCost() throws {
        // 8,641 instants × 10 bodies = 86,410 rows: within the plain table's 100,000.
        let plain = "/v1/sky?start=2026-01-01&stop=2026-01-31&step=5m&lat=52&lon=0&bodies=sun,moon,mercury,venus,mars,jupiter,saturn,uranus,neptune,pluto&format=csv"
        let all = try HorizonsServer.shared.get(plain + "&quantities=all")
        #expect(all.status == 400)
        #expect(all.header("content-type")?.hasPrefix("application/problem+json") == true)
        #expect(all.json["parameter"] as? String == "step")
        let mostRows = Int(Double(V1API.maxSkyWork) / V1API.skyRowCost(.computed))
        #expect((all.json["accepted"] as? String)?.contains("at most \(mostRows) rows") == true)
        #expect((all.json["detail"] as? String)?.contains("86410 rows") == true)
        // Every computed quantity: 15 plain rows a row, so 26,666 rows.
        #expect(mostRows == 26_666)
        // One quantity allows 95,238 rows, a rate 55,555: under the plain table's bound.
        #expect(Int(Double(V1API.maxSkyWork) / V1API.skyRowCost(QuantitySet([20]))) == 95_238)
        #expect(Int(Double(V1API.maxSkyWork) / V1API.skyRowCost(QuantitySet([3]))) == 55_555)
        #expect(V1API.skyRowCost(nil) == 1)
        // Within the work bound the table is answered, every row carrying the quantities.
        let small = try HorizonsServer.shared.get("/v1/sky?start=2026-01-01&stop=2026-01-02&step=1h&lat=52&lon=0&bodies=moon,mars&quantities=all&format=csv")
        #expect(small.status == 200)
        #expect(small.csvRows.count == 1 + 25 * 2)
    }

    @Test("Refused: a number Horizons does not define, one this server does not compute, an empty list, text", arguments: ["0", "49", "6", "36", "", "1,,2", "a", "1-5"])
    func refused(_ value: String) throws {
        let r = try HorizonsServer.shared.get("/v1/sky?date=\(Self.instant)&lat=10&lon=20&quantities=\(QueryEncoding.component(value))")
        #expect(r.status == 400)
        #expect(r.json["parameter"] as? String == "quantities")
        #expect((r.json["accepted"] as? String)?.contains("1-5, 7-11, 13-35, 41-47") == true)
    }
}
