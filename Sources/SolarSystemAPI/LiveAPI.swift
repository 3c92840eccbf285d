import Synchronization

/// The v1 API as served: one ``V1API`` — its services and the answers it encoded once — at a
/// time, replaced whole when the server reloads its kernels. Each request takes the current one
/// when it arrives and keeps it for its whole answer, so no answer mixes two sets of kernels, and
/// answers in flight finish on the kernels they started with (whose bytes stay mapped until
/// their last reader lets go).
///
/// ```swift
/// let live = LiveAPI(V1API(services: services))
/// live.register(on: router)
/// live.replace(with: V1API(services: try services.reloaded(kernel: k, bodies: b, kernelIdentities: ids)))
/// ```
public final class LiveAPI: Sendable {
    /// One API and its number (1 at start-up, one more per reload).
    public final class Version: Sendable {
        public let api: V1API
        public let number: Int

        init(api: V1API, number: Int) {
            self.api = api
            self.number = number
        }
    }

    private let state: Mutex<Version>

    public init(_ api: V1API) {
        state = Mutex(Version(api: api, number: 1))
    }

    /// The API now (a reference: taking it copies nothing).
    public var current: Version { state.withLock { $0 } }

    /// Serves `api` from the next request on.
    public func replace(with api: V1API) {
        state.withLock { v in v = Version(api: api, number: v.number + 1) }
    }
}
