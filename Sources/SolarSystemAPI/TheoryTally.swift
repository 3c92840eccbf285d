import Ephemeris
import HTTP

/// Body states answered, by the theory that gave them: `/metrics` serves the counts as
/// `solarsystem_ephemeris_answers_total{theory="DE440"}` once `attach` has given it the family.
public final class TheoryTally: @unchecked Sendable {
    private let lock = PthreadLock()
    private var counts: [String: Int] = [:]
    private var family: Counter?
    private var children: [String: Counter.Child] = [:]

    public init() {}

    /// Counts each entry under its theory's name (one lock per call, however many entries).
    public func record<S: Sequence>(_ entries: S) where S.Element == PositionEntry {
        var batch: [String: Int] = [:]
        for e in entries { batch[e.theory.name, default: 0] += 1 }
        guard !batch.isEmpty else { return }
        lock.locked {
            for (name, n) in batch {
                counts[name, default: 0] += n
                if let family {
                    let child = children[name] ?? family.child([name])
                    children[name] = child
                    child.increment(by: Double(n))
                }
            }
        }
    }

    /// Publishes the counts in `family` (labels: `theory`), including those made before.
    public func attach(_ family: Counter) {
        lock.locked {
            self.family = family
            for (name, n) in counts {
                let child = family.child([name])
                children[name] = child
                child.increment(by: Double(n))
            }
        }
    }

    /// The counts so far, by theory name.
    public var current: [String: Int] { lock.locked { counts } }
}
