import Dispatch
import Ephemeris
import Logging
import SmallBodies
import Synchronization

/// The asteroids and comets being served: the catalogue of the loaded element files and the
/// propagator over it, replaced whole when an `--elements` file changes
/// (``ElementFileWatcher``). Readers take the current pair and keep it for their whole answer.
public final class SmallBodyFeed: Sendable {
    public struct Current: Sendable {
        public let catalogue: SmallBodyCatalogue
        public let propagator: SmallBodyPropagator
        /// Counts the replacements: cached answers that used small bodies are keyed by it.
        public let generation: Int
    }

    /// The planetary kernel the paths are integrated under (replaced when the server reloads its
    /// kernels: ``replace(kernel:)``).
    private let kernelBox: Mutex<PlanetaryKernel?>
    var kernel: PlanetaryKernel? { kernelBox.withLock { $0 } }
    let store: (any ChunkStore)?
    let memoryLimitBytes: Int
    let reservedNames: Set<String>
    /// Integrate the perturbing asteroids over `span` (TDB seconds past J2000) in the background
    /// whenever a propagator is made (`serve`: the decades around the present), logging a failure.
    let warmUp: (span: ClosedRange<Double>, logger: Logger)?
    /// The element files by name, in precedence order (bundled first, then `--elements` files).
    private let files: Mutex<[(name: String, file: ElementFile)]>
    private let state: Mutex<Current>

    /// The engine's body ids, which no small body's name slug may take.
    public static let reservedNames = Set(BodyID.allCases.map(\.rawValue))

    public init(kernel: PlanetaryKernel?, files: [ElementFile] = [], store: (any ChunkStore)? = nil, memoryLimitBytes: Int = 64 << 20,
                warmUp: (span: ClosedRange<Double>, logger: Logger)? = nil) {
        kernelBox = Mutex(kernel)
        self.warmUp = warmUp
        self.store = store
        self.memoryLimitBytes = memoryLimitBytes
        reservedNames = Self.reservedNames
        self.files = Mutex(files.map { ($0.name, $0) })
        let catalogue = SmallBodyCatalogue(files: files, reservedNames: Self.reservedNames)
        state = Mutex(Current(catalogue: catalogue, propagator: SmallBodyPropagator(kernel: kernel, catalogue: catalogue, memoryLimitBytes: memoryLimitBytes, store: store),
                              generation: 0))
        warm(current.propagator)
    }

    /// The perturbers integrated off the caller's thread (see ``SmallBodyPropagator/warmPerturbers(shouldStop:)``).
    func warm(_ propagator: SmallBodyPropagator) {
        guard let (span, logger) = warmUp else { return }
        DispatchQueue.global(qos: .utility).async {
            do { try propagator.warmPerturbers(over: span) } catch {
                logger.warning("small bodies: the perturbing asteroids could not be integrated ahead; each request integrates what it needs", metadata: ["reason": "\(error)"])
            }
        }
    }

    public var current: Current { state.withLock { $0 } }

    /// Integrates under `kernel` from now on (the server reloaded its kernels): a new propagator
    /// over the same catalogue, a new generation (cached answers of the old one are not served).
    public func replace(kernel: PlanetaryKernel?) {
        kernelBox.withLock { $0 = kernel }
        install(current.catalogue, kernel: kernel)
    }

    /// Serves `file` in place of the file of the same name (or after the others when new).
    public func replace(_ file: ElementFile) {
        let all = files.withLock { list -> [ElementFile] in
            if let i = list.firstIndex(where: { $0.name == file.name }) { list[i] = (file.name, file) } else { list.append((file.name, file)) }
            return list.map(\.file)
        }
        install(SmallBodyCatalogue(files: all, reservedNames: reservedNames), kernel: kernel)
    }

    /// Serves `catalogue` integrated under `kernel` as a new generation (cached answers of the
    /// old one are not served). The previous catalogue (a million bodies take tens of
    /// milliseconds to free) is let go after the lock, so readers never wait for it.
    private func install(_ catalogue: SmallBodyCatalogue, kernel: PlanetaryKernel?) {
        let propagator = SmallBodyPropagator(kernel: kernel, catalogue: catalogue, memoryLimitBytes: memoryLimitBytes, store: store)
        let previous = state.withLock { s -> Current in
            let old = s
            s = Current(catalogue: catalogue, propagator: propagator, generation: s.generation + 1)
            return old
        }
        withExtendedLifetime(previous) {}
        warm(propagator)
    }
}
