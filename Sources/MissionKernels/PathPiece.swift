import Astrodynamics
import Ephemeris
import Missions

/// One stretch of a vehicle's path, written as one SPK segment: where it comes from (the
/// segment's name, at most 40 characters, and longer notes for the kernel's comments), its
/// time span, the centre and frame it is written in, the epochs that must be nodes (the
/// data's own samples), and the path itself.
public struct PathPiece {
    /// The SPK segment name: `JPL Horizons -32 30-min`, `Lambert arc Earth -> Jupiter`.
    public let name: String
    /// What the comment area says about it (sources, model, how well the physics explains the data).
    public let notes: [String]
    /// TDB seconds past J2000.
    public let startSeconds: Double
    public let endSeconds: Double
    /// NAIF id of the written segment's centre (10 the Sun, 399 the Earth, 301 the Moon, 499 Mars).
    public let center: Int
    /// NAIF frame code of the written segment: 1 (J2000) or a built-in IAU body-fixed frame.
    public let frame: Int
    /// Epochs where the path is known exactly (the data's samples): the kernel must reproduce
    /// the path there within the tolerance; they become nodes where the path needs them.
    public let requiredSeconds: [Double]
    /// Largest node spacing, seconds (a path with long smooth stretches still gets nodes at
    /// least this often, so the kernel never leans on a long extrapolation of the window).
    public let maxStepSeconds: Double
    /// The path: heliocentric ecliptic J2000, km and km/s.
    public let state: (Double) throws -> OrbitalState
    /// The interpolation tolerance of this piece, km, where it must be tighter (or may be
    /// looser) than the assembly's: a copy of a source kernel held to its states. Nil: the
    /// assembly's.
    public var toleranceKm: Double?
    /// A velocity tolerance too, km/s (nil: none, the position's alone): for a short piece a
    /// Hermite interpolant on few nodes can keep the position within metres and still miss
    /// the velocity by centimetres per second, which a walk over a minute reads as
    /// millimetres per second squared of thrust.
    public var velocityToleranceKmS: Double?
    /// States per Hermite window of this piece's segment (nil: the assembly's). A copy of
    /// states whose velocities are not the derivative of their positions (a rover's
    /// localizations, stored at rest) uses 2: cubic Hermite between neighbours, so the
    /// kernel runs from one state to the next and never overshoots.
    public var window: Int?
    /// Every required epoch becomes a node (a source's own states copied as they are), not
    /// only those the path needs.
    public var keepsEveryRequiredEpoch = false

    public init(name: String, notes: [String] = [], startSeconds: Double, endSeconds: Double, center: Int, frame: Int = 1,
                requiredSeconds: [Double] = [], maxStepSeconds: Double = 86_400, state: @escaping (Double) throws -> OrbitalState) {
        self.name = name
        self.notes = notes
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.center = center
        self.frame = frame
        self.requiredSeconds = requiredSeconds
        self.maxStepSeconds = maxStepSeconds
        self.state = state
    }
}

extension PathPiece {
    /// The same piece up to `seconds` (its required epochs after it dropped).
    func ending(at seconds: Double) -> PathPiece { trimmed(startSeconds, seconds) }

    /// The same piece from `seconds` on (its required epochs before it dropped).
    func starting(at seconds: Double) -> PathPiece { trimmed(seconds, endSeconds) }

    private func trimmed(_ start: Double, _ end: Double) -> PathPiece {
        var p = PathPiece(name: name, notes: notes, startSeconds: start, endSeconds: end, center: center, frame: frame,
                          requiredSeconds: requiredSeconds.filter { $0 >= start && $0 <= end }, maxStepSeconds: maxStepSeconds, state: state)
        p.toleranceKm = toleranceKm
        p.velocityToleranceKmS = velocityToleranceKmS
        p.window = window
        p.keepsEveryRequiredEpoch = keepsEveryRequiredEpoch
        return p
    }
}

extension Array where Element == PathPiece {
    /// These pieces with `start...end` replaced by `middle`: the piece holding `start` cut there,
    /// the one holding `end` resumed there. Nil when no piece holds them.
    func splicing(_ middle: [PathPiece], from start: Double, to end: Double) -> [PathPiece]? {
        guard let k0 = lastIndex(where: { $0.startSeconds <= start }), let k1 = lastIndex(where: { $0.startSeconds < end }),
              self[k1].endSeconds >= end else { return nil }
        var replaced = self[k0].startSeconds < start ? [self[k0].ending(at: start)] : []
        replaced += middle
        if self[k1].endSeconds > end { replaced.append(self[k1].starting(at: end)) }
        var result = self
        result.replaceSubrange(k0...k1, with: replaced)
        return result
    }
}

/// Turns pieces into SPK segments: the path moved into each segment's centre and frame, nodes
/// chosen by ``HermiteNodes``, type 13.
public struct KernelAssembly: Sendable {
    public let ephemeris: Ephemeris
    /// Largest position error the nodes may leave between them, km.
    public var toleranceKm = 0.005
    /// States per Hermite window (degree 2·window − 1).
    public var window = 6

    public init(ephemeris: Ephemeris) {
        self.ephemeris = ephemeris
    }

    public struct AssemblyError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The segment of one vehicle's piece.
    public func segment(_ piece: PathPiece, target: Int) throws -> (segment: SPKKernelWriter.Segment, nodes: Int) {
        guard piece.endSeconds > piece.startSeconds else {
            throw AssemblyError(description: "\(piece.name): empty span")
        }
        let frame: NAIFBody.Frame
        switch NAIFBody.frame(piece.frame) {
        case let f?: frame = f
        case nil: throw AssemblyError(description: "\(piece.name): frame \(piece.frame) is not one the server reads")
        }
        let transform: (OrbitalState) throws -> OrbitalState = { [ephemeris] s in
            let t = TimeScale.instant(tdbSecondsPastJ2000: s.seconds)
            guard let c = ephemeris.naifState(piece.center, at: t) else {
                throw AssemblyError(description: "\(piece.name): the engine does not place centre \(piece.center)")
            }
            let p = s.positionKm - c.positionKm, v = s.velocityKmS - c.velocityKmS
            switch frame {
            case .icrf:
                let m = Precession.eclipticToEquatorialJ2000
                return OrbitalState(seconds: s.seconds, positionKm: m * p, velocityKmS: m * v)
            case .eclipticJ2000:
                return OrbitalState(seconds: s.seconds, positionKm: p, velocityKmS: v)
            case let .bodyFixed(body):
                // The inverse of KernelBodies' turn: r_bf = Mᵀ·r, v_bf = Mᵀ·(v − Ṁ·r_bf).
                let h = 10.0
                let m = ephemeris.orientation(body, at: t).bodyToEcliptic
                let mt = m.transposed
                let rbf = mt * p
                let before = ephemeris.orientation(body, at: TimeScale.instant(tdbSecondsPastJ2000: s.seconds - h)).bodyToEcliptic
                let after = ephemeris.orientation(body, at: TimeScale.instant(tdbSecondsPastJ2000: s.seconds + h)).bodyToEcliptic
                let rate = (after * rbf - before * rbf) / (2 * h)
                return OrbitalState(seconds: s.seconds, positionKm: rbf, velocityKmS: mt * (v - rate))
            }
        }
        let window = piece.window ?? self.window
        let toleranceKm = piece.toleranceKm ?? self.toleranceKm
        let checkpoints = piece.requiredSeconds.filter { $0 > piece.startSeconds && $0 < piece.endSeconds }
        // The ends, and at least one node per `maxStepSeconds` (on a data sample where one is
        // near, so the kernel keeps the data's own states).
        let n = max(1, Int(((piece.endSeconds - piece.startSeconds) / piece.maxStepSeconds).rounded(.up)))
        var epochs = [piece.startSeconds]
        var c = 0
        for k in 1..<n {
            let target = piece.startSeconds + (piece.endSeconds - piece.startSeconds) * Double(k) / Double(n)
            while c + 1 < checkpoints.count, abs(checkpoints[c + 1] - target) < abs(checkpoints[c] - target) { c += 1 }
            let pick = c < checkpoints.count && abs(checkpoints[c] - target) < piece.maxStepSeconds / 4 ? checkpoints[c] : target
            if pick > epochs[epochs.count - 1] { epochs.append(pick) }
        }
        if piece.endSeconds > epochs[epochs.count - 1] { epochs.append(piece.endSeconds) }
        if piece.keepsEveryRequiredEpoch {
            var all: [Double] = []
            for t in (epochs + checkpoints).sorted() where all.last.map({ t - $0 > 1e-6 }) ?? true { all.append(t) }
            // The piece's end stays its last node (a checkpoint a microsecond before it gives way).
            if all[all.count - 1] != piece.endSeconds { all[all.count - 1] = piece.endSeconds }
            epochs = all
        }
        let nodes: [OrbitalState]
        do {
            nodes = try HermiteNodes.fit(required: epochs, checkpoints: checkpoints, window: window, toleranceKm: toleranceKm,
                                         velocityToleranceKmS: piece.velocityToleranceKmS) { t in try transform(try piece.state(t)) }
        } catch {
            throw AssemblyError(description: "\(piece.name) (\(TimeScale.instant(tdbSecondsPastJ2000: piece.startSeconds).iso8601) to \(TimeScale.instant(tdbSecondsPastJ2000: piece.endSeconds).iso8601)): \(error)")
        }
        let w = min(window, nodes.count)
        let segment = SPKKernelWriter.Segment(
            target: target, center: piece.center, frame: piece.frame, name: piece.name, kind: .hermite(windowSize: w),
            epochs: nodes.map(\.seconds), states: nodes.map { ($0.positionKm, $0.velocityKmS) })
        return (segment, nodes.count)
    }
}
