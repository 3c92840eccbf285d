import HTTP
import Rendering
import Synchronization

/// The PNGs of `/v1/textures/{id}.png`: each body's surface map and Saturn's ring strip with
/// alpha, encoded from the decoded textures the renderer already holds. Each image is encoded
/// once, on the worker pool, the first time it is asked for, and kept for the process's life
/// (a dedicated store, not the response cache, so other answers never evict them: about 11 MB
/// when all 15 have been asked for, counted like every shared body in the response-memory
/// ledger).
final class TextureImages: Sendable {
    let textures: TextureSet
    /// The ids with an image, in catalogue order, the rings last.
    let ids: [String]
    private let encoded = Mutex<[String: EncodedBody]>([:])

    static let contentType = "image/png"
    /// zlib level 9: an image is encoded once and sent many times (a 1024 × 512 map takes
    /// tens of milliseconds at this level).
    static let level: Int32 = 9

    init(textures: TextureSet) {
        self.textures = textures
        ids = textures.imageIDs
    }

    /// The image if it was encoded before.
    func cached(_ id: String) -> EncodedBody? { encoded.withLock { $0[id] } }

    /// Encodes `id`'s image (off the event loop) and keeps it; a concurrent first request may
    /// encode it too, and the first one stored is the one kept.
    func encode(_ id: String) -> EncodedBody? {
        guard let png = textures.png(for: id, level: Self.level) else { return nil }
        let body = EncodedBody(bytes: png, contentType: Self.contentType)
        return encoded.withLock { store in
            if let earlier = store[id] { return earlier }
            store[id] = body
            return body
        }
    }
}
