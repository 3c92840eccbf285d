import Ephemeris
import HTTPCore
import Scene

extension V1API {
    /// `GET /v1/rotations`: pole, prime meridian and quaternions of every (or the listed) body.
    func rotationsPlan(_ req: HTTPRequest) throws -> Router.Plan {
        let q = req.query
        try q.rejectUnknown(["date", "bodies", "frame"])
        let (t, freshness) = try q.instant(clock: services.clock)
        let bodies = try QueryParsing.bodies(try q.string("bodies"))
        let frameName = try q.oneOf("frame", [OutputFrame.eclipticJ2000.rawValue, OutputFrame.equatorialJ2000.rawValue], default: OutputFrame.eclipticJ2000.rawValue)
        let equatorial = frameName == OutputFrame.equatorialJ2000.rawValue
        // The ISS turns with its SGP4 velocity when element sets serve it.
        let key = services.keyed(.rotations(t, bodies, equatorial: equatorial), usesElementSets: bodies.contains(.iss) && services.issFromElementSets)
        return encodedPlan(key.key, freshness: freshness.dependingOnElementSets(key.usesElementSets)) { [self] in
            rotationsJSON(t, bodies: bodies, frameName: frameName, equatorial: equatorial)
        }
    }

    func rotationsJSON(_ t: Instant, bodies: [BodyID], frameName: String, equatorial: Bool) -> [UInt8] {
        let snapshot = services.ephemeris.snapshot(at: t)
        var w = JSONWriter(capacity: 8 * 1024)
        w.object { w in
            PositionsResult.writeTime(t, into: &w)
            w.key("frame"); w.string(frameName)
            w.key("convention"); w.string("quaternion [x, y, z, w] rotates body-fixed coordinates (+z north pole, +x prime meridian) into the frame; sceneQuaternion orients a Y-up model (north +Y, prime meridian +X) in the scene frame")
            w.key("bodies")
            w.array { w in
                for id in bodies {
                    let o = snapshot.orientation(id)
                    let q = equatorial ? o.quaternionEquatorial : o.quaternionEcliptic
                    let sq = SceneAxes.sceneQuaternion(bodyToEcliptic: o.quaternionEcliptic)
                    w.object { w in
                        w.key("id"); w.string(id.rawValue)
                        w.key("model"); w.string(services.ephemeris.rotationModel(id).rawValue)
                        w.key("poleRaDeg"); w.number(o.poleRADeg)
                        w.key("poleDecDeg"); w.number(o.poleDecDeg)
                        w.key("primeMeridianDeg"); w.number(o.primeMeridianDeg)
                        w.key("quaternion"); w.numbers(q.array)
                        w.key("sceneQuaternion"); w.numbers(sq.array)
                    }
                }
            }
        }
        return w.bytes
    }

    /// `GET /v1/scene`: everything one frame of a 3D client needs, all 25 bodies.
    func scenePlan(_ req: HTTPRequest) throws -> Router.Plan {
        let q = req.query
        try q.rejectUnknown(["date", "smallBodies"])
        let (t, freshness) = try q.instant(clock: services.clock)
        let small = try smallBodyList(q)
        // The ISS is placed by SGP4 when element sets serve it.
        let key = services.keyed(small.isEmpty ? .scene(t) : .smallBodyScene(t, small.map(\.name)), usesElementSets: services.issFromElementSets,
                                 usesSmallBodies: !small.isEmpty)
        return encodedPlan(key.key, freshness: freshness.dependingOnElementSets(key.usesElementSets || !small.isEmpty)) { [self] in sceneJSON(t, smallBodies: small) }
    }

    func sceneJSON(_ t: Instant, smallBodies: [(id: String, name: String)] = []) -> [UInt8] {
        let layout = services.layout
        let bodies = layout.bodies(services.ephemeris.snapshot(at: t))
        var w = JSONWriter(capacity: 12 * 1024)
        w.object { w in
            PositionsResult.writeTime(t, into: &w)
            w.key("frame"); w.string("scene")
            w.key("axes"); w.string("scene = (x, z, -y) of ecliptic J2000: Y up (ecliptic north), right-handed")
            w.key("scaling")
            w.object { w in
                w.key("distance"); w.string("15 * ln(1 + AU / 0.5)")
                w.key("planetRadius"); w.string("max(0.03, sqrt(km) * 0.00125)")
                w.key("sunRadius"); w.number(SceneScaling.sunRadius)
                w.key("moonRadius"); w.string("max(0.012, parentSceneRadius * radiusKm / parentRadiusKm)")
                w.key("moonDistance"); w.string("parentSceneRadius * (semiMajorAxisKm / parentRadiusKm)^0.6 * 1.5, along the true direction")
            }
            let positions = Dictionary(uniqueKeysWithValues: bodies.map { ($0.id, $0.position) })
            w.key("bodies")
            w.array { w in
                for b in bodies {
                    let e = services.catalogue[b.id]
                    w.object { w in
                        w.key("id"); w.string(b.id.rawValue)
                        w.key("name"); w.string(e.name)
                        w.key("type"); w.string(e.type.rawValue)
                        w.key("parent"); w.optionalString(e.parent?.rawValue)
                        w.key("position"); w.numbers(b.position.array)
                        // Moons sit at a compressed offset from their parent (``SceneScaling``'s moon compression).
                        w.key("offsetFromParent")
                        if let parent = e.parent, parent != .sun, let p = positions[parent] {
                            w.numbers((b.position - p).array)
                        } else {
                            w.null()
                        }
                        w.key("sceneRadius"); w.number(b.radius)
                        w.key("sceneQuaternion"); w.numbers(b.quaternion.array)
                        w.key("colorRgb"); w.numbers(e.colorRGB)
                        w.key("emissive"); w.bool(e.emissive)
                        w.key("ringPlane")
                        if let r = b.ringPlane {
                            w.object { w in
                                w.key("normal"); w.numbers(r.normal.array)
                                w.key("innerRadius"); w.number(r.innerRadius)
                                w.key("outerRadius"); w.number(r.outerRadius)
                                w.key("sceneQuaternion"); w.numbers(r.quaternion.array)
                            }
                        } else {
                            w.null()
                        }
                    }
                }
            }
            if !smallBodies.isEmpty { writeSmallBodies(smallBodies, at: t, into: &w) }
        }
        return w.bytes
    }

    /// Orbit answers estimated above this many bytes stream in pieces instead of being encoded
    /// (and cached) whole: 24 bodies × 4,096 samples is about 12 MB of JSON.
    static let orbitsWholeBodyLimit = 1 << 20

    /// `GET /v1/orbits`: one revolution of each body's osculating orbit at `date`.
    func orbitsPlan(_ req: HTTPRequest) throws -> Router.Plan {
        let q = req.query
        try q.rejectUnknown(["date", "bodies", "samples"])
        let (t, dateFreshness) = try q.instant(clock: services.clock)
        let requested = try QueryParsing.bodies(try q.string("bodies"))
        let samples = try q.int("samples", in: 16...4096, default: 256)
        let services = self.services
        // The ISS's osculating orbit starts from its SGP4 state when element sets serve it.
        let key = services.keyed(.orbits(t, requested, samples: samples), usesElementSets: requested.contains(.iss) && services.issFromElementSets)
        let freshness = dateFreshness.dependingOnElementSets(key.usesElementSets)
        if OrbitsEncoding.estimatedBytes(bodies: requested.count, samples: samples) <= Self.orbitsWholeBodyLimit {
            return encodedPlan(key.key, freshness: freshness) {
                OrbitsEncoding(services: services, instant: t, requested: requested, samples: samples).whole()
            }
        }
        return .offload {
            let encoding = OrbitsEncoding(services: services, instant: t, requested: requested, samples: samples)
            return HTTPResponse.stream(contentType: HTTPResponse.jsonContentType, encoding.producer()).streamedFreshness(freshness)
        }
    }

    /// `GET /v1/camera/focus/{id}`: the planet preset's framing (``CameraFraming``).
    func cameraFocus(_ req: HTTPRequest, _ ctx: RequestContext) throws -> HTTPResponse {
        let q = req.query
        try q.rejectUnknown(["date", "aspect"])
        let id = try QueryParsing.body(try ctx.parameters.require("id"), parameter: nil)
        let (t, dateFreshness) = try q.instant(clock: services.clock)
        // Framing the ISS follows its SGP4 position when element sets serve it.
        let freshness = dateFreshness.dependingOnElementSets(id == .iss && services.issFromElementSets)
        let aspect = try q.double("aspect", in: 0.1...10, default: 16.0 / 9.0)
        let (extent, _) = CameraFraming.systemExtent(id, layout: services.layout)
        let pose = CameraFraming.preset(id, position: { services.engine.scenePosition($0, at: t) }, layout: services.layout, aspect: aspect)
        var w = JSONWriter()
        w.object { w in
            PositionsResult.writeTime(t, into: &w)
            w.key("id"); w.string(id.rawValue)
            w.key("aspect"); w.number(aspect)
            w.key("target"); w.numbers(pose.target.array)
            w.key("distance"); w.number(pose.distance)
            w.key("azimuthRad"); w.number(pose.azimuthRad)
            w.key("elevationRad"); w.number(pose.elevationRad)
            w.key("position"); w.numbers(pose.position.array)
            w.key("up"); w.numbers([0, 1, 0])
            w.key("fieldOfViewDeg"); w.number(pose.fieldOfViewDeg)
            w.key("systemExtent"); w.number(extent)
        }
        return .json(w.bytes, freshness: freshness)
    }
}
