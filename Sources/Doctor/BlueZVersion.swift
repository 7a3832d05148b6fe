/// A BlueZ version such as 5.66.
public struct BlueZVersion: Equatable, Sendable, Comparable, CustomStringConvertible {
    /// The major number (5).
    public var major: Int
    /// The minor number (66).
    public var minor: Int

    /// The version the project tests with (docs/BLUEZ.md).
    public static let tested = BlueZVersion(major: 5, minor: 66)

    /// Creates a version.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// Reads the version from an adapter's `Modalias`, `usb:v1D6Bp0246dMMmm`: bluetoothd's default
    /// device ID (vendor 1D6B, product 0246) carries the version as hex digits, 0x0542 for 5.66.
    /// Nil for any other form (for example a `DeviceID` set in main.conf).
    public init?(modalias: String) {
        let prefix = "usb:v1D6Bp0246d"
        guard modalias.count == prefix.count + 4, modalias.uppercased().hasPrefix(prefix.uppercased()),
              let number = Int(modalias.suffix(4), radix: 16) else { return nil }
        self.init(major: number >> 8, minor: number & 0xFF)
    }

    /// Orders by major, then minor.
    public static func < (lhs: BlueZVersion, rhs: BlueZVersion) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }

    /// `5.66`.
    public var description: String { "\(major).\(minor)" }
}
