import Astrodynamics
import Ephemeris
import Missions

/// One target's segment of a NAIF kernel (the last, as SPICE ranks them, in a frame the
/// server turns): its states in its own centre and frame, and heliocentric ecliptic J2000.
struct NAIFSource {
    let kernel: SPKKernel
    let index: Int
    let segment: SPKKernel.Segment
    let frame: NAIFBody.Frame
    let ephemeris: Ephemeris

    init(kernel: SPKKernel, file: String, target: Int, ephemeris: Ephemeris) throws {
        guard let i = kernel.segments.lastIndex(where: { $0.target == target && NAIFBody.frame($0.frame) != nil }),
              let frame = NAIFBody.frame(kernel.segments[i].frame) else {
            throw RecipeError(description: "\(file) has no segment for \(target) in a frame the server turns")
        }
        self.kernel = kernel
        index = i
        segment = kernel.segments[i]
        self.frame = frame
        self.ephemeris = ephemeris
    }

    var start: Double { segment.startSeconds }
    var end: Double { segment.endSeconds }
    /// The epochs of its own states (types 9 and 13), empty for a continuous type.
    var epochs: [Double] { kernel.stateEpochs(segment: index) ?? [] }

    /// The segment's state, in its centre and frame.
    func local(_ t: Double) -> OrbitalState {
        let s = kernel.state(segment: index, secondsPastJ2000: t)
        return OrbitalState(seconds: t, positionKm: s.positionKm, velocityKmS: s.velocityKmPerSecond)
    }

    /// Heliocentric ecliptic J2000, as ``KernelBodies`` places it.
    func heliocentric(_ t: Double) -> OrbitalState {
        let s = local(t)
        let turned: OrbitalState
        switch frame {
        case .icrf:
            let m = Precession.equatorialToEclipticJ2000
            turned = OrbitalState(seconds: t, positionKm: m * s.positionKm, velocityKmS: m * s.velocityKmS)
        case .eclipticJ2000:
            turned = s
        case let .bodyFixed(body):
            turned = BodyTurn(body: body, ephemeris: ephemeris).fromBodyFixed(s)
        }
        let c = ephemeris.naifState(segment.center, at: TimeScale.instant(tdbSecondsPastJ2000: t)) ?? (.zero, .zero)
        return OrbitalState(seconds: t, positionKm: turned.positionKm + c.positionKm, velocityKmS: turned.velocityKmS + c.velocityKmS)
    }
}
