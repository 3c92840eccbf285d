import Foundation
import Testing
@testable import Ephemeris

@Suite("SPK segments' own state epochs")
struct SPKKernelSamplesTests {
    static func kernel(_ name: String) throws -> SPKKernel {
        try SPKKernel(bytes: KernelBuffer(copying: TestEngine.repositoryFile("\(SPKFixture.kernels)/\(name)")), file: name)
    }

    @Test("unequal steps (type 9): every stored epoch inside the coverage, in order")
    func unequalSteps() throws {
        let spk = try Self.kernel("m2020_surf_rover_loc_0000_0089_v1.bsp")
        let i = try #require(spk.segments.firstIndex { $0.target == -168 })
        let epochs = try #require(spk.stateEpochs(segment: i))
        // 730 states stored; NAIF's spkmerge kept one beyond the coverage (for interpolating
        // up to its end), which is left out.
        #expect(epochs.count == 729)
        #expect(epochs.first == spk.segments[i].startSeconds)
        #expect(try #require(epochs.last) < spk.segments[i].endSeconds)
        #expect(zip(epochs, epochs.dropFirst()).allSatisfy { $0 < $1 })
        // A stored state is the segment's state at its epoch.
        let s = spk.state(segment: i, secondsPastJ2000: epochs[0])
        #expect((s.positionKm - Vector3(699.128_797_902, 3_140.822_592_526, 1_073.168_256_033)).length < 1e-9)
    }

    @Test("equal steps (types 8 and 12): the grid inside the coverage")
    func equalSteps() throws {
        for name in ["synthetic-type08.bsp", "synthetic-type12.bsp"] {
            let spk = try Self.kernel(name)
            for (i, segment) in spk.segments.enumerated() {
                let epochs = try #require(spk.stateEpochs(segment: i), "\(name)")
                #expect(!epochs.isEmpty)
                #expect(epochs.allSatisfy { segment.covers($0) }, "\(name) segment \(i + 1)")
                let steps = zip(epochs, epochs.dropFirst()).map { $1 - $0 }
                if let step = steps.first { #expect(steps.allSatisfy { abs($0 - step) < 1e-6 * step }, "\(name) segment \(i + 1)") }
            }
        }
    }

    @Test("continuous types (1, 2) have no state epochs")
    func continuousTypes() throws {
        let cruise = try Self.kernel("m2020_cruise_od138_v1.bsp")
        #expect(cruise.stateEpochs(segment: 0) == nil)
        let de = try Self.kernel("de441-1969.bsp")
        #expect(de.stateEpochs(segment: 0) == nil)
        #expect(cruise.stateEpochs(segment: 99) == nil)
    }
}
