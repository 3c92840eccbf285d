import Testing
@testable import Ephemeris

/// The one NAIF id table (``NAIFBody``): every other id the engine uses is derived from it.
@Suite("NAIF ids")
struct NAIFBodyTests {
    @Test("a DE kernel serves the Sun, the Earth and the Moon by their own ids, the planets and Pluto by their system barycentres, nothing else")
    func planetaryKernelIDs() {
        let expected: [BodyID: Int] = [.sun: 10, .mercury: 1, .venus: 2, .earth: 399, .moon: 301, .mars: 4, .jupiter: 5, .saturn: 6,
                                       .uranus: 7, .neptune: 8, .pluto: 9]
        for body in BodyID.allCases {
            #expect(NAIFBody.planetaryKernelID(body) == expected[body], "\(body)")
        }
        #expect(PlanetaryKernel.bodies.count == expected.count)
    }

    @Test("ids and names round-trip: every engine body's id is known as that body; names as SPK errors print them")
    func roundTrip() {
        for body in BodyID.allCases {
            let id = NAIFBody.id(body)
            switch NAIFBody.known(id) {
            case .body(let b)?, .planetCenter(let b)?: #expect(b == body, "\(body) → \(id)")
            default: Issue.record("\(body) → \(id) is not known")
            }
            if let k = NAIFBody.planetaryKernelID(body) {
                #expect(NAIFBody.known(k) == .body(body), "\(body) → kernel id \(k)")
            }
        }
        #expect(NAIFBody.name(0) == "solar-system barycentre")
        #expect(NAIFBody.name(4) == "Mars barycentre")
        #expect(NAIFBody.name(10) == "Sun" && NAIFBody.name(301) == "Moon" && NAIFBody.name(399) == "Earth")
        #expect(NAIFBody.name(599) == "Jupiter" && NAIFBody.name(-32) == "NAIF -32")
    }
}
