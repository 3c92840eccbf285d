import Synchronization
import Testing
import Ephemeris
@testable import SmallBodies

/// What the propagator promises besides accuracy: answers that do not depend on what was asked
/// first, chunks kept and read back exactly, a stop hook that stops, spans it refuses to leave.
@Suite("Small-body propagator")
struct SmallBodyPropagatorTests {
    final class MemoryStore: ChunkStore, Sendable {
        let chunks = Mutex<[String: [Double]]>([:])
        let loads = Atomic<Int>(0), hits = Atomic<Int>(0)
        func load(key: String, chunk: Int) -> [Double]? {
            loads.add(1, ordering: .relaxed)
            let found = chunks.withLock { $0["\(key)#\(chunk)"] }
            if found != nil { hits.add(1, ordering: .relaxed) }
            return found
        }
        func save(key: String, chunk: Int, packed: [Double]) { chunks.withLock { $0["\(key)#\(chunk)"] = packed } }
    }

    static let apophis = Fixtures.body("apophis")
    static let epoch = Fixtures.seconds(jdTDB: apophis.elements.epochJDTDB)
    static let year = 365.25 * 86_400.0

    @Test("the same instant gives the same state whether the path was first asked beyond it or not")
    func orderIndependent() throws {
        let t = Self.epoch + 1.5 * Self.year
        let near = try SmallBodyPropagator(kernel: Fixtures.kernel, catalogue: Fixtures.catalogue).heliocentricState(Self.apophis, atSeconds: t)
        let p = SmallBodyPropagator(kernel: Fixtures.kernel, catalogue: Fixtures.catalogue)
        _ = try p.heliocentricState(Self.apophis, atSeconds: t + 3 * Self.year)
        let far = try p.heliocentricState(Self.apophis, atSeconds: t)
        #expect(near.positionKm == far.positionKm && near.velocityKmS == far.velocityKmS)
    }

    @Test("chunks saved to a store are read back by another propagator, exactly, without integrating")
    func store() throws {
        let store = MemoryStore()
        let t = Self.epoch - 1.2 * Self.year
        let first = try SmallBodyPropagator(kernel: Fixtures.kernel, catalogue: Fixtures.catalogue, store: store).heliocentricState(Self.apophis, atSeconds: t)
        let saved = store.chunks.withLock { $0.count }
        #expect(saved > 2) // the body's and the perturbers' chunks
        let second = try SmallBodyPropagator(kernel: Fixtures.kernel, catalogue: Fixtures.catalogue, store: store).heliocentricState(Self.apophis, atSeconds: t)
        #expect(first.positionKm == second.positionKm)
        // The body's two chunks (epoch back a year, then one more) came from the store, so the
        // perturbers were not needed: nothing was integrated or saved the second time.
        #expect(store.hits.load(ordering: .relaxed) == 2)
        #expect(store.chunks.withLock { $0.count } == saved)
    }

    @Test("shouldStop ends a long integration with .stopped")
    func stops() {
        let calls = Atomic<Int>(0)
        let p = SmallBodyPropagator(kernel: Fixtures.kernel, catalogue: Fixtures.catalogue)
        #expect(throws: SmallBodyError.stopped) {
            _ = try p.heliocentricState(Self.apophis, atSeconds: Self.epoch + 50 * Self.year) { calls.add(1, ordering: .relaxed).newValue > 100 }
        }
        #expect(calls.load(ordering: .relaxed) == 101)
    }

    @Test("beyond the trusted span: refused, naming the span; two-body Kepler answers any date")
    func trustedSpan() throws {
        let halley = Fixtures.body("halley")
        let span = try #require(Fixtures.propagator.trustedSpan(halley))
        #expect(span.upperBound == Fixtures.kernel.spanSeconds.upperBound)
        let t = span.upperBound + 86_400
        #expect(throws: SmallBodyError.outsideTrustedSpan(seconds: t, trusted: span)) {
            _ = try Fixtures.propagator.heliocentricState(halley, atSeconds: t)
        }
        let kepler = try Fixtures.propagator.heliocentricState(halley, atSeconds: t, model: .kepler)
        #expect(kepler.positionKm.length > 0)
    }

    @Test("two-body elements round trip: the state at the epoch carries the elements' perihelion and energy")
    func elementsState() {
        for id in ["ceres", "apophis", "sb:67p", "hale-bopp", "neowise", "halley"] {
            let e = Fixtures.body(id).elements
            let s = e.heliocentricState()
            let mu = OrbitalElements.sunGM
            let h = s.positionKm.cross(s.velocityKmS)
            let ecc = (s.velocityKmS.cross(h) / mu - s.positionKm / s.positionKm.length).length
            let q = h.lengthSquared / mu / (1 + ecc) / Constants.auKm
            #expect(abs(ecc - e.eccentricity) < 1e-12, "\(id)")
            #expect(abs(q / e.perihelionAU - 1) < 1e-12, "\(id)")
        }
    }
}
