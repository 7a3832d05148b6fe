/// The facts the session keeps about the bus, bluetoothd and the adapter, reduced to the
/// ``BlueZTransportState`` an operator sees. A pure value: the session fills it on the loop thread.
struct BlueZReadiness: Equatable, Sendable {
    /// The adapter's name (`hci0`).
    var adapter: String
    /// The transport is stopping or stopped.
    var stopping = false
    /// A system bus connection is open.
    var busConnected = false
    /// The next bus connection attempt, after a failed one.
    var busRetryAt: Double?
    /// `org.bluez` has an owner.
    var bluetoothdPresent = false
    /// bluetoothd's objects were read (`GetManagedObjects` answered) since it appeared.
    var objectsLoaded = false
    /// The adapter's object exists.
    var adapterPresent = false
    /// The adapter reports `Powered`.
    var adapterPowered = false
    /// This node registers a GATT application (false for a client without a GATT server).
    var needsApplication = true
    /// The GATT application is registered.
    var applicationRegistered = false
    /// The next look for bluetoothd, the adapter, or power, when one is armed.
    var recheckAt: Double?

    /// The state these facts amount to; the earliest missing step wins.
    var state: BlueZTransportState {
        if stopping { return .stopped }
        guard busConnected else { return .connectingToBus(retryAt: busRetryAt) }
        guard bluetoothdPresent else { return .waitingForBluetoothd(retryAt: recheckAt) }
        guard objectsLoaded else { return .waitingForBluetoothd(retryAt: nil) }
        guard adapterPresent else { return .waitingForAdapter(adapter, retryAt: recheckAt) }
        guard adapterPowered else { return .adapterPoweredOff(adapter, retryAt: recheckAt) }
        guard applicationRegistered || !needsApplication else { return .registering(adapter) }
        return .running(adapter)
    }
}
