import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import Rendering

@Suite("Eclipse map")
struct EclipseMapTests {
    static let map = EclipseMap(
        title: "Total solar eclipse <test> & co",
        curves: [EclipseMap.Curve(name: "central line", color: RGBColor(1, 0.85, 0.3), width: 2,
                                  segments: [[(10, 170), (12, 179), (14, -178), (16, -170)], [(0, 0)]])],
        greatest: .init(latitudeDeg: 12, longitudeDeg: 179, text: "greatest eclipse"),
        timeLabels: [.init(latitudeDeg: 10, longitudeDeg: 170, text: "18:15")], width: 360, height: 180)

    @Test("a curve crossing the date line is broken there, a lone point kept as a dot")
    func polylines() {
        let lines = Self.map.polylines(Self.map.curves[0])
        #expect(lines.count == 3)
        #expect(lines[0].count == 2 && lines[1].count == 2 && lines[2].count == 2)
        #expect(lines[0].last!.x > 350 && lines[1].first!.x < 10)
        // Latitude 10° is 80 pixels below the top of a 180-pixel map.
        #expect(abs(lines[0].first!.y - 80) < 1e-9)
    }

    @Test("a time label too near the point of greatest eclipse is left out")
    func labels() {
        #expect(Self.map.placedLabels().isEmpty)
        let far = EclipseMap(title: "", curves: [], greatest: .init(latitudeDeg: 0, longitudeDeg: 0, text: ""),
                             timeLabels: [.init(latitudeDeg: 10, longitudeDeg: 170, text: "a"), .init(latitudeDeg: 10, longitudeDeg: 171, text: "b"),
                                          .init(latitudeDeg: 10, longitudeDeg: 100, text: "c")], width: 360, height: 180)
        #expect(far.placedLabels().map(\.text) == ["a", "c"])
    }

    @Test("the raster draws the curve's colour where the curve runs and the plain ocean elsewhere")
    func raster() {
        let image = Self.map.raster(earth: nil)
        #expect(image.width == 360 && image.height == 180)
        // On the central line at (10° N, 170° E): x = 350, y = 80.
        let on = image[350, 80]
        #expect(on.r > 200 && on.g > 150, "\(on)")
        let off = image[100, 140]
        #expect(off.r < 40 && off.b > 30, "\(off)")
    }

    @Test("the SVG is well-formed XML with escaped text and the surface map linked")
    func svg() throws {
        let svg = Self.map.svg(earthHref: "/v1/textures/earth.png")
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(svg.contains("&lt;test&gt; &amp; co") && svg.contains("href=\"/v1/textures/earth.png\""))
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 3)
    }
}
