import Foundation
import Testing
@testable import SolarSystemAPI

/// `JSONWriter.Stream`: a document written in pieces is, piece after piece, the bytes the
/// closure-based writer gives for it whole.
@Suite("JSONWriter: streamed documents")
struct JSONWriterStreamTests {
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test("the type's documentation example, run as written")
    func documentationExample() {
        var doc = JSONWriter.Stream()
        doc.openObject { w in w.key("count"); w.int(3) }
        doc.openArray("samples")
        #expect(Self.text(doc.chunk()) == #"{"count":3,"samples":["#)
        doc.write { w in w.int(1); w.int(2) }
        #expect(Self.text(doc.chunk()) == "1,2")
        doc.write { w in w.int(3) }
        doc.close()
        doc.close()
        #expect(Self.text(doc.chunk()) == ",3]}")
        #expect(doc.isComplete)
    }

    /// An orbits-shaped document — members, an array of objects each holding two arrays, some
    /// empty, and a member after the array — written whole by `JSONWriter` and in pieces by the
    /// stream, cut after every step: the pieces put together are the same bytes.
    @Test("nested arrays across pieces, cut after every step, give the writer's bytes")
    func nestedAcrossPieces() {
        let bodies: [(id: String, points: [Double], scene: [Double])] = [
            ("mars", [1, 2.5, 3], [4]), ("io", [], [5, 6]), ("moon", [], []), ("pluto", [7], []),
        ]
        var w = JSONWriter()
        w.object { w in
            w.key("date"); w.string("2026-01-01T00:00:00Z")
            w.key("skipped"); w.array { w in w.string("sun") }
            w.key("bodies")
            w.array { w in
                for b in bodies {
                    w.object { w in
                        w.key("id"); w.string(b.id)
                        w.key("points"); w.numbers(b.points)
                        w.key("scenePoints"); w.numbers(b.scene)
                    }
                }
            }
            w.key("note"); w.string("after the array")
        }

        var doc = JSONWriter.Stream()
        var pieces: [[UInt8]] = []
        doc.openObject { w in
            w.key("date"); w.string("2026-01-01T00:00:00Z")
            w.key("skipped"); w.array { w in w.string("sun") }
        }
        pieces.append(doc.chunk())
        doc.openArray("bodies")
        pieces.append(doc.chunk())
        for b in bodies {
            doc.openObject { w in w.key("id"); w.string(b.id) }
            pieces.append(doc.chunk())
            doc.openArray("points")
            for p in b.points {
                doc.write { w in w.number(p) }
                pieces.append(doc.chunk())
            }
            doc.close()
            doc.openArray("scenePoints")
            pieces.append(doc.chunk())
            for p in b.scene {
                doc.write { w in w.number(p) }
                pieces.append(doc.chunk())
            }
            doc.close()
            doc.close()
            pieces.append(doc.chunk())
        }
        doc.close()
        #expect(!doc.isComplete)
        doc.write { w in w.key("note"); w.string("after the array") }
        doc.close()
        #expect(doc.isComplete)
        pieces.append(doc.chunk())
        #expect(Self.text(pieces.flatMap { $0 }) == Self.text(w.bytes))
        #expect(pieces.contains { $0.first == UInt8(ascii: ",") }, "a piece starts with the comma the pieces before it called for")
    }

    @Test("encoded elements: a comma before them only when the array already holds one; empty runs add nothing")
    func encodedElements() {
        var doc = JSONWriter.Stream()
        doc.openArray()
        doc.write(elements: [])
        doc.write(elements: Array("1,2".utf8))
        doc.write(elements: [])
        doc.write { w in w.int(3) }
        doc.write(elements: Array("4".utf8))
        doc.close()
        #expect(Self.text(doc.chunk()) == "[1,2,3,4]")
        var empty = JSONWriter.Stream()
        empty.openObject { _ in }
        empty.openArray("samples")
        empty.close()
        empty.close()
        #expect(Self.text(empty.chunk()) == #"{"samples":[]}"#)
    }
}
