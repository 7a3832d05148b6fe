import DBusKit

/// The client slot characteristics (docs/BLUEZ.md, "Client slots").
extension GATTApplication {
    /// Sets a client slot characteristic's Notifying property; returns PropertiesChanged arguments when it changed.
    public mutating func setNotifying(_ on: Bool, slot: Int) -> [DBusValue]? {
        guard slotPaths.indices.contains(slot) else { return nil }
        return app.update(path: slotPaths[slot], interface: BlueZ.characteristic, property: "Notifying", to: .boolean(on))
    }

    /// The PropertiesChanged arguments that notify `frame` on a client slot's characteristic.
    public mutating func notification(_ frame: [UInt8], slot: Int) -> [DBusValue] {
        if slotPaths.indices.contains(slot) {
            _ = app.update(path: slotPaths[slot], interface: BlueZ.characteristic, property: "Value", to: .bytes(frame))
        }
        return [.string(BlueZ.characteristic), .propertyMap(["Value": .bytes(frame)]), .stringArray([])]
    }

    /// Parses a call on a client slot characteristic.
    func slotRequest(_ slot: Int, member: String, arguments: DBusArguments) -> Result<GATTRequest, DBusError>? {
        switch member {
        case "WriteValue":
            return Result { () throws(DBusError) -> GATTRequest in
                let bytes = try arguments.at(0).bytes()
                let options = try GATTOptions(try arguments.at(1))
                guard bytes.count <= GATTRequest.maxValueLength else {
                    throw .limitExceeded("write of \(bytes.count) bytes")
                }
                return .slotWrite(slot, bytes, options)
            }
        case "StartNotify": return .success(.slotNotify(slot, true))
        case "StopNotify": return .success(.slotNotify(slot, false))
        case "ReadValue": return .success(.readMessage)
        default: return nil
        }
    }
}
