/// The bytes of an ephemeris kernel, kept alive by whoever made them: a read-only memory
/// mapping the executable owns, or a copy in memory. The engine only reads through `bytes`,
/// so it stays free of I/O.
public protocol KernelBytes: AnyObject, Sendable {
    /// The whole file, valid and unchanged for as long as the object lives.
    var bytes: UnsafeRawBufferPointer { get }
}

/// Kernel bytes copied into memory (tests, the fuzzer, kernels built on the fly).
///
/// ```swift
/// let kernel = try SPKKernel(bytes: KernelBuffer(copying: fileBytes), file: "de440.bsp")
/// ```
public final class KernelBuffer: KernelBytes, @unchecked Sendable {
    private let storage: UnsafeMutableRawBufferPointer
    public let bytes: UnsafeRawBufferPointer

    public init<C: Collection>(copying source: C) where C.Element == UInt8 {
        let count = source.count
        storage = .allocate(byteCount: max(count, 1), alignment: 16)
        storage.copyBytes(from: source)
        bytes = UnsafeRawBufferPointer(rebasing: storage[0..<count])
    }

    deinit { storage.deallocate() }
}
