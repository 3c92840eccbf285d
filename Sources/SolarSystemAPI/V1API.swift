import Ephemeris
import HTTP
import Scene

/// The v1 endpoints of DESIGN.md (bodies, positions, rotations, scene, orbits, stars, camera,
/// the OpenAPI document), registered on a router.
///
/// ```swift
/// let api = V1API(services: services)
/// api.register(on: router)
/// ```
public struct V1API: Sendable {
    public let services: APIServices
    /// The catalogue answers never change while the process runs: encoded once.
    let bodiesJSON: [UInt8]
    let bodyJSON: [BodyID: [UInt8]]

    public init(services: APIServices) {
        self.services = services
        var all = JSONWriter(capacity: 32 * 1024)
        var single: [BodyID: [UInt8]] = [:]
        all.object { w in
            w.key("bodies")
            w.array { w in
                for id in BodyID.allCases {
                    var one = JSONWriter()
                    BodiesEncoding.write(id, services: services, into: &one)
                    single[id] = one.bytes
                    w.raw(one.bytes)
                }
            }
        }
        bodiesJSON = all.bytes
        bodyJSON = single
    }

    public func register(on router: Router) {
        router.get("/openapi.yaml") { _, _ in
            HTTPResponse.bytes(services.openAPIDocument, contentType: "application/yaml; charset=utf-8").cacheable(maxAge: 3600)
        }
        router.get("/v1/bodies") { req, _ in
            try req.query.rejectUnknown([])
            return .catalogueJSON(bodiesJSON)
        }
        router.get("/v1/bodies/{id}") { req, ctx in
            try req.query.rejectUnknown([])
            let id = try QueryParsing.body(try ctx.parameters.require("id"), parameter: nil)
            return .catalogueJSON(bodyJSON[id] ?? [])
        }
        router.get("/v1/positions") { req, _ in try positions(req) }
        // JSON or CSV by `format` or `Accept`: caches must key on Accept too.
        router.get("/v1/positions/{id}") { req, ctx in try timeSeries(req, ctx).varying(on: "Accept") }
        router.get("/v1/rotations") { req, _ in try rotations(req) }
        router.get("/v1/scene") { req, _ in try scene(req) }
        router.get("/v1/orbits") { req, _ in try orbits(req) }
        router.get("/v1/stars") { req, _ in try stars(req).varying(on: "Accept") }
        router.get("/v1/camera/focus/{id}") { req, ctx in try cameraFocus(req, ctx) }
    }
}
