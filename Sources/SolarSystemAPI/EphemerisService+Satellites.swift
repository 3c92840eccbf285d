import Glibc
import Ephemeris
import HTTPCore
import Satellites

/// What a positions answer says about a satellite besides its state: the element set behind it,
/// how old the set is at the requested instant, and where the satellite is over the Earth.
public struct SatelliteAnnotation: Sendable {
    public let noradID: Int
    public let name: String?
    /// The element set's epoch, UTC.
    public let epoch: Instant
    /// Requested instant minus the epoch, days (negative before the epoch).
    public let ageDays: Double
    /// More than ``SatelliteAnnotation/staleAfterDays`` from the epoch either way.
    public var stale: Bool { abs(ageDays) > Self.staleAfterDays }
    public let subpoint: Geodetic?
    public let illumination: Illumination?

    /// SGP4's error grows by about a kilometre a day for low orbits; two weeks is the usual limit
    /// of a set's use (CelesTrak, Space-Track guidance).
    public static let staleAfterDays = 14.0

    func write(into w: inout JSONWriter) {
        w.key("noradId"); w.int(noradID)
        w.key("name"); if let name { w.string(name) } else { w.null() }
        w.key("elementSetEpoch"); w.string(writingASCII: { epoch.utc.appendISO8601(to: &$0) })
        w.key("elementSetAgeDays"); w.number(ageDays)
        w.key("stale"); w.bool(stale)
        if let subpoint {
            w.key("subpoint")
            w.object { w in
                w.key("latitudeDeg"); w.number(subpoint.latitudeDeg)
                w.key("longitudeDeg"); w.number(subpoint.longitudeDeg)
                w.key("altitudeKm"); w.number(subpoint.altitudeKm)
            }
        }
        if let illumination { w.key("illumination"); w.string(illumination.rawValue) }
    }
}

extension EphemerisService {
    /// The satellite behind a `.satellite` body, from the catalogue the request started with.
    func satellite(_ norad: Int, name: String, in catalogue: SatelliteCatalogue) throws(ProblemDetails) -> Satellite {
        guard let s = catalogue.satellite(norad: norad) else {
            // The set left the file between parsing the request and answering it.
            throw ProblemDetails.unknownId("body", id: name, parameter: nil, valid: catalogue.satellites.map(\.id))
                .adding("reason", "no element set for NORAD \(norad) is loaded any more")
        }
        return s
    }

    /// The epoch of a satellite's element set as an instant.
    static func epoch(_ s: Satellite) -> Instant {
        (try? TimeScale.utc(julianDay: s.elements.epochJDUTC)) ?? TimeScale.instant(tdbSecondsPastJ2000: 0)
    }

    /// 422: SGP4 gives no state for the satellite at that instant (decayed, or elements driven
    /// out of range by drag far from the epoch).
    static func unpropagatable(_ s: Satellite, name: String, at t: Instant, _ error: SGP4Error) -> ProblemDetails {
        let epoch = Self.epoch(s)
        let who = "\(name) (NORAD \(s.noradID)\(s.elements.name.map { ", \($0)" } ?? ""))"
        var p = ProblemDetails(status: .unprocessableContent, title: "Satellite cannot be propagated",
                               detail: "\(who) at \(t.iso8601), element set epoch \(epoch.iso8601): \(error.description)")
        p.extensions.append(("body", .string(name)))
        p.extensions.append(("noradId", .int(s.noradID)))
        p.extensions.append(("reason", .string(error.description)))
        p.extensions.append(("sgp4Error", .int(error.code)))
        p.extensions.append(("elementSetEpoch", .string(epoch.iso8601)))
        return p
    }

    /// A satellite's heliocentric state (AU, AU/day, ecliptic J2000) from its geocentric SGP4
    /// state and the Earth's (`earth`).
    static func heliocentric(icrfKm r: Vector3, icrfKmPerSecond v: Vector3, earth: StateVector) -> StateVector {
        let m = Precession.equatorialToEclipticJ2000
        return StateVector(positionAU: earth.positionAU + (m * r) / Constants.auKm,
                           velocityAUPerDay: earth.velocityAUPerDay + (m * v) * (Constants.secondsPerDay / Constants.auKm))
    }

    /// Where the scene draws an Earth satellite relative to the Earth: the ISS as the scene always has
    /// (its compressed semi-major axis along its true direction); others along their direction
    /// at the ISS's scene distance scaled by (r / a_ISS)^0.6, the scene's moon compression.
    func satelliteSceneOffset(_ norad: Int, eclipticKm r: Vector3) -> Vector3 {
        let iss = layout.moonOffset(.iss, relativeKm: r)
        guard norad != SatelliteCatalogue.issNoradID, let a = ephemeris.catalogue[.iss].seedMeanOrbit?.semiMajorAxisKm, a > 0 else { return iss }
        return iss * pow(r.length / a, 0.6)
    }

    /// One satellite at one instant in the selection's frame, centre and units, with its
    /// annotation. `earth` is the Earth's heliocentric state when the caller has it.
    func satelliteEntry(_ ref: BodyRef, norad: Int, name: String, at t: Instant, _ sel: FrameSelection,
                        catalogue: SatelliteCatalogue, earth: StateVector? = nil, origin: StateVector? = nil,
                        annotate: Bool = true) throws(ProblemDetails) -> PositionEntry {
        let s = try satellite(norad, name: name, in: catalogue)
        let epoch = Self.epoch(s)
        let theory = TheorySpan(name: "SGP4 (element set epoch \(epoch.iso8601))", jdTDB: EphemerisService.satelliteSpan(epoch))
        let fix: SatelliteFix
        do {
            let earthState = earth ?? ephemeris.state(.earth, at: t)
            // The Sun seen from the Earth, ICRF km: the light the satellite is in.
            let sun = Precession.eclipticToEquatorialJ2000 * (-earthState.positionAU * Constants.auKm)
            fix = try s.propagator.fix(at: t, sunICRFKm: annotate ? sun : nil)
        } catch {
            throw Self.unpropagatable(s, name: name, at: t, error)
        }
        let annotation = annotate ? SatelliteAnnotation(noradID: s.noradID, name: s.elements.name, epoch: epoch,
                                                        ageDays: fix.minutesSinceEpoch / 1440, subpoint: fix.subpoint,
                                                        illumination: fix.illumination) : nil
        switch sel.frame {
        case .eclipticJ2000, .equatorialJ2000:
            if sel.center == .earth {
                let geo = Self.heliocentric(icrfKm: fix.icrfPositionKm, icrfKmPerSecond: fix.icrfVelocityKmPerSecond,
                                            earth: StateVector(positionAU: .zero, velocityAUPerDay: .zero))
                var e = convert(ref, geo, sel, theory: theory)
                e.satellite = annotation
                return e
            }
            let earthState = earth ?? ephemeris.state(.earth, at: t)
            let helio = Self.heliocentric(icrfKm: fix.icrfPositionKm, icrfKmPerSecond: fix.icrfVelocityKmPerSecond, earth: earthState)
            let o = origin ?? self.origin(sel, at: t)
            var e = convert(ref, helio - o, sel, theory: theory)
            e.satellite = annotation
            return e
        case .scene:
            let h = Self.sceneVelocityStepSeconds
            func relative(_ at: Instant) throws(ProblemDetails) -> Vector3 {
                let r: Vector3
                do { r = try s.propagator.icrfState(at: at).positionKm } catch { throw Self.unpropagatable(s, name: name, at: at, error) }
                let ecliptic = Precession.equatorialToEclipticJ2000 * r
                return scenePosition(.earth, at: at) + satelliteSceneOffset(norad, eclipticKm: ecliptic) - scenePosition(sel.center, at: at)
            }
            let v = (try relative(t.adding(seconds: h)) - relative(t.adding(seconds: -h))) * (Constants.secondsPerDay / (2 * h))
            var e = PositionEntry(body: ref, position: try relative(t), velocity: v, theory: theory)
            e.satellite = annotation
            return e
        }
    }

    /// The span an element set is reported as serving: its epoch ± the staleness limit.
    static func satelliteSpan(_ epoch: Instant) -> ClosedRange<Double> {
        (epoch.jdTDB - SatelliteAnnotation.staleAfterDays)...(epoch.jdTDB + SatelliteAnnotation.staleAfterDays)
    }
}

/// A satellite's samples in a time series: one element set throughout, and the TEME → ICRF
/// rotation reused while the instants stay within ten minutes of where it was computed (it moves
/// by under 1 mas, 3 cm at the ISS, in that time), so a day at one-second steps costs one SGP4
/// evaluation and a matrix product a sample.
struct SatelliteSeriesSampler: Sendable {
    let engine: EphemerisService
    let satellite: Satellite
    let ref: BodyRef
    let catalogue: SatelliteCatalogue
    let selection: FrameSelection
    let theory: TheorySpan
    private var rotation = (jdTT: -Double.infinity, matrix: Matrix3.identity)

    static let rotationReuseDays = 600.0 / 86_400

    init(engine: EphemerisService, satellite: Satellite, ref: BodyRef, catalogue: SatelliteCatalogue, selection: FrameSelection) {
        self.engine = engine; self.satellite = satellite; self.ref = ref; self.catalogue = catalogue; self.selection = selection
        theory = TheorySpan(name: "SGP4", jdTDB: EphemerisService.satelliteSpan(EphemerisService.epoch(satellite)))
    }

    static let failed = PositionEntry(body: .engine(.earth), position: Vector3(.nan, .nan, .nan), velocity: Vector3(.nan, .nan, .nan),
                                      theory: TheorySpan(name: "none", jdTDB: 0...0))

    /// The sample at `t`; NaNs where SGP4 gives nothing.
    mutating func entry(at t: Instant) -> PositionEntry {
        guard selection.frame != .scene else {
            guard case let .satellite(norad, name) = ref,
                  let e = try? engine.satelliteEntry(ref, norad: norad, name: name, at: t, selection, catalogue: catalogue, annotate: false)
            else { return Self.failed }
            return e
        }
        let jd = t.jdTT
        if abs(rotation.jdTT - jd) > Self.rotationReuseDays {
            rotation = (jd, TEMEFrame.temeToICRF(jdTT: jd))
        }
        guard let s = try? satellite.propagator.icrfState(at: t, rotation: rotation.matrix) else { return Self.failed }
        let zero = StateVector(positionAU: .zero, velocityAUPerDay: .zero)
        if selection.center == .earth {
            let geo = EphemerisService.heliocentric(icrfKm: s.positionKm, icrfKmPerSecond: s.velocityKmPerSecond, earth: zero)
            return engine.convert(ref, geo, selection, theory: theory)
        }
        let ephemeris = engine.ephemeris
        let helio = EphemerisService.heliocentric(icrfKm: s.positionKm, icrfKmPerSecond: s.velocityKmPerSecond,
                                                  earth: ephemeris.state(.earth, at: t))
        let origin = engine.origin(selection, at: t)
        return engine.convert(ref, helio - origin, selection, theory: theory)
    }
}
