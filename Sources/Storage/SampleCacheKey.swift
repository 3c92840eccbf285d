/// Everything that determines a cached sample series: change any part (a new `missions.json`
/// gives a new `dataHash`, a new trajectory engine a new `engineVersion`) and the old row is
/// simply never read again.
///
/// ```swift
/// let key = SampleCacheKey(mission: "apollo11", vehicle: "csm", samples: 500,
///                          frame: "ecliptic-j2000", dataHash: catalogueHash, engineVersion: "3")
/// ```
public struct SampleCacheKey: Sendable, Hashable, CustomStringConvertible {
    public var mission: String
    public var vehicle: String
    public var samples: Int
    public var frame: String
    public var dataHash: String
    public var engineVersion: String

    public init(mission: String, vehicle: String, samples: Int, frame: String, dataHash: String, engineVersion: String) {
        self.mission = mission
        self.vehicle = vehicle
        self.samples = samples
        self.frame = frame
        self.dataHash = dataHash
        self.engineVersion = engineVersion
    }

    public var description: String {
        "\(mission)/\(vehicle)/\(samples)/\(frame)/\(dataHash)/\(engineVersion)"
    }

    /// The six key columns, in the order of `SampleCache`'s `WHERE` clauses.
    var arguments: [DatabaseValue] {
        [.text(mission), .text(vehicle), .integer(Int64(samples)), .text(frame), .text(dataHash), .text(engineVersion)]
    }
}
