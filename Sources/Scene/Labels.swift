import Ephemeris

/// What a label names, in priority order: a lower-priority label that overlaps a placed one is
/// dropped (planets over mission events over moons over stars).
public enum LabelKind: Int, Sendable, Hashable, Comparable, CaseIterable {
    case planet = 0
    case event
    case moon
    case star

    public static func < (a: LabelKind, b: LabelKind) -> Bool { a.rawValue < b.rawValue }

    /// Font size in pixels (planets 12 pt, moons 10 pt, as the viewer labels them).
    public var fontSize: Double {
        switch self {
        case .planet: 12
        case .event: 11
        case .moon: 10
        case .star: 9
        }
    }
}

/// A label that would like a place on screen.
public struct LabelCandidate: Sendable, Hashable {
    public var text: String
    /// Scene position of what it names.
    public var position: Vector3
    /// Scene radius of the body (0 for stars, events): sets the gap above the disc.
    public var worldRadius: Double
    public var kind: LabelKind
    /// The body it names, so that body's own disc does not hide it.
    public var body: BodyID?
    /// Stars are directions at infinity, not points.
    public var isDirection: Bool

    public init(text: String, position: Vector3, worldRadius: Double = 0, kind: LabelKind, body: BodyID? = nil, isDirection: Bool = false) {
        self.text = text
        self.position = position
        self.worldRadius = worldRadius
        self.kind = kind
        self.body = body
        self.isDirection = isDirection
    }
}

/// A body's disc on screen, for occlusion tests.
public struct ScreenDisc: Sendable, Hashable {
    public var body: BodyID?
    public var x: Double
    public var y: Double
    public var radius: Double
    public var depth: Double

    public init(body: BodyID?, x: Double, y: Double, radius: Double, depth: Double) {
        self.body = body; self.x = x; self.y = y; self.radius = radius; self.depth = depth
    }

    @inlinable public func contains(x px: Double, y py: Double) -> Bool {
        let dx = px - x, dy = py - y
        return dx * dx + dy * dy < radius * radius
    }
}

/// A placed label: text centred on `x`, baseline at `y`, naming the point at (anchorX, anchorY).
public struct PlacedLabel: Sendable, Hashable {
    public var text: String
    public var kind: LabelKind
    public var body: BodyID?
    public var x: Double
    public var y: Double
    public var anchorX: Double
    public var anchorY: Double
    public var fontSize: Double
    /// The box deconfliction used (left, top, right, bottom), pixels.
    public var box: (Double, Double, Double, Double) { LabelLayout.box(text: text, x: x, y: y, fontSize: fontSize) }

    public static func == (a: PlacedLabel, b: PlacedLabel) -> Bool {
        a.text == b.text && a.kind == b.kind && a.body == b.body && a.x == b.x && a.y == b.y
    }

    public func hash(into h: inout Hasher) {
        h.combine(text); h.combine(kind); h.combine(body); h.combine(x); h.combine(y)
    }
}

/// Label placement: `offsetY = max(8, screenR + 4)` above the body (or as far below it when
/// the place above is taken), the on-screen radius from the projection matrix; hidden behind
/// the camera or behind a nearer disc; deconflicted by kind.
public enum LabelLayout {
    /// The gap between a body's centre and its label's baseline (the viewer's).
    @inlinable public static func offsetY(screenRadius r: Double) -> Double { max(8, r + 4) }

    /// Average advance of a sans-serif glyph as a fraction of the font size (Helvetica/Arial
    /// lowercase average ≈ 0.55 em; 0.6 leaves a margin for capitals).
    public static let glyphAdvanceEm = 0.6
    /// Box height in font sizes (ascender to descender).
    public static let lineHeightEm = 1.2

    /// The box a label occupies, centred on x with its baseline at y.
    public static func box(text: String, x: Double, y: Double, fontSize: Double) -> (Double, Double, Double, Double) {
        let w = Double(text.count) * fontSize * glyphAdvanceEm
        return (x - w / 2, y - fontSize * 0.9, x + w / 2, y + fontSize * (lineHeightEm - 0.9))
    }

    static func overlaps(_ a: (Double, Double, Double, Double), _ b: (Double, Double, Double, Double)) -> Bool {
        a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
    }

    /// Places `candidates` for `camera`: drops labels behind the camera, off screen, or whose
    /// anchor lies inside a nearer disc of `occluders`, then keeps labels in priority order
    /// (kind, then the order given) where they do not overlap one already placed — above the
    /// body, else below it, else not at all.
    public static func place(_ candidates: [LabelCandidate], camera: ViewCamera, occluders: [ScreenDisc]) -> [PlacedLabel] {
        let order = candidates.indices.sorted { i, j in
            candidates[i].kind != candidates[j].kind ? candidates[i].kind < candidates[j].kind : i < j
        }
        var placed: [PlacedLabel] = []
        let w = Double(camera.width), h = Double(camera.height)
        for i in order {
            let c = candidates[i]
            guard let p = c.isDirection ? camera.projectDirection(c.position) : camera.project(c.position) else { continue }
            if occluders.contains(where: { $0.body != c.body && $0.depth < p.depth && $0.contains(x: p.x, y: p.y) }) { continue }
            let r = c.isDirection ? 0 : camera.screenRadius(worldRadius: c.worldRadius, depth: p.depth)
            let gap = offsetY(screenRadius: r)
            // Above the body first; below it (baseline one text height lower) if that is taken;
            // then to its right and to its left, vertically centred.
            let probe = PlacedLabel(text: c.text, kind: c.kind, body: c.body, x: p.x, y: p.y, anchorX: p.x, anchorY: p.y, fontSize: c.kind.fontSize)
            let halfWidth = (probe.box.2 - probe.box.0) / 2
            let side = gap + halfWidth
            let middle = p.y + c.kind.fontSize * 0.35
            for (x, y) in [(p.x, p.y - gap), (p.x, p.y + gap + c.kind.fontSize * 0.9), (p.x + side, middle), (p.x - side, middle)] {
                let label = PlacedLabel(text: c.text, kind: c.kind, body: c.body, x: x, y: y, anchorX: p.x, anchorY: p.y, fontSize: c.kind.fontSize)
                let b = label.box
                guard b.2 > 0, b.0 < w, b.3 > 0, b.1 < h else { continue }
                if placed.contains(where: { overlaps($0.box, b) }) { continue }
                placed.append(label)
                break
            }
        }
        return placed
    }
}
