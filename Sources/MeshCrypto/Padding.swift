/// ISO/IEC 7816-4 padding: a 0x80 byte, then zero bytes up to the padded length.
public enum Padding {
    /// The bucket sizes below 4096; above that, lengths round up to a multiple of 4096.
    public static let buckets = [32, 64, 128, 256, 512, 1024, 2048, 4096]
    /// The largest padded length this implementation produces or accepts (128 KiB).
    public static let maxPaddedLength = 131_072

    /// The padded length for `count` plaintext bytes under `policy`, capped at `limit`.
    public static func paddedLength(for count: Int, policy: PaddingPolicy, limit: Int = maxPaddedLength) -> Int {
        let needed = count + 1
        guard policy == .buckets else { return needed }
        let bucket = buckets.first { $0 >= needed } ?? (needed + 4095) / 4096 * 4096
        return max(needed, min(bucket, limit))
    }

    /// Pads `plaintext`; throws `tooLarge` if even the minimal padding would exceed `limit`.
    public static func pad(_ plaintext: [UInt8], policy: PaddingPolicy, limit: Int = maxPaddedLength) throws(CryptoError) -> [UInt8] {
        let length = try checkedLength(for: plaintext.count, policy: policy, limit: limit)
        var padded = plaintext
        padded.reserveCapacity(length)
        padded.append(0x80)
        padded.append(contentsOf: repeatElement(0, count: length - padded.count))
        return padded
    }

    /// `paddedLength`, or `tooLarge` if even the minimal padding would exceed `limit`.
    static func checkedLength(for count: Int, policy: PaddingPolicy, limit: Int = maxPaddedLength) throws(CryptoError) -> Int {
        let length = paddedLength(for: count, policy: policy, limit: limit)
        guard length <= limit else { throw .tooLarge(field: "padded plaintext", size: length, limit: limit) }
        return length
    }

    /// Strips padding; throws `badPadding` unless the input ends with 0x80 followed only by zeros.
    /// Takes its input: a caller's last copy is cut short in place, not copied.
    public static func unpad(_ padded: consuming [UInt8]) throws(CryptoError) -> [UInt8] {
        guard let marker = padded.lastIndex(where: { $0 != 0 }), padded[marker] == 0x80 else {
            throw .badPadding
        }
        padded.removeSubrange(marker...)
        return padded
    }
}
