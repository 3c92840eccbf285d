import Ephemeris

/// One body as a 3D front-end draws it: scene position, scene radius, orientation.
public struct SceneBody: Sendable {
    public let id: BodyID
    public let position: Vector3
    public let radius: Double
    /// Orients a Y-up model (north +Y, prime meridian +X) in the scene frame.
    public let quaternion: Quaternion
    public let ringPlane: RingPlane?
}

/// A ring system lying in its planet's equator plane, in scene units.
public struct RingPlane: Sendable {
    /// Unit normal (the planet's north pole) in the scene frame.
    public let normal: Vector3
    public let innerRadius: Double
    public let outerRadius: Double
    /// Orients a ring disc modelled in the model's XZ plane: the planet's tilt without its spin.
    public let quaternion: Quaternion
}

/// Turns snapshots into scene coordinates with ``SceneScaling``. The catalogue-derived
/// constants (radii, compressed moon distances) are computed once here.
public struct SceneLayout: Sendable {
    public let catalogue: Catalogue
    /// Scene radius per body, indexed by `BodyID.index`.
    public let radii: [Double]
    /// Scene distance of each satellite from its parent (0 for others), by `BodyID.index`.
    public let moonDistances: [Double]
    /// Inner and outer ring radii in scene units for ringed bodies, by `BodyID.index` (read from
    /// the catalogue once: looking entries up per frame cost more than the rest of the layout).
    let ringRadii: [(inner: Double, outer: Double)?]

    public init(catalogue: Catalogue) {
        self.catalogue = catalogue
        var radii = [Double](repeating: 0, count: BodyID.count)
        var moonDistances = [Double](repeating: 0, count: BodyID.count)
        for id in BodyID.allCases where !id.isSatellite {
            radii[id.index] = id == .sun ? SceneScaling.sunRadius : SceneScaling.planetRadius(km: catalogue[id].radiusKm)
        }
        for id in BodyID.allCases where id.isSatellite {
            guard let parent = id.parent else { continue }
            let parentKm = catalogue[parent].radiusKm
            let parentScene = radii[parent.index]
            radii[id.index] = SceneScaling.moonRadius(km: catalogue[id].radiusKm, parentKm: parentKm, parentSceneRadius: parentScene)
            let a = catalogue[id].seedMeanOrbit?.semiMajorAxisKm ?? 0
            moonDistances[id.index] = SceneScaling.moonDistance(semiMajorAxisKm: a, parentKm: parentKm, parentSceneRadius: parentScene)
        }
        self.radii = radii
        self.moonDistances = moonDistances
        ringRadii = BodyID.allCases.map { id in
            guard let rings = catalogue[id].rings else { return nil }
            let scale = radii[id.index] / catalogue[id].radiusKm
            return (rings.innerRadiusKm * scale, rings.outerRadiusKm * scale)
        }
    }

    /// Scene position of a heliocentric position in AU (planets, heliocentric spacecraft).
    @inlinable public static func scenePosition(heliocentricAU r: Vector3) -> Vector3 {
        let d = r.length
        guard d > 0 else { return .zero }
        return SceneAxes.scene(fromEcliptic: r * (SceneScaling.sceneDistance(au: d) / d))
    }

    /// Scene offset of a satellite from its parent: along its true direction, at its compressed
    /// semi-major-axis distance.
    public func moonOffset(_ id: BodyID, relativeKm r: Vector3) -> Vector3 {
        let d = r.length
        guard d > 0 else { return .zero }
        return SceneAxes.scene(fromEcliptic: r * (moonDistances[id.index] / d))
    }

    /// Every body in `BodyID.index` order; the bodies placed from the Sun; the satellites with
    /// their parents' indices (parents come first, so one pass places everything).
    static let allBodies = BodyID.allCases
    static let heliocentricIndices = BodyID.allCases.filter { !$0.isSatellite }.map(\.index)
    static let satellites: [(id: BodyID, parent: Int)] = BodyID.allCases.compactMap { id in
        guard id.isSatellite, let parent = id.parent else { return nil }
        return (id, parent.index)
    }

    /// Scene positions of every body, indexed by `BodyID.index`.
    public func positions(_ s: Snapshot) -> [Vector3] {
        [Vector3](unsafeUninitializedCapacity: BodyID.count) { buffer, count in
            place(s, into: buffer)
            count = BodyID.count
        }
    }

    /// Writes every body's scene position into `out` (`BodyID.count` places).
    func place(_ s: Snapshot, into out: UnsafeMutableBufferPointer<Vector3>) {
        for i in Self.heliocentricIndices {
            out[i] = Self.scenePosition(heliocentricAU: s.heliocentricAU[i])
        }
        for (id, parent) in Self.satellites {
            out[id.index] = out[parent] + moonOffset(id, relativeKm: s.parentRelativeKm[id.index])
        }
    }

    /// Everything a 3D client needs for one frame.
    public func bodies(_ s: Snapshot) -> [SceneBody] {
        withUnsafeTemporaryAllocation(of: Vector3.self, capacity: BodyID.count) { pos in
            place(s, into: pos)
            return Self.allBodies.map { id in
                let o = s.orientations[id.index]
                let q = SceneAxes.sceneQuaternion(bodyToEcliptic: o.quaternionEcliptic)
                return SceneBody(id: id, position: pos[id.index], radius: radii[id.index], quaternion: q, ringPlane: ringPlane(id, orientation: o))
            }
        }
    }

    /// The ring plane of a ringed body (Saturn), lying in its equator.
    public func ringPlane(_ id: BodyID, orientation o: Orientation) -> RingPlane? {
        guard let rings = ringRadii[id.index] else { return nil }
        let normal = SceneAxes.scene(fromEcliptic: o.poleEcliptic)
        // The disc keeps the tilt, not the spin: rotate the model's +Y onto the pole along the
        // shortest arc, which is the planet's orientation with its spin about the pole removed.
        let up = Vector3(0, 1, 0)
        let axis = up.cross(normal)
        let angle = up.angle(to: normal)
        let q = axis.length > 1e-12 ? Quaternion(angle: angle, axis: axis) : (normal.y >= 0 ? .identity : Quaternion(angle: .pi, axis: Vector3(1, 0, 0)))
        return RingPlane(normal: normal, innerRadius: rings.inner, outerRadius: rings.outer, quaternion: q)
    }
}
