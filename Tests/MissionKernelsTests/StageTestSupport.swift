import Foundation
import Ephemeris
import Missions
@testable import MissionKernels

/// A recipe's build context as the kernel builder makes it: the repository's DE440 and
/// missions.json, JPL Horizons sources from the fixtures, NAIF kernels from `Resources/missions/`.
enum StageContext {
    static func make(_ missionID: String) throws -> BuildContext {
        BuildContext(ephemeris: Repository.ephemeris, mission: try Repository.missions.mission(missionID),
                     source: { try Repository.bytes(Repository.horizons + $0) },
                     kernel: { try SPKKernel(bytes: KernelBuffer(copying: Repository.bytes("Resources/missions/\($0)")), file: $0) })
    }
}
