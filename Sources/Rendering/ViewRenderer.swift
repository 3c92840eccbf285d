import Ephemeris
import Scene

/// The output formats of `GET /v1/views/system.{svg,ppm,png}`.
public enum ViewFormat: String, Sendable, Hashable, CaseIterable {
    case svg, ppm, png

    public var contentType: String {
        switch self {
        case .svg: "image/svg+xml"
        case .ppm: "image/x-portable-pixmap"
        case .png: "image/png"
        }
    }
}

/// Everything a view needs that does not change between requests (catalogue-derived layout,
/// stars, decoded textures), and one call per format. Build once at start-up, share freely.
///
/// ```swift
/// let renderer = ViewRenderer(ephemeris: eph, stars: stars, textures: try TextureSet.decode(files: files))
/// let req = try ViewRequest(instant: t, width: 1280, height: 720, camera: .focus(.saturn))
/// let png = renderer.render(req, format: .png)
/// ```
public struct ViewRenderer: Sendable {
    public let ephemeris: Ephemeris
    public let layout: SceneLayout
    public let stars: StarCatalogue?
    public let caster: RayCaster

    public init(ephemeris: Ephemeris, stars: StarCatalogue?, textures: TextureSet) {
        self.ephemeris = ephemeris
        layout = SceneLayout(catalogue: ephemeris.catalogue)
        self.stars = stars
        caster = RayCaster(textures: textures)
    }

    /// The computed view (camera, bodies, orbits, labels) without drawing it.
    public func scene(_ request: ViewRequest, overlays: ViewOverlays = .none) -> ViewScene {
        ViewScene(request: request, ephemeris: ephemeris, layout: layout, stars: stars, overlays: overlays)
    }

    public func svg(_ request: ViewRequest, overlays: ViewOverlays = .none) -> String {
        SVGRenderer.render(scene(request, overlays: overlays))
    }

    /// The ray-cast image with the labels and the date caption drawn over it.
    public func image(_ request: ViewRequest, overlays: ViewOverlays = .none) -> RGBImage {
        let s = scene(request, overlays: overlays)
        var image = caster.render(s)
        TextRenderer.drawLabels(of: s, into: &image)
        return image
    }

    /// The encoded body for `format`.
    public func render(_ request: ViewRequest, format: ViewFormat, overlays: ViewOverlays = .none) -> [UInt8] {
        switch format {
        case .svg: Array(svg(request, overlays: overlays).utf8)
        case .ppm: PPMEncoder.encode(image(request, overlays: overlays))
        case .png: PNGEncoder.encode(image(request, overlays: overlays))
        }
    }
}
