import Glibc
import Testing
import Ephemeris
@testable import Astrodynamics

@Suite("Gravity model: point masses, indirect terms, zonal harmonics, tabulated perturbers")
struct GravityModelTests {
    let eph = PropagationFixtures.de440
    let t0 = PropagationFixtures.perijove1Seconds

    /// The acceleration computed the slow way, straight from the ephemeris: the definition the
    /// tabulated model must reproduce.
    func directAcceleration(_ model: GravityModel, at r: Vector3, seconds t: Double, ephemeris: Ephemeris? = nil) -> Vector3 {
        let eph = ephemeris ?? self.eph
        let instant = TimeScale.instant(tdbSecondsPastJ2000: t)
        var offset = Vector3.zero
        if model.isPlanetCenter { offset = PlanetCenter.offsetFromBarycenter(model.center, seconds: t).positionKm }
        var a = r * (-model.centerGM / pow(r.length, 3))
        for p in model.perturbers {
            let s = PlanetCenter.moons(of: model.center).contains(p)
                ? eph.parentRelativeState(p, at: instant).positionKm
                : eph.state(p, relativeTo: model.center, at: instant).positionAU * Constants.auKm - offset
            let d = s - r
            a += (d / pow(d.length, 3) - s / pow(s.length, 3)) * GravityConstants.gm(p)
        }
        return a
    }

    /// The gradient of `potential` at `r` by central differences of `h` km.
    func numericalGradient(at r: Vector3, h: Double = 1e-3, _ potential: (Vector3) -> Double) -> Vector3 {
        Vector3((potential(r + Vector3(h, 0, 0)) - potential(r - Vector3(h, 0, 0))) / (2 * h),
                (potential(r + Vector3(0, h, 0)) - potential(r - Vector3(0, h, 0))) / (2 * h),
                (potential(r + Vector3(0, 0, h)) - potential(r - Vector3(0, 0, h))) / (2 * h))
    }

    /// Legendre polynomials P2 … P6 written out.
    func legendre(_ n: Int, _ u: Double) -> Double {
        switch n {
        case 2: (3 * u * u - 1) / 2
        case 3: (5 * u * u * u - 3 * u) / 2
        case 4: (35 * pow(u, 4) - 30 * u * u + 3) / 8
        case 5: (63 * pow(u, 5) - 70 * pow(u, 3) + 15 * u) / 8
        case 6: (231 * pow(u, 6) - 315 * pow(u, 4) + 105 * u * u - 5) / 16
        default: 0
        }
    }

    /// The zonal part of the potential, −(μ/r) Σ J_n (R/r)^n P_n(u), whose gradient the model's
    /// zonal acceleration is.
    func zonalPotential(_ body: BodyID, gm: Double, degree: Int, r: Vector3, pole: Vector3) -> Double {
        guard let z = GravityConstants.zonal(body) else { return 0 }
        let rn = r.length, u = r.dot(pole) / rn
        var sum = 0.0
        for n in 2...degree where n < z.coefficients.count {
            sum += z.coefficients[n] * pow(z.referenceRadiusKm / rn, Double(n)) * legendre(n, u)
        }
        return -gm / rn * sum
    }

    @Test("with its moons as perturbers the model reproduces the direct computation from the ephemeris", arguments: [
        (BodyID.jupiter, [BodyID.sun, .io, .europa, .ganymede, .callisto, .saturn]),
        (.saturn, [.sun, .titan, .rhea, .iapetus, .enceladus, .jupiter]),
        (.sun, [.mercury, .venus, .earth, .moon, .mars, .jupiter, .saturn, .uranus, .neptune]),
        (.earth, [.moon, .sun, .venus, .jupiter]),
        (.moon, [.earth, .sun]),
    ])
    func matchesDirect(center: BodyID, perturbers: [BodyID]) throws {
        let model = try GravityModel(ephemeris: eph, center: center, perturbers: perturbers)
        let radius: Double = center == .sun ? 2e8 : center == .moon ? 5_000 : center == .earth ? 42_000 : 3e6
        var checked = 0
        for i in 0..<60 {
            let t = t0 + Double(i) * 7_919.3
            let r = Vector3(cos(Double(i)), sin(Double(i)), 0.3) * radius
            let a = model.accelerationKmS2(at: r, seconds: t), direct = directAcceleration(model, at: r, seconds: t)
            let central = r * (-model.centerGM / pow(r.length, 3))
            // The tables hold positions to half a metre; the perturbation to that relative size.
            #expect((a - direct).length < 1e-8 * (direct - central).length + 1e-18, "\(center) t = \(t)")
            checked += 1
        }
        #expect(checked == 60)
        #expect(model.isPlanetCenter == (center == .jupiter || center == .saturn))
    }

    @Test("a moon the ephemeris moves off its theory (an anchor; a loaded kernel alike) pulls from where the ephemeris serves it")
    func servedMoons() throws {
        // Titan 1,000 km off its theory for hours about t0, as a published flyby anchors it.
        let offset = Vector3(600, -700, 374.2)
        let anchor = MoonAnchor(body: .titan, epochSeconds: t0, offsetKm: offset, source: "test")
        let anchored = Ephemeris(catalogue: eph.catalogue, kernel: eph.kernel, moonAnchors: [anchor])
        let perturbers: [BodyID] = [.titan, .rhea]
        let model = try GravityModel(ephemeris: anchored, center: .saturn, perturbers: perturbers)
        let plain = try GravityModel(ephemeris: eph, center: .saturn, perturbers: perturbers)
        var checked = 0
        for i in -6...6 {
            let t = t0 + Double(i) * 1_200
            let titan = anchored.parentRelativeState(.titan, at: TimeScale.instant(tdbSecondsPastJ2000: t)).positionKm
            #expect((titan - eph.parentRelativeState(.titan, at: TimeScale.instant(tdbSecondsPastJ2000: t)).positionKm - offset).length < 1e-6)
            // A spacecraft 4,000 km from the served Titan, as on a close flyby.
            let r = titan + Vector3(cos(Double(i)), sin(Double(i)), 0.2).normalized * 4_000
            let a = model.accelerationKmS2(at: r, seconds: t)
            let direct = directAcceleration(model, at: r, seconds: t, ephemeris: anchored)
            let titanPull = GravityConstants.gm(.titan) / (4_000 * 4_000)
            // The tables hold the moon to half a metre: 3·0.5 m / 4,000 km of its pull.
            #expect((a - direct).length < 1e-6 * titanPull, "t = \(t): \((a - direct).length * 1e6) mm/s² from the served Titan's pull")
            // The theory's Titan, 1,000 km away, pulls differently by tens of mm/s².
            #expect((plain.accelerationKmS2(at: r, seconds: t) - a).length > 0.1 * titanPull)
            checked += 1
        }
        #expect(checked == 13)
    }

    @Test("the centre is the planet alone when its moons perturb, the system otherwise")
    func centerGM() throws {
        #expect(try GravityModel(ephemeris: eph, center: .jupiter, perturbers: [.sun]).centerGM == GravityConstants.jupiterSystemGM)
        #expect(try GravityModel(ephemeris: eph, center: .jupiter, perturbers: [.io]).centerGM == GravityConstants.jupiterGM)
        #expect(try GravityModel(ephemeris: eph, center: .saturn, perturbers: [.titan]).centerGM == GravityConstants.saturnGM)
        #expect(try GravityModel(ephemeris: eph, center: .earth).centerGM == GravityConstants.earthGM)
    }

    @Test("zonal harmonics J2…J6 are the gradient of their potential", arguments: [BodyID.jupiter, .saturn, .earth, .neptune])
    func zonalGradient(body: BodyID) throws {
        let model = try GravityModel(ephemeris: eph, center: body, zonalDegree: 6)
        let radius = GravityConstants.zonal(body)!.referenceRadiusKm
        let pole = eph.orientation(body, at: TimeScale.instant(tdbSecondsPastJ2000: t0)).poleEcliptic
        var checked = 0
        for i in 0..<40 {
            let r = Vector3(cos(0.7 * Double(i)), sin(0.7 * Double(i)), sin(0.37 * Double(i)) * 2).normalized * radius * (1.05 + 0.1 * Double(i))
            let zonal = model.accelerationKmS2(at: r, seconds: t0) + r * (model.centerGM / pow(r.length, 3))
            // The acceleration is the gradient of the potential (μ/r)[1 − Σ …]; its zonal part
            // the gradient of −(μ/r) Σ J_n (R/r)^n P_n(u), differentiated numerically here.
            let gradient = numericalGradient(at: r) { zonalPotential(body, gm: model.centerGM, degree: 6, r: $0, pole: pole) }
            #expect((zonal - gradient).length < 1e-7 * zonal.length, "\(body) r = \(r.length)")
            checked += 1
        }
        #expect(checked == 40)
    }

    @Test("Mars's C22 and S22 are the gradient of their potential about Mars's IAU axes, on top of J2")
    func sectoralGradient() throws {
        let withC22 = try GravityModel(ephemeris: eph, center: .mars, zonalDegree: 2, sectoral: true)
        let j2Only = try GravityModel(ephemeris: eph, center: .mars, zonalDegree: 2)
        let h22 = try #require(GravityConstants.sectoral(.mars))
        // MRO120D's normalised values, unnormalised by √(5/12).
        #expect(abs(h22.c22 / -5.463_e-5 - 1) < 1e-3 && abs(h22.s22 / 3.159e-5 - 1) < 1e-3, "\(h22)")
        var checked = 0
        for i in 0..<24 {
            // Times across two Martian days: the axes turn with Mars.
            let t = t0 + Double(i) * 7_211
            let o = eph.orientation(.mars, at: TimeScale.instant(tdbSecondsPastJ2000: t)).bodyToEcliptic
            let x = o * Vector3(1, 0, 0), y = o * Vector3(0, 1, 0)
            func potential(_ p: Vector3) -> Double {
                let bx = p.dot(x), by = p.dot(y), r = p.length
                return 3 * withC22.centerGM * h22.referenceRadiusKm * h22.referenceRadiusKm
                    * (h22.c22 * (bx * bx - by * by) + 2 * h22.s22 * bx * by) / pow(r, 5)
            }
            let r = Vector3(cos(0.9 * Double(i)), sin(0.9 * Double(i)), sin(0.41 * Double(i))).normalized * 3_396 * (1.03 + 0.05 * Double(i))
            let sectoral = withC22.accelerationKmS2(at: r, seconds: t) - j2Only.accelerationKmS2(at: r, seconds: t)
            let gradient = numericalGradient(at: r, potential)
            #expect((sectoral - gradient).length < 1e-6 * gradient.length, "t = \(t), r = \(r.length)")
            checked += 1
        }
        #expect(checked == 24)
        // Its size where MRO flies, 300 km up: up to 9μR²|C22|/r⁴ ≈ 1.3 mm/s² (here km/s²).
        var largest = 0.0
        for i in 0..<360 {
            let a = Double(i) * .pi / 180
            let low = Vector3(cos(a), sin(a), 0) * 3_696
            largest = max(largest, (withC22.accelerationKmS2(at: low, seconds: t0) - j2Only.accelerationKmS2(at: low, seconds: t0)).length)
        }
        #expect(largest > 1e-6 && largest < 1.6e-6, "\(largest) km/s²")
    }

    @Test("J2 turns an orbit's node at the classical rate −(3/2) n J2 (R/p)² cos i")
    func nodalRegression() throws {
        let model = try GravityModel(ephemeris: eph, center: .earth, zonalDegree: 2)
        let j2 = GravityConstants.zonal(.earth)!.coefficients[2], radius = GravityConstants.zonal(.earth)!.referenceRadiusKm
        let mu = model.centerGM
        // Equatorial axes at the start: k the pole, x any direction in the equator.
        let k = eph.orientation(.earth, at: TimeScale.instant(tdbSecondsPastJ2000: t0)).poleEcliptic
        let x = Vector3(1, 0, 0).cross(k).normalized, y = k.cross(x)
        let a0 = 7_000.0, inclination = 50 * Double.pi / 180
        let v = (mu / a0).squareRoot()
        let start = OrbitalState(seconds: t0, positionKm: x * a0,
                                 velocityKmS: (y * cos(inclination) + k * sin(inclination)) * v)
        let days = 10.0
        let arc = try DormandPrince853().propagate(start, to: t0 + days * 86_400, model: model)
        // The node's longitude every 10 minutes, unwrapped, fitted by a straight line; the
        // orbit's mean a, e, i as averages of the osculating ones (their J2 wobbles average out).
        var times: [Double] = [], nodes: [Double] = []
        var sumA = 0.0, sumE = 0.0, sumI = 0.0
        var previous = 0.0, turns = 0.0
        for step in 0...Int(days * 144) {
            let t = t0 + Double(step) * 600
            let s = try arc.state(at: t)
            let h = s.positionKm.cross(s.velocityKmS)
            let node = k.cross(h)
            var omega = atan2(node.dot(y), node.dot(x))
            if step > 0, omega - previous > Double.pi { turns -= 2 * Double.pi }
            if step > 0, omega - previous < -Double.pi { turns += 2 * Double.pi }
            previous = omega
            omega += turns
            times.append(t - t0)
            nodes.append(omega)
            let r = s.positionKm.length
            let a = 1 / (2 / r - s.velocityKmS.lengthSquared / mu)
            sumA += a
            sumE += (s.velocityKmS.cross(h) / mu - s.positionKm / r).length
            sumI += acos(h.normalized.dot(k))
        }
        let count = Double(times.count)
        let meanT = times.reduce(0, +) / count, meanW = nodes.reduce(0, +) / count
        var covariance = 0.0, variance = 0.0
        for (t, w) in zip(times, nodes) {
            covariance += (t - meanT) * (w - meanW)
            variance += (t - meanT) * (t - meanT)
        }
        let slope = covariance / variance
        let a = sumA / count, e = sumE / count, i = sumI / count
        let n = (mu / (a * a * a)).squareRoot(), p = a * (1 - e * e)
        let expected = -1.5 * n * j2 * (radius / p) * (radius / p) * cos(i)
        #expect(times.count == 1441)
        #expect(abs(slope - expected) < 2e-3 * abs(expected), "measured \(slope * 86_400 * 180 / .pi)°/day, expected \(expected * 86_400 * 180 / .pi)°/day")
        // About −4.6°/day at 622 km and 50°.
        #expect(abs(expected * 86_400 * 180 / .pi + 4.6) < 0.2)
    }

    @Test("energy, with the zonal potential, is conserved over a day in a J2…J6 field")
    func energyWithHarmonics() throws {
        let model = try GravityModel(ephemeris: eph, center: .earth, zonalDegree: 6)
        let pole = eph.orientation(.earth, at: TimeScale.instant(tdbSecondsPastJ2000: t0)).poleEcliptic
        let start = OrbitalState(seconds: t0, positionKm: Vector3(6_900, 1_000, 2_000), velocityKmS: Vector3(-1, 6.5, 3.5))
        func energy(_ s: OrbitalState) -> Double {
            s.velocityKmS.lengthSquared / 2 - model.centerGM / s.positionKm.length
                - zonalPotential(.earth, gm: model.centerGM, degree: 6, r: s.positionKm, pole: pole)
        }
        let arc = try DormandPrince853().propagate(start, to: t0 + 86_400, model: model)
        let e0 = energy(start)
        var checked = 0
        for i in 0...96 {
            let s = try arc.state(at: t0 + Double(i) * 900)
            #expect(abs(energy(s) - e0) < 1e-9 * abs(e0))
            checked += 1
        }
        #expect(checked == 97)
    }

    @Test("without perturbers or harmonics the model is a point mass: a lunar orbit follows KeplerArc")
    func pointMass() throws {
        let model = try GravityModel(ephemeris: eph, center: .moon)
        let start = OrbitalState(seconds: t0, positionKm: Vector3(1_837.4, 0, 0), velocityKmS: Vector3(0, 1.2, 1.3))
        let arc = try DormandPrince853().propagate(start, to: t0 + 86_400, model: model)
        let kepler = KeplerArc(mu: GravityConstants.moonGM, position: start.positionKm, velocity: start.velocityKmS, epochHours: t0 / 3600)
        var checked = 0
        for i in 0...144 {
            let t = t0 + Double(i) * 600
            #expect((try arc.state(at: t).positionKm - kepler.state(atHours: t / 3600).position).length < metres(1))
            checked += 1
        }
        #expect(checked == 145)
    }

    @Test("tables hold every perturber within a metre of the ephemeris between their nodes", arguments: [
        (BodyID.sun, [BodyID.mercury, .earth, .moon, .jupiter, .neptune]),
        (.earth, [.moon, .sun, .venus]),
        (.moon, [.earth, .sun]),
        (.jupiter, [.sun, .saturn, .io]),
        (.saturn, [.sun, .titan]),
        (.mars, [.sun, .phobos]),
    ])
    func tabulationError(center: BodyID, perturbers: [BodyID]) throws {
        let model = try GravityModel(ephemeris: eph, center: center, perturbers: perturbers)
        let origin = center
        var checked = 0, worst = 0.0, worstV = 0.0
        // Off-node times over six days (a dozen chunks of the finest tables), not in order.
        for i in 0..<200 {
            let t = t0 + Double((i * 7_919) % 200) * 2_592.37 + 0.123 * Double(i)
            let instant = TimeScale.instant(tdbSecondsPastJ2000: t)
            let tabulated = model.tables.withLock { tables in
                (tables.bodies.indices.map { tables.bodies[$0].states(at: t)[0] }, tables.moons?.states(at: t) ?? [])
            }
            var b = 0
            for p in perturbers where !PlanetCenter.moons(of: center).contains(p) {
                let s = eph.state(p, relativeTo: origin, at: instant)
                let error = (tabulated.0[b].r - s.positionAU * Constants.auKm).length
                let errorV = (tabulated.0[b].v - s.velocityAUPerDay * (Constants.auKm / 86_400)).length
                worst = max(worst, error)
                worstV = max(worstV, errorV)
                #expect(error < metres(1), "\(p) about \(center) at \(t)")
                b += 1
                checked += 1
            }
            if model.isPlanetCenter {
                let direct = PlanetCenter.moonStates(center, seconds: t)
                for (j, s) in direct.enumerated() {
                    let error = (tabulated.1[j].r - s.r).length
                    worst = max(worst, error)
                    #expect(error < metres(1), "moon \(j) of \(center) at \(t)")
                    checked += 1
                }
            }
        }
        #expect(checked >= 200 * perturbers.count)
        #expect(worstV < metresPerSecond(1e-2))
        print("tabulation about \(center): worst \(worst * 1000) m, \(worstV * 1e6) mm/s; steps \(model.tables.withLock { t in t.bodies.map(\.stepSeconds) + (t.moons.map { [$0.stepSeconds] } ?? []) }) s")
    }

    @Test("the answer does not depend on which times were asked first")
    func orderIndependence() throws {
        let perturbers: [BodyID] = [.sun, .io, .europa, .ganymede, .callisto]
        let a = try GravityModel(ephemeris: eph, center: .jupiter, perturbers: perturbers, zonalDegree: 6)
        let b = try GravityModel(ephemeris: eph, center: .jupiter, perturbers: perturbers, zonalDegree: 6)
        let times = (0..<200).map { t0 + Double($0) * 3_917.1 }
        let r = Vector3(80_000, 20_000, -10_000)
        let forward = times.map { a.accelerationKmS2(at: r, seconds: $0) }
        let backward = times.reversed().map { b.accelerationKmS2(at: r, seconds: $0) }.reversed()
        #expect(forward == Array(backward))
        #expect(forward.count == 200)
    }

    @Test("centres and perturbers the model cannot place are refused")
    func refusals() {
        #expect(throws: GravityModelError.unsupportedCenter(.io)) { try GravityModel(ephemeris: eph, center: .io) }
        #expect(throws: GravityModelError.unsupportedCenter(.iss)) { try GravityModel(ephemeris: eph, center: .iss) }
        #expect(throws: GravityModelError.unsupportedPerturber(.io, center: .saturn)) { try GravityModel(ephemeris: eph, center: .saturn, perturbers: [.io]) }
        #expect(throws: GravityModelError.unsupportedPerturber(.earth, center: .earth)) { try GravityModel(ephemeris: eph, center: .earth, perturbers: [.earth]) }
        #expect(throws: GravityModelError.duplicatePerturber(.sun)) { try GravityModel(ephemeris: eph, center: .earth, perturbers: [.sun, .moon, .sun]) }
        #expect(throws: GravityModelError.noZonalHarmonics(.sun)) { try GravityModel(ephemeris: eph, center: .sun, zonalDegree: 2) }
        #expect(throws: GravityModelError.invalidZonalDegree(7)) { try GravityModel(ephemeris: eph, center: .jupiter, zonalDegree: 7) }
        #expect(throws: GravityModelError.invalidZonalDegree(1)) { try GravityModel(ephemeris: eph, center: .jupiter, zonalDegree: 1) }
        #expect(throws: GravityModelError.noSectoralHarmonics(.jupiter)) { try GravityModel(ephemeris: eph, center: .jupiter, zonalDegree: 2, sectoral: true) }
    }
}
