import Ephemeris
import Scene

/// One body as a view draws it.
public struct ViewBody: Sendable {
    public let id: BodyID
    public let name: String
    public let position: Vector3
    public let radius: Double
    /// Orients the Y-up model (north +Y, prime meridian +X) in the scene.
    public let quaternion: Quaternion
    public let color: RGBColor
    public let emissive: Bool
    public let ring: RingPlane?
    /// Where its centre lands on screen (nil behind the camera) and its on-screen radius.
    public let screen: ScreenPoint?
    public let screenRadius: Double
}

/// A polyline in scene coordinates: an orbit, or a mission trajectory overlay.
public struct ViewPolyline: Sendable {
    public var points: [Vector3]
    public var color: RGBColor
    public var opacity: Double
    /// Stroke width in pixels.
    public var width: Double
    public var closed: Bool

    public init(points: [Vector3], color: RGBColor, opacity: Double = 1, width: Double = 1.5, closed: Bool = false) {
        self.points = points
        self.color = color
        self.opacity = opacity
        self.width = width
        self.closed = closed
    }
}

/// A star as a background point: scene direction, display colour, point size (pixels).
public struct ViewStar: Sendable {
    public let direction: Vector3
    public let color: RGBColor
    public let size: Double
    public let magnitude: Double
    public let name: String?
}

/// A text label at a scene position (mission events).
public struct OverlayLabel: Sendable {
    public var text: String
    public var position: Vector3
    public var color: RGBColor

    public init(text: String, position: Vector3, color: RGBColor = RGBColor(1, 0.67, 0.2)) {
        self.text = text
        self.position = position
        self.color = color
    }
}

/// A vehicle's place: a ring drawn whatever happens to its name label (which may give way to
/// others), hidden only behind a nearer body.
public struct OverlayMarker: Sendable {
    public var position: Vector3
    public var color: RGBColor

    public init(position: Vector3, color: RGBColor) {
        self.position = position
        self.color = color
    }
}

/// The hook for mission trajectories and event labels: the API layer fills it from Missions.
public struct ViewOverlays: Sendable {
    public var polylines: [ViewPolyline]
    public var labels: [OverlayLabel]
    public var markers: [OverlayMarker]
    /// Bodies the overlay is about (a mission's flyby and landing targets): their names are
    /// placed with the planets' priority, so an event label near them never pushes them out.
    public var featuredBodies: Set<BodyID>

    public init(polylines: [ViewPolyline] = [], labels: [OverlayLabel] = [], markers: [OverlayMarker] = [], featuredBodies: Set<BodyID> = []) {
        self.polylines = polylines
        self.labels = labels
        self.markers = markers
        self.featuredBodies = featuredBodies
    }

    public static let none = ViewOverlays()
}

/// Everything a renderer needs for one view, computed once from the request: camera, bodies,
/// orbits, stars, placed labels, caption. Pure: no files, no clock.
public struct ViewScene: Sendable {
    public let request: ViewRequest
    public let camera: ViewCamera
    /// Drawn bodies (the ISS is left out, as the viewer hides it by default).
    public let bodies: [ViewBody]
    public let orbits: [ViewPolyline]
    public let stars: [ViewStar]
    public let overlays: ViewOverlays
    public let labels: [PlacedLabel]
    /// `2026-11-22 00:00 UTC`.
    public let caption: String
    /// Where the light comes from: the Sun's scene position.
    public let sunPosition: Vector3

    /// Planet orbit polyline samples (one revolution).
    public static let planetOrbitSamples = 360
    /// The planets' orbits are drawn only by a camera farther than this from its target (scene
    /// units): within a planet's system a 360-point heliocentric ellipse is a straight chord
    /// across the picture that says nothing (the web viewer's `HELIOCENTRIC_ORBITS_FROM`).
    public static let planetOrbitsFromDistance = 6.0
    /// Moon orbit samples, drawn for the system the camera looks at.
    public static let moonOrbitSamples = 180
    /// Stars fainter than this are not drawn.
    public static let faintestMagnitude = 6.5

    public init(request: ViewRequest, ephemeris: Ephemeris, layout: SceneLayout, stars starCatalogue: StarCatalogue?, overlays: ViewOverlays = .none) {
        self.request = request
        self.overlays = overlays
        let t = request.instant
        let snapshot = ephemeris.snapshot(at: t)
        let sceneBodies = layout.bodies(snapshot)
        let positions = sceneBodies.map(\.position)
        let camera = ViewCamera.make(request.camera, positions: positions, layout: layout, width: request.width, height: request.height)
        self.camera = camera
        sunPosition = positions[BodyID.sun.index]

        let catalogue = layout.catalogue
        bodies = sceneBodies.filter { $0.id != .iss }.map { b in
            let entry = catalogue[b.id]
            let s = camera.project(b.position)
            return ViewBody(
                id: b.id, name: entry.name, position: b.position, radius: b.radius, quaternion: b.quaternion,
                color: RGBColor(entry.colorRGB), emissive: entry.emissive, ring: b.ringPlane,
                screen: s, screenRadius: s.map { camera.screenRadius(worldRadius: b.radius, depth: $0.depth) } ?? 0
            )
        }

        // Orbits: every planet's osculating ellipse, log-scaled point by point, from far enough
        // out to see them as ellipses; the moons of the system in view on their compressed circles.
        var orbits: [ViewPolyline] = []
        let drawsPlanetOrbits = (camera.eye - camera.target).length > Self.planetOrbitsFromDistance
        for body in BodyID.heliocentric where drawsPlanetOrbits {
            let s = ephemeris.state(body, at: t)
            let orbit = OsculatingOrbit(position: s.positionAU, velocity: s.velocityAUPerDay, mu: GravitationalParameter.heliocentric(body))
            let pts = orbit.polyline(count: Self.planetOrbitSamples).map { SceneLayout.scenePosition(heliocentricAU: $0) }
            orbits.append(ViewPolyline(points: pts, color: Self.orbitColor(RGBColor(catalogue[body].colorRGB)), opacity: 0.6, width: 1.2, closed: true))
        }
        if let system = Self.systemInView(request.camera) {
            let parentPos = positions[system.index]
            for moon in catalogue[system].moons where moon != .iss {
                let r = ephemeris.parentRelativeState(moon, at: t)
                let orbit = OsculatingOrbit(position: r.positionKm, velocity: r.velocityKmPerDay, mu: GravitationalParameter.planetocentric(moon))
                let pts = orbit.polyline(count: Self.moonOrbitSamples).map { parentPos + layout.moonOffset(moon, relativeKm: $0) }
                orbits.append(ViewPolyline(points: pts, color: Self.orbitColor(RGBColor(catalogue[moon].colorRGB)), opacity: 0.35, width: 1, closed: true))
            }
        }
        self.orbits = orbits

        stars = (starCatalogue?.stars ?? []).filter { $0.magnitude <= Self.faintestMagnitude }.map { s in
            ViewStar(direction: SceneAxes.scene(fromEcliptic: s.directionEcliptic), color: RGBColor(s.colorRGB), size: s.pointSize, magnitude: s.magnitude, name: s.name)
        }

        labels = Self.placeLabels(request: request, camera: camera, bodies: bodies, stars: stars, overlays: overlays)
        let u = t.utc
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let year = u.year >= 0 ? String(u.year) : "-" + String(-u.year)
        caption = "\(year)-\(two(u.month))-\(two(u.day)) \(two(u.hour)):\(two(u.minute)) UTC"
    }

    /// The planet whose moons get orbit lines: the focus target, or a moon's parent.
    static func systemInView(_ choice: CameraChoice) -> BodyID? {
        let target: BodyID
        switch choice {
        case .overview: return nil
        case let .focus(b): target = b
        case let .orbit(b, _, _, _): target = b
        case .pose: return nil
        case let .panned(inner, _): return systemInView(inner)
        }
        let planet = target.isSatellite ? (target.parent ?? target) : target
        return planet == .sun ? nil : planet
    }

    /// Orbit colour: the body's colour pulled toward grey so thin lines stay readable.
    static func orbitColor(_ c: RGBColor) -> RGBColor { c * 0.6 + RGBColor(0.5, 0.5, 0.55) * 0.4 }

    /// Screen discs of every body in front of the camera, for occlusion tests.
    public var occluders: [ScreenDisc] {
        bodies.compactMap { b in
            guard let s = b.screen else { return nil }
            return ScreenDisc(body: b.id, x: s.x, y: s.y, radius: b.screenRadius, depth: s.depth)
        }
    }

    /// Whether a point on screen lies inside the disc of a body nearer than it.
    public func hidesBehindBody(_ p: ScreenPoint) -> Bool {
        bodies.contains { b in
            guard let s = b.screen, s.depth < p.depth else { return false }
            return ScreenDisc(body: b.id, x: s.x, y: s.y, radius: b.screenRadius, depth: s.depth).contains(x: p.x, y: p.y)
        }
    }

    /// Stars bright enough to carry a name label (about 120, as the viewer labels).
    public static let namedStarMagnitude = 2.5

    static func placeLabels(request: ViewRequest, camera: ViewCamera, bodies: [ViewBody], stars: [ViewStar], overlays: ViewOverlays) -> [PlacedLabel] {
        var candidates: [LabelCandidate] = []
        let opts = request.labels
        for b in bodies {
            let kind: LabelKind = b.id.isSatellite && !overlays.featuredBodies.contains(b.id) ? .moon : .planet
            if kind == .planet, !opts.contains(.planets) { continue }
            if kind == .moon, !opts.contains(.moons) { continue }
            candidates.append(LabelCandidate(text: b.name, position: b.position, worldRadius: b.radius, kind: kind, body: b.id))
        }
        if opts.contains(.events) {
            for l in overlays.labels {
                candidates.append(LabelCandidate(text: l.text, position: l.position, kind: .event))
            }
        }
        if opts.contains(.stars) {
            for s in stars.sorted(by: { $0.magnitude < $1.magnitude }) where s.magnitude <= namedStarMagnitude {
                guard let name = s.name else { continue }
                candidates.append(LabelCandidate(text: name, position: s.direction, kind: .star, isDirection: true))
            }
        }
        let discs = bodies.compactMap { b -> ScreenDisc? in
            guard let s = b.screen else { return nil }
            return ScreenDisc(body: b.id, x: s.x, y: s.y, radius: b.screenRadius, depth: s.depth)
        }
        return LabelLayout.place(candidates, camera: camera, occluders: discs)
    }
}
