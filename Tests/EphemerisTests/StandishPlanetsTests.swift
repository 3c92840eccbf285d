import Testing
@testable import Ephemeris

/// Standish's elements are the fallback theory (outside VSOP87's and Meeus's ranges) and the
/// reference for "Keplerian" orbits; they are held to what they are known to give, not to the
/// served model's bounds (PlanetAccuracyTests holds those).
@Suite("Planets (Standish 1992) against JPL DE440")
struct StandishPlanetsTests {
    /// Heliocentric state of Standish's orbit for a fixture planet; for "earth" the Moon is taken
    /// off the Earth–Moon barycentre, as the engine does.
    static func standish(_ body: BodyID, _ c: ReferenceFixture.Case) -> Vector3 {
        guard let table1 = TestEngine.catalogue[body].standishElements else { fatalError("\(body) has no elements") }
        let p = StandishPlanets.state(body, jdTDB: c.jd_tdb, table1: table1).positionAU
        guard body == .earth else { return p }
        return p - LunarTheory.geocentricPositionKm(jdTDB: c.jd_tdb) / Constants.auKm / (1 + Constants.earthMoonMassRatio)
    }

    /// Maximum direction error, arcseconds: table 1 inside 1950–2050 (Standish's own error table,
    /// which the issue quotes), and table 2a/2b after 2050 (measured here against DE440 in 2026:
    /// Venus 31″, Earth 34″, Mars 140″, Saturn 1198″, Uranus 654″, Neptune 305″, Pluto 131″;
    /// the bound is that level with a margin of about 10%, so a regression shows).
    static let bounds: [(BodyID, table1: Double, table2: Double)] = [
        (.mercury, 30, 30), (.venus, 30, 34), (.earth, 30, 38), (.mars, 100, 155), (.jupiter, 800, 800),
        (.saturn, 800, 1320), (.uranus, 150, 720), (.neptune, 80, 335), (.pluto, 80, 145),
    ]

    @Test("heliocentric direction within Standish's error level, every reference case", arguments: bounds)
    func direction(body: BodyID, table1Bound: Double, table2Bound: Double) {
        var worst = [StandishPlanets.Table.table1: 0.0, .table2: 0.0]
        var checked = [StandishPlanets.Table.table1: 0, .table2: 0]
        for c in ReferenceFixture.shared.cases {
            guard let truth = c.heliocentricAU(body.rawValue) else { continue }
            let table = StandishPlanets.table(forJDTDB: c.jd_tdb)
            let p = Self.standish(body, c)
            let err = p.angle(to: truth)
            worst[table] = max(worst[table] ?? 0, err)
            checked[table, default: 0] += 1
            let bound = table == .table1 ? table1Bound : table2Bound
            #expect(err <= arcseconds(bound), "\(body) at \(c.utc) (\(table)): \(Angle.arcseconds(err))″")
            #expect(abs(p.length - truth.length) / truth.length < 3e-3, "\(body) at \(c.utc): distance")
        }
        // Every case checked, and both tables met (the fixture runs 1950–2096, across 2050).
        #expect((checked[.table1] ?? 0) + (checked[.table2] ?? 0) == DE440AccuracyTests.fixtureCases, "\(body): \(checked)")
        #expect((checked[.table1] ?? 0) > 0 && (checked[.table2] ?? 0) > 0, "\(body): \(checked)")
        print("[accuracy] Standish \(body): table 1 \(Angle.arcseconds(worst[.table1] ?? 0))″, table 2 \(Angle.arcseconds(worst[.table2] ?? 0))″")
    }

    @Test("velocity follows the position: central difference within the neglected element rates")
    func velocityIsDerivative() throws {
        // The analytic velocity differentiates the anomaly and the perihelion advance but not the
        // slow drift of a, e, I and Ω, which is worth ~1e-4 of the speed for the outer planets.
        let jd = 2_461_367.5
        let h = 600.0 / Constants.secondsPerDay
        for body in BodyID.heliocentric {
            let el = try #require(TestEngine.catalogue[body].standishElements, "\(body) has no Standish elements")
            let a = StandishPlanets.state(body, jdTDB: jd - h, table1: el).positionAU
            let b = StandishPlanets.state(body, jdTDB: jd + h, table1: el).positionAU
            let v = StandishPlanets.state(body, jdTDB: jd, table1: el).velocityAUPerDay
            #expect(((b - a) / (2 * h) - v).length / v.length < 2e-4, "\(body)")
        }
    }

    @Test("table 1 inside 1800–2050, table 2 outside; the switch is continuous within the bounds")
    func tableBoundary() throws {
        #expect(StandishPlanets.table(forJDTDB: 2_451_545) == .table1)
        #expect(StandishPlanets.table(forJDTDB: 2_470_172.5) == .table2)
        #expect(StandishPlanets.table(forJDTDB: 2_378_496.4) == .table2)
        // The jump at each end of table 1's range, arcseconds: the two tables' disagreement there.
        // Measured 2026-11 (max of 1800 and 2050): Mercury 7.8″, Venus 15.3″, Earth 10.8″, Mars
        // 83.7″, Jupiter 215.7″, Saturn 891.1″, Uranus 967.8″, Neptune 115.5″, Pluto 124.7″; the
        // bounds add ~15%, so a changed element or rate shows.
        let jumpBounds: [BodyID: Double] = [
            .mercury: 9, .venus: 18, .earth: 13, .mars: 97, .jupiter: 250, .saturn: 1025, .uranus: 1115, .neptune: 135, .pluto: 145,
        ]
        #expect(Set(jumpBounds.keys) == Set(BodyID.heliocentric))
        for jd in [StandishPlanets.table1Range.lowerBound, StandishPlanets.table1Range.upperBound] {
            for body in BodyID.heliocentric {
                let t1 = try #require(TestEngine.catalogue[body].standishElements, "\(body) has no table 1 elements")
                let t2 = try #require(StandishPlanets.table2[body], "\(body) has no table 2 elements")
                let T = (jd - Constants.jdJ2000) / Constants.daysPerJulianCentury
                let a = StandishPlanets.state(elements: t1, extra: .none, T: T).positionAU
                let b = StandishPlanets.state(elements: t2.elements, extra: t2.extra, T: T).positionAU
                #expect(a.isFinite && b.isFinite)
                let bound = try #require(jumpBounds[body])
                #expect(a.angle(to: b) < arcseconds(bound), "\(body) jumps \(Angle.arcseconds(a.angle(to: b)))″ at JD \(jd)")
            }
        }
    }

    @Test("the catalogue's elements are Standish table 1")
    func catalogueIsTable1() {
        let earth = TestEngine.catalogue[.earth].standishElements
        #expect(earth?.semiMajorAxisAU.value == 1.00000261)
        #expect(earth?.meanLongitudeDeg.ratePerCentury == 35999.37244981)
        #expect(TestEngine.catalogue[.pluto].standishElements?.eccentricity.value == 0.2488273)
    }
}
