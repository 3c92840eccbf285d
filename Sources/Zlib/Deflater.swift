import CZlib

/// The framing around a deflate stream.
public enum DeflateFormat: Sendable {
    /// RFC 1950: what PNG's IDAT carries.
    case zlib
    /// RFC 1952 (zlib's windowBits + 16): `Content-Encoding: gzip`, `.gz` files.
    case gzip
}

/// How much memory a deflate stream keeps while it lives: zlib's history window and hash table
/// (zlib.h's `deflateInit2`: `windowBits` 8…15, `memoryLevel` 1…9).
public struct DeflateMemory: Sendable, Equatable {
    public var windowBits: Int32
    public var memoryLevel: Int32

    public init(windowBits: Int32, memoryLevel: Int32) {
        self.windowBits = min(15, max(9, windowBits))
        self.memoryLevel = min(9, max(1, memoryLevel))
    }

    /// zlib's defaults: a 32 KiB window, memLevel 8 (about 262 KiB kept per stream).
    public static let standard = DeflateMemory(windowBits: 15, memoryLevel: 8)
    /// An 8 KiB window, memLevel 6 (about 71 KiB), for the many streams a server keeps open
    /// while clients read slowly. On this server's numeric JSON and CSV at level 1 it gives the
    /// same ratio as `.standard` (0.41–0.47, within 0.5 %) for about 20 % more CPU: such text
    /// has little to gain from matches more than 8 KiB back.
    public static let compact = DeflateMemory(windowBits: 13, memoryLevel: 6)

    /// The bytes zlib allocates for a stream: zconf.h's "(1 << (windowBits+2)) + (1 <<
    /// (memLevel+9))" plus its state structure (under 6 KiB).
    public var streamBytes: Int { (1 << Int(windowBits + 2)) + (1 << Int(memoryLevel + 9)) + 6 * 1024 }
}

/// A streaming deflater over zlib: the project's one wrapper of `deflate` (HTTP's gzip and the
/// PNG encoder both use it). The `z_stream` lives on the heap because zlib keeps a pointer back
/// to it. Not thread-safe: one owner at a time.
///
/// ```swift
/// let d = Deflater(format: .gzip, level: 6)
/// var out = d.compress(firstChunk)
/// out += d.compress(lastChunk, finish: true)     // adds the gzip trailer; the stream ends
/// let once = Deflater.compress(bytes, format: .gzip)
/// ```
public final class Deflater: @unchecked Sendable {
    private let stream: UnsafeMutablePointer<z_stream>
    private var ended = false
    private var scratch: [UInt8]

    /// The memory this deflater keeps until it finishes (zlib's state and the output scratch):
    /// what a server charges to its memory budget while a stream is open.
    public let retainedBytes: Int

    /// `level` 0 (store) … 9 (smallest); 6 is zlib's default.
    public init(format: DeflateFormat, level: Int32 = 6, memory: DeflateMemory = .standard, scratchSize: Int = 32 * 1024) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        scratch = [UInt8](repeating: 0, count: max(1024, scratchSize))
        retainedBytes = memory.streamBytes + scratch.count
        let windowBits = format == .gzip ? memory.windowBits + 16 : memory.windowBits
        let rc = czlib_deflateInit2(stream, level, windowBits, memory.memoryLevel)
        // Only Z_MEM_ERROR (out of memory) or a bad level can fail here; both are programming or
        // resource errors the process cannot recover from in this call.
        precondition(rc == Z_OK, "deflateInit2 failed (\(rc))")
    }

    deinit {
        if !ended { deflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Whether `finish` has been called.
    public var isFinished: Bool { ended }

    /// Compresses `input`, appending what zlib produces to `output`; with `finish` the trailer is
    /// written and the stream ends.
    public func compress(_ input: UnsafeRawBufferPointer, finish: Bool = false, into output: inout [UInt8]) {
        precondition(!ended, "deflater already finished")
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
        stream.pointee.avail_in = UInt32(input.count)
        let flush = finish ? Z_FINISH : Z_NO_FLUSH
        while true {
            let (rc, produced): (Int32, Int) = scratch.withUnsafeMutableBufferPointer { o in
                stream.pointee.next_out = o.baseAddress
                stream.pointee.avail_out = UInt32(o.count)
                let rc = deflate(stream, flush)
                return (rc, o.count - Int(stream.pointee.avail_out))
            }
            if produced > 0 { output.append(contentsOf: scratch[0..<produced]) }
            if finish {
                if rc == Z_STREAM_END { break }
            } else if stream.pointee.avail_in == 0, stream.pointee.avail_out > 0 {
                // All input consumed and room left in the output: nothing more until more input.
                break
            }
            // Z_STREAM_ERROR means the stream state is broken, which only a bug here can cause.
            precondition(rc == Z_OK || rc == Z_BUF_ERROR, "deflate failed (\(rc))")
        }
        stream.pointee.next_in = nil
        if finish {
            deflateEnd(stream)
            ended = true
        }
    }

    /// Compresses `input` and returns what zlib produced for it.
    public func compress(_ input: [UInt8], finish: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        input.withUnsafeBytes { compress($0, finish: finish, into: &out) }
        return out
    }

    /// One-shot compression of a whole buffer.
    public static func compress(_ bytes: [UInt8], format: DeflateFormat, level: Int32 = 6) -> [UInt8] {
        let d = Deflater(format: format, level: level, scratchSize: 64 * 1024)
        var out: [UInt8] = []
        bytes.withUnsafeBytes { raw in
            out.reserveCapacity(raw.count / 3 + 64)
            d.compress(raw, finish: true, into: &out)
        }
        return out
    }
}
