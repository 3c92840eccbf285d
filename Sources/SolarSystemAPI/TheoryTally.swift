import Ephemeris
import HTTPCore
import Synchronization

/// Body states answered, by the theory that gave them: `/metrics` serves the counts as
/// `solarsystem_ephemeris_answers_total{theory="DE440"}` once `attach` has given it the family.
public final class TheoryTally: Sendable {
    private struct State {
        var counts: [String: Int] = [:]
        var family: Counter?
        var children: [String: Counter.Child] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// Counts each entry under its theory's name (one lock per call, however many entries).
    public func record<S: Sequence>(_ entries: S) where S.Element == PositionEntry {
        var batch: [String: Int] = [:]
        for e in entries { batch[e.theory.name, default: 0] += 1 }
        guard !batch.isEmpty else { return }
        state.withLock { s in
            for (name, n) in batch {
                s.counts[name, default: 0] += n
                if let family = s.family {
                    let child = s.children[name] ?? family.child([name])
                    s.children[name] = child
                    child.increment(by: Double(n))
                }
            }
        }
    }

    /// Publishes the counts in `family` (labels: `theory`), including those made before.
    public func attach(_ family: Counter) {
        state.withLock { s in
            s.family = family
            for (name, n) in s.counts {
                let child = family.child([name])
                s.children[name] = child
                child.increment(by: Double(n))
            }
        }
    }

    /// The counts so far, by theory name.
    public var current: [String: Int] { state.withLock { $0.counts } }
}
