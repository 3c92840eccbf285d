import Dispatch
import Ephemeris
import HTTPCore
import Missions
import MissionScene
import Rendering
import Scene

/// A view request as parsed from the query (or the CLI's flags): what to draw, the mission to
/// overlay, and whether the answer can be cached forever.
public struct ViewQuery: Sendable {
    public let request: ViewRequest
    /// The mission drawn over the view and its mission time (nil: none).
    let mission: (scene: MissionScene, hours: Double)?
    let freshness: Freshness
    /// Asteroids and comets drawn with their paths (`smallBodies=`; none from the CLI).
    var smallBodies: [(id: String, name: String)] = []

    public static let parameters: Set<String> = ["date", "width", "height", "focus", "mission", "t", "azimuth", "elevation", "distance", "pan", "labels", "smallBodies"]

    /// Parses the view parameters (all optional, as strings). `mission` draws that mission's
    /// trajectories and visible event labels at the instant `date`, or (without `date`) at `t`
    /// hours from launch (default 0), and, unless a focus or angles are given, uses the mission's
    /// camera. `t` without `mission` is validated and has no effect. `pan` (`x,y,z` scene units)
    /// moves whichever camera results, target and eye together, as a client's pan does.
    public static func parse(
        date: String?, width: String?, height: String?, focus: String?, mission: String?, t: String?,
        azimuth: String?, elevation: String?, distance: String?, pan: String? = nil, labels: String?, services: APIServices
    ) throws(ProblemDetails) -> ViewQuery {
        func int(_ name: String, _ text: String?, default value: Int) throws(ProblemDetails) -> Int {
            guard let text else { return value }
            let accepted = "an integer in \(ViewRequest.sizeRange.lowerBound)…\(ViewRequest.sizeRange.upperBound) (pixels)"
            guard let v = DecimalNumber.int(text) else { throw .invalidParameter(name, value: text, accepted: accepted) }
            guard ViewRequest.sizeRange.contains(v) else { throw .invalidParameter(name, value: text, accepted: accepted, reason: "out of range") }
            return v
        }
        func number(_ name: String, _ text: String?, accepted: String) throws(ProblemDetails) -> Double? {
            guard let text else { return nil }
            guard let v = DecimalNumber.double(text) else { throw .invalidParameter(name, value: text, accepted: accepted) }
            return v
        }
        let w = try int("width", width, default: 1280)
        let h = try int("height", height, default: 720)
        var focusID: BodyID?
        if let focus {
            guard let id = BodyID(rawValue: focus) else {
                var p = ProblemDetails.invalidParameter("focus", value: focus, accepted: "a body id: \(BodyID.allCases.map(\.rawValue).joined(separator: ", "))", reason: "unknown body")
                p.extensions.append(("validIds", .array(BodyID.allCases.map { .string($0.rawValue) })))
                throw p
            }
            focusID = id
        }
        let az = try number("azimuth", azimuth, accepted: "radians (a finite number)")
        let el = try number("elevation", elevation, accepted: "radians in −π/2…π/2")
        if let el, abs(el) > Double.pi / 2 { throw .invalidParameter("elevation", value: elevation ?? "", accepted: "radians in −π/2…π/2", reason: "out of range") }
        let dist = try number("distance", distance, accepted: "scene units in (0, 10000]")
        if let dist, !(dist > 0 && dist <= 1e4) { throw .invalidParameter("distance", value: distance ?? "", accepted: "scene units in (0, 10000]", reason: "out of range") }
        let offset = try Self.pan(pan)
        var labelOptions = LabelOptions.standard
        if let labels {
            switch LabelOptions.parse(labels) {
            case let .success(o): labelOptions = o
            case let .failure(e): throw .invalidParameter("labels", value: labels, accepted: "a comma list of planets, moons, stars, events, all, none", reason: e.description)
            }
        }
        var camera = CameraChoice.from(focus: focusID, azimuthRad: az, elevationRad: el, distance: dist, pan: offset)
        let instant: Instant
        var freshness = Freshness(dateParameter: date)
        var missionHours: Double?
        var missionScene: MissionScene?
        // `t` is a mission time: validated whenever given, used only with `mission` (and then
        // only when no `date` sets the instant).
        let span = services.missions.missionTimeRange
        let tAccepted = "hours from launch in \(JSONWriter.plain(span.lowerBound))…\(JSONWriter.plain(span.upperBound)), read with mission"
        let tHours = try number("t", t, accepted: tAccepted)
        if let tHours, !span.contains(tHours) { throw .invalidParameter("t", value: t ?? "", accepted: tAccepted, reason: "out of range") }
        if let mission {
            guard let scene = services.missionScenes[mission] else {
                throw .unknownId("mission", id: mission, parameter: "mission", valid: services.missions.ids)
            }
            let engine = scene.engine
            let hours: Double
            if let date {
                instant = try QueryParsing.instant(date, now: services.clock)
                hours = engine.mission.hours(at: instant)
                // The same limits as `t` (a date far from the mission is no mission time).
                guard span.contains(hours) else {
                    let m = engine.mission
                    throw .invalidParameter("date", value: date, accepted: "with mission, an instant from \(m.instant(atHours: span.lowerBound).iso8601) to \(m.instant(atHours: span.upperBound).iso8601) (the limits of t)", reason: "out of range")
                }
            } else {
                hours = tHours ?? 0
                instant = engine.mission.instant(atHours: hours)
                freshness = .fixed
            }
            missionHours = hours
            if focusID == nil, az == nil, el == nil, dist == nil {
                let framing = scene.framing(atHours: hours)
                camera = (framing.pose.map { .pose($0) } ?? CameraChoice.overview).panned(by: offset)
            }
            missionScene = scene
        } else {
            instant = try QueryParsing.instant(date, now: services.clock)
        }
        func viewRequest(_ camera: CameraChoice) throws(ProblemDetails) -> ViewRequest {
            do {
                return try ViewRequest(instant: instant, width: w, height: h, camera: camera, labels: labelOptions, mission: mission, missionHours: missionHours)
            } catch {
                throw .invalidParameter("width", value: "\(w)×\(h)", accepted: error.description)
            }
        }
        let proposed = try viewRequest(camera)
        let request = try viewRequest(Self.cameraOutsideBodies(proposed, services: services))
        return ViewQuery(request: request, mission: missionScene.map { ($0, missionHours ?? 0) }, freshness: freshness)
    }

    static let panAccepted = "three numbers x,y,z: how far to move the camera's target, in scene units, each within ±\(JSONWriter.plain(ViewRequest.panLimit))"

    /// `pan=x,y,z`, or zero when absent.
    static func pan(_ text: String?) throws(ProblemDetails) -> Vector3 {
        guard let text else { return .zero }
        let parts = text.split(separator: ",", maxSplits: 3, omittingEmptySubsequences: false)
        let v = parts.compactMap { DecimalNumber.double(String($0)) }
        guard parts.count == 3, v.count == 3 else { throw .invalidParameter("pan", value: text, accepted: panAccepted) }
        guard v.allSatisfy({ abs($0) <= ViewRequest.panLimit }) else {
            throw .invalidParameter("pan", value: text, accepted: panAccepted, reason: "out of range")
        }
        return Vector3(v[0], v[1], v[2])
    }

    /// The mission overlays to draw (none without a mission). They take a few hundred samples
    /// per vehicle: computed where the view is rendered, never while parsing on the event loop.
    public func overlays() throws -> ViewOverlays {
        guard let mission else { return .none }
        return try Self.missionOverlays(mission.scene, atHours: mission.hours)
    }

    /// The mission's overlays and the small bodies' paths and names.
    func overlays(services: APIServices) throws -> ViewOverlays {
        var all = try overlays()
        guard !smallBodies.isEmpty else { return all }
        let small = V1API.smallBodyOverlays(smallBodies, at: request.instant, services: services)
        all.polylines += small.polylines
        all.labels += small.labels
        return all
    }

    /// A camera whose eye lies inside a body's scene sphere sees nothing useful, so it is moved
    /// back along its line of sight from the target until it is outside every body, 5 % beyond
    /// the surface it was inside. That happens to orbit cameras (the client's azimuth,
    /// elevation, distance), which keep their kind with the new distance; the server's own
    /// cameras (overview, presets, mission framings) start outside, and would become a pose.
    static func cameraOutsideBodies(_ r: ViewRequest, services: APIServices) throws(ProblemDetails) -> CameraChoice {
        let bodies = services.layout.bodies(services.ephemeris.snapshot(at: r.instant))
        var positions = [Vector3](repeating: .zero, count: BodyID.count)
        for b in bodies { positions[b.id.index] = b.position }
        let aspect = Double(r.width) / Double(r.height)
        let pose = ViewCamera.pose(for: r.camera, positions: positions, layout: services.layout, aspect: aspect)
        // The line of sight from the target, from a camera at unit distance.
        let unit = ViewCamera(pose: CameraPose(target: pose.target, distance: 1, azimuthRad: pose.azimuthRad, elevationRad: pose.elevationRad), width: r.width, height: r.height)
        let direction = (unit.eye - pose.target).normalized
        var distance = pose.distance
        var camera = r.camera
        for _ in 0..<BodyID.count {
            guard let b = bodies.first(where: { (pose.target + direction * distance - $0.position).length < $0.radius }) else { return camera }
            // The far crossing of the ray target + direction·d with the sphere grown by 5 %.
            let rel = b.position - pose.target
            let along = rel.dot(direction)
            let r2 = (b.radius * 1.05) * (b.radius * 1.05)
            distance = along + (max(0, r2 - (rel.dot(rel) - along * along))).squareRoot()
            camera = camera.with(distance: distance, pose: pose)
        }
        throw .invalidParameter("distance", value: JSONWriter.plain(distance), accepted: "a camera outside every body", reason: "no place outside the bodies on this line of sight")
    }

    /// Samples of each vehicle's line in a picture: as many as the viewer asks for, so both draw
    /// the same line.
    static let viewLineSamples = 1200

    /// Every vehicle's line (in scene units, split into segments carrying the colour gradient),
    /// the vehicles' current places, and the event labels visible at `t`.
    static func missionOverlays(_ scene: MissionScene, atHours t: Double) throws -> ViewOverlays {
        let engine = scene.engine
        let origin = scene.sceneOrigin == .earth ? scene.earthScenePosition(atHours: t) : .zero
        var lines: [ViewPolyline] = []
        var labels: [OverlayLabel] = []
        var markers: [OverlayMarker] = []
        let segments = 24
        for track in engine.tracks {
            let samples = try scene.sample(track, count: Self.viewLineSamples, frame: .scene).samples
            // In orbit about a planet the line's points are a revolution or more apart: chords
            // through the planet, not the orbit flown. The line is drawn around those spans,
            // and the revolution the vehicle flew up to `t` in their place.
            let orbits = engine.orbitSpans(track).map(\.hours)
            func drawn(_ k: Int) -> Bool {
                !orbits.contains { $0.contains(samples[k].timeHours) || (k > 0 && $0.contains(samples[k - 1].timeHours)) }
            }
            let per = max(1, (samples.count - 1) / segments)
            var start = 0
            while start < samples.count - 1 {
                let end = min(samples.count - 1, start + per)
                let mid = samples[(start + end) / 2].color
                let color = RGBColor(mid.r, mid.g, mid.b)
                // Runs of points whose interval from the previous point touches no orbit.
                var run: [Vector3] = []
                for k in start...end {
                    if k > start, !drawn(k) {
                        if run.count > 1 { lines.append(ViewPolyline(points: run, color: color, opacity: 0.9, width: 1.5)) }
                        run = []
                    }
                    run.append(origin + samples[k].position)
                }
                if run.count > 1 { lines.append(ViewPolyline(points: run, color: color, opacity: 0.9, width: 1.5)) }
                start = end
            }
            if let revolution = try scene.flownRevolution(track, atHours: t) {
                let c = track.vehicle.color
                lines.append(ViewPolyline(points: revolution, color: RGBColor(c.r, c.g, c.b), opacity: 0.9, width: 1.5))
            }
            if track.exists(at: t) {
                // The marker where the vehicle is (a landed one on its drawn body).
                let s = try engine.state(track, atHours: t)
                let color = RGBColor(track.vehicle.color.r, track.vehicle.color.g, track.vehicle.color.b)
                labels.append(OverlayLabel(text: track.vehicle.name, position: scene.scenePosition(s), color: color))
                markers.append(OverlayMarker(position: scene.scenePosition(s), color: color))
            }
        }
        let primary = engine.tracks.first { $0.vehicle.primary } ?? engine.tracks.first
        for e in engine.mission.eventStatus(at: t).visibleLabels {
            guard let primary else { continue }
            let span = engine.lineSpanHours(primary)
            let s = try engine.state(primary, atHours: min(max(e.timeHours, span.lowerBound), span.upperBound))
            // Drawn where the vehicle was at the event, carried with the Earth to now for
            // geocentric missions (the line is Earth-relative).
            labels.append(OverlayLabel(text: e.name, position: origin + scene.localScenePosition(s)))
        }
        // The bodies the mission's events are about keep their names however crowded it gets.
        let featured = Set(engine.mission.events.compactMap { $0.fact?.body }).subtracting([.sun])
        return ViewOverlays(polylines: lines, labels: labels, markers: markers, featuredBodies: featured)
    }
}

/// Rendered views in memory: key = everything the bytes depend on.
public struct ViewCacheKey: Hashable, Sendable {
    let request: ViewRequest
    let format: ViewFormat
    /// The small bodies drawn (ids), under the element files' generation (`ResponseKey.smallBodies`).
    var smallBodies: [String] = []
}

extension V1API {
    /// Raster views above this many pixels (2048 × 2048) render one at a time.
    static let largeViewPixels = 2048 * 2048

    /// `GET /v1/views/system.{svg,ppm,png}`: parsed on the loop (a bad parameter is answered
    /// there) and answered from the memory cache when a fixed view was drawn before; otherwise
    /// rendered on the worker pool (a `.heavy` route: a 4096×4096 ray-cast must not hold a
    /// connection queue; beyond the pool's capacity the server answers 503).
    func viewPlan(_ req: HTTPRequest, format: ViewFormat) throws -> Router.Plan {
        let q = req.query
        try q.rejectUnknown(ViewQuery.parameters)
        guard let renderer = services.renderer else {
            throw ProblemDetails(status: .serviceUnavailable, detail: "views are unavailable: the textures were not loaded")
        }
        var parsed = try ViewQuery.parse(
            date: try q.string("date"), width: try q.string("width"), height: try q.string("height"), focus: try q.string("focus"),
            mission: try q.string("mission"), t: try q.string("t"), azimuth: try q.string("azimuth"), elevation: try q.string("elevation"),
            distance: try q.string("distance"), pan: try q.string("pan"), labels: try q.string("labels"), services: services)
        parsed.smallBodies = try smallBodyList(q)
        let v = parsed
        let contentType = format == .svg ? "image/svg+xml; charset=utf-8" : format.contentType
        let large = format != .svg && v.request.width * v.request.height > Self.largeViewPixels
        let services = self.services
        // Pictures draw the ISS, placed by SGP4 when element sets serve it.
        let key = services.keyed(.view(ViewCacheKey(request: v.request, format: format, smallBodies: v.smallBodies.map(\.id))),
                                 usesElementSets: services.issFromElementSets, usesSmallBodies: !v.smallBodies.isEmpty)
        return encodedPlan(key.key, freshness: v.freshness.dependingOnElementSets(key.usesElementSets), contentType: contentType) {
            let draw = { renderer.render(v.request, format: format, overlays: try v.overlays(services: services)) }
            guard large else { return try draw() }
            guard let image = try services.largeRenders.run(timeout: 10, draw) else {
                var headers = HTTPHeaders()
                headers.add(name: "Retry-After", value: "5")
                throw ProblemDetails(status: .serviceUnavailable, detail: "another large image is being rendered; retry shortly (images over \(Self.largeViewPixels) pixels render one at a time)", headers: headers)
            }
            return image
        }
    }
}
