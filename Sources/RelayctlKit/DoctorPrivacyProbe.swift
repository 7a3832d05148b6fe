import Doctor
import Glibc

/// Asks the kernel whether the adapter has privacy on: Read Controller Information on the Bluetooth
/// management socket (any user may send it: the kernel lets sockets without CAP_NET_ADMIN send the
/// read-only commands). When that fails, reads `Privacy` from bluetoothd's main.conf instead.
enum DoctorPrivacyProbe {
    /// bluetoothd's configuration file.
    static let mainConf = "/etc/bluetooth/main.conf"
    /// The most of main.conf read.
    static let maxMainConfBytes = 64 << 10
    /// The longest wait for the kernel's answer.
    static let timeoutMilliseconds: Int32 = 2000

    /// The fact for `adapter` (`hciN`); `.unknown` when there is no such adapter.
    static func fact(adapter: AdapterFact, name: String) -> PrivacyFact {
        guard case .present = adapter else { return .unknown }
        guard name.hasPrefix("hci"), let index = UInt16(name.dropFirst(3)), index != 0xFFFF else {
            return configured(reason: "\(name) is not named hciN")
        }
        switch currentSettings(index: index) {
        case .success(let settings): return .kernel(on: settings & ControllerInfoReply.privacyBit != 0)
        case .failure(let why): return configured(reason: why.reason)
        }
    }

    /// Why the kernel could not be asked.
    struct Unanswered: Error {
        /// In words.
        let reason: String
    }

    /// The controller's current settings from the management socket.
    static func currentSettings(index: UInt16) -> Result<UInt32, Unanswered> {
        let fd = socket(bluetoothFamily, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), hciProtocol)
        guard fd >= 0 else { return .failure(Unanswered(reason: "management socket: " + String(cString: strerror(errno)))) }
        defer { close(fd) }
        // struct sockaddr_hci: family, device (HCI_DEV_NONE), channel (HCI_CHANNEL_CONTROL).
        var address: (UInt16, UInt16, UInt16) = (UInt16(bluetoothFamily), 0xFFFF, 3)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<(UInt16, UInt16, UInt16)>.size)) }
        }
        guard bound == 0 else { return .failure(Unanswered(reason: "management socket: " + String(cString: strerror(errno)))) }
        // Read Controller Information: opcode 0x0004, the controller's index, no parameters.
        let command: [UInt8] = [0x04, 0x00, UInt8(index & 0xFF), UInt8(index >> 8), 0, 0]
        guard command.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == command.count else {
            return .failure(Unanswered(reason: "management socket: " + String(cString: strerror(errno))))
        }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let deadline = monotonicMilliseconds() + Int64(timeoutMilliseconds)
        // At most 16 events (others may arrive first), all within the timeout.
        for _ in 0..<16 {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let left = Int32(clamping: max(0, deadline - monotonicMilliseconds()))
            guard poll(&ready, 1, left) == 1 else {
                return .failure(Unanswered(reason: "no answer from the management socket within 2 s"))
            }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return .failure(Unanswered(reason: "management socket: " + String(cString: strerror(errno)))) }
            switch ControllerInfoReply(event: Array(buffer[..<count]), index: index) {
            case .other: continue
            case .failed(let status): return .failure(Unanswered(reason: "the kernel refused Read Controller Information (status 0x\(String(status, radix: 16)))"))
            case .settings(let settings): return .success(settings)
            }
        }
        return .failure(Unanswered(reason: "no answer from the management socket"))
    }

    /// CLOCK_MONOTONIC in milliseconds.
    static func monotonicMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// main.conf's `Privacy`, with why the kernel was not asked.
    static func configured(reason: String) -> PrivacyFact {
        guard let file = fopen(mainConf, "re") else {
            let code = errno
            // No file: bluetoothd runs on its defaults, privacy off.
            if code == ENOENT { return .configured(value: nil, reason: reason) }
            return .configured(value: nil, reason: reason, readError: String(cString: strerror(code)))
        }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: maxMainConfBytes)
        let count = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        return .configured(value: PrivacyFact.mainConfPrivacy(Substring(String(decoding: bytes[..<count], as: UTF8.self))), reason: reason)
    }

    /// AF_BLUETOOTH.
    static let bluetoothFamily: Int32 = 31
    /// BTPROTO_HCI.
    static let hciProtocol: Int32 = 1
}
