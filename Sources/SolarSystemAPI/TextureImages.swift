import HTTPCore
import Rendering
import Synchronization

/// The PNGs of `/v1/textures/{id}.png`: each body's surface map and Saturn's ring strip with
/// alpha, encoded from the decoded textures the renderer already holds. Each image is encoded
/// once, on the worker pool, the first time it is asked for, and kept for the process's life
/// (a dedicated store, not the response cache, so other answers never evict them: 8.2 MB when
/// all 15 have been asked for, counted like every shared body in the response-memory ledger).
final class TextureImages: Sendable {
    let textures: TextureSet
    /// The ids with an image, in catalogue order, the rings last.
    let ids: [String]
    private let encoded = Mutex<[String: EncodedBody]>([:])

    static let contentType = "image/png"
    /// zlib level 6. Level 9 saved 3 % of the bytes (7.9 against 8.2 MB for all 15) but took up
    /// to 2.4 s for the smoothest maps (Neptune, Saturn, Venus), against 0.13–0.33 s here on a
    /// loaded 2-core machine, release build.
    static let level: Int32 = 6

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
