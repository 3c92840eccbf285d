import Ephemeris
import Scene
import Testing
@testable import Rendering

@Suite("Labels and caption on raster views")
struct RasterLabelTests {
    @Test("the font table is the 6x13 fixed font: 95 glyphs of 13 rows; 'A' and 'g' as in the BDF")
    func fontTable() {
        #expect(FixedFont6x13.rows.count == 95 * 13)
        let a = Int(UInt8(ascii: "A") - FixedFont6x13.firstCharacter) * 13
        #expect(Array(FixedFont6x13.rows[a..<a + 13]) == [0x00, 0x00, 0x20, 0x50, 0x88, 0x88, 0x88, 0xF8, 0x88, 0x88, 0x88, 0x00, 0x00])
        let g = Int(UInt8(ascii: "g") - FixedFont6x13.firstCharacter) * 13
        #expect(FixedFont6x13.rows[g + 12] != 0) // the descender reaches the last row
        let space = 0
        #expect(FixedFont6x13.rows[space..<space + 13].allSatisfy { $0 == 0 })
    }

    @Test("every placed label and the caption change pixels in their boxes, and nothing else does")
    func labelsDrawn() {
        let scene = RenderTestEngine.scene(width: 640, height: 360)
        let caster = RayCaster(textures: RenderTestEngine.textures)
        let plain = caster.render(scene)
        var labelled = plain
        TextRenderer.drawLabels(of: scene, into: &labelled)
        #expect(!scene.labels.isEmpty)
        func changed(in box: (Int, Int, Int, Int)) -> Int {
            var n = 0
            for y in max(0, box.1)..<min(360, box.3) {
                for x in max(0, box.0)..<min(640, box.2) where plain[x, y] != labelled[x, y] { n += 1 }
            }
            return n
        }
        for l in scene.labels {
            let w = l.text.utf8.count * 6
            let left = Int((l.x - Double(w) / 2).rounded())
            #expect(changed(in: (left, Int(l.y) - 11, left + w + 1, Int(l.y) + 3)) > 5, "\(l.text)")
        }
        #expect(changed(in: (12, 360 - 23, 12 + scene.caption.utf8.count * 6 + 1, 360 - 9)) > 20)
        // Outside the label boxes and the caption nothing moved.
        var outside = 0
        for y in 0..<360 {
            for x in 0..<640 where plain[x, y] != labelled[x, y] {
                let inLabel = scene.labels.contains { l in
                    let w = Double(l.text.utf8.count * 6)
                    return Double(x) >= l.x - w / 2 - 2 && Double(x) <= l.x + w / 2 + 2 && Double(y) >= l.y - 12 && Double(y) <= l.y + 4
                }
                let inCaption = x >= 12 && x <= 13 + scene.caption.utf8.count * 6 && y >= 360 - 24 && y <= 360 - 8
                if !inLabel && !inCaption { outside += 1 }
            }
        }
        #expect(outside == 0)
    }

    @Test("characters outside ASCII are drawn as '?', and text off the image is clipped, not a crash")
    func clipping() {
        var image = RGBImage(width: 20, height: 10)
        TextRenderer.draw("Ω → ok", left: -30, baseline: 25, color: .white, opacity: 1, into: &image)
        TextRenderer.draw("edge", left: 15, baseline: 5, color: .white, opacity: 1, into: &image)
        #expect(image.pixels.contains { $0 > 0 })
    }
}
