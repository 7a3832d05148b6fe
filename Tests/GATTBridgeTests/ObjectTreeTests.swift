import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import DBusKit
@testable import GATTBridge

/// The exported objects: ObjectManager, Properties and Introspectable answers, and valid XML.
@Suite struct ObjectTreeTests {
    let gatt: GATTApplication

    init() throws {
        gatt = try GATTApplication(configuration: BlueZConfiguration(adapter: "hci1", localName: "abcd1234").validated())
    }

    private final class XMLCheck: NSObject, XMLParserDelegate {
        var elements: [String] = []
        var names: [String] = []
        func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            elements.append(element)
            if let name = attributes["name"] { names.append(name) }
        }
    }

    private func parse(_ xml: String) -> XMLCheck? {
        let check = XMLCheck()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = check
        return parser.parse() ? check : nil
    }

    @Test func characteristicIntrospectionIsValidXML() throws {
        let xml = DBusIntrospection.xml(for: gatt.messagePath, in: gatt.app)
        #expect(xml.hasPrefix("<!DOCTYPE node PUBLIC"))
        let check = try #require(parse(xml))
        #expect(check.elements.first == "node")
        for name in ["org.bluez.GattCharacteristic1", "org.freedesktop.DBus.Properties",
                     "org.freedesktop.DBus.Introspectable", "WriteValue", "ReadValue", "StartNotify", "Flags", "UUID"] {
            #expect(check.names.contains(name), "missing \(name)")
        }
        #expect(!check.names.contains("org.freedesktop.DBus.ObjectManager"))
    }

    @Test func rootIntrospectionListsObjectManagerAndChildren() throws {
        let check = try #require(parse(DBusIntrospection.xml(for: gatt.appPath, in: gatt.app)))
        #expect(check.names.contains("org.freedesktop.DBus.ObjectManager"))
        #expect(check.names.contains("GetManagedObjects"))
        #expect(check.names.contains("service0"))
        let service = try #require(parse(DBusIntrospection.xml(for: gatt.servicePath, in: gatt.app)))
        #expect(service.names.contains("char0") && service.names.contains("char1"))
    }

    @Test func escapingKeepsXMLValid() {
        #expect(DBusIntrospection.escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&apos;")
    }

    @Test func managedObjectsListsServiceAndCharacteristics() throws {
        let objects = try gatt.app.managedObjects().pathKeyed()
        #expect(Set(objects.keys) == Set([gatt.servicePath, gatt.messagePath, gatt.profilePath] + gatt.slotPaths))
        #expect(gatt.slotPaths.count == ClientSlots.defaultCount)
        let message = try #require(try objects[gatt.messagePath]?.interfaceMap()[BlueZ.characteristic])
        #expect(try message["Flags"]?.stringArray() == ["write", "write-without-response", "notify"])
        #expect(try message["UUID"]?.string() == BlueZConfiguration.defaultMessageUUID)
        #expect(try message["Service"]?.objectPath() == gatt.servicePath)
        let service = try #require(try objects[gatt.servicePath]?.interfaceMap()[BlueZ.service])
        #expect(try service["Primary"]?.bool() == true)
    }

    @Test func propertiesInterfaceAnswers() throws {
        let get = gatt.app.answerStandard(path: gatt.profilePath, interface: DBusObjectTree.properties, member: "Get",
                                          arguments: DBusArguments([.string(BlueZ.characteristic), .string("Flags")]))
        #expect(get == .reply([.variant(.stringArray(["read"]))]))
        let all = gatt.advertisement.answerStandard(path: gatt.advertisementPath, interface: DBusObjectTree.properties,
                                                    member: "GetAll", arguments: DBusArguments([.string(BlueZ.advertisement)]))
        guard case .reply(let values)? = all else { Issue.record("no GetAll reply"); return }
        let props = try values[0].stringKeyed()
        #expect(try props["Type"]?.string() == "peripheral")
        #expect(try props["LocalName"]?.string() == "abcd1234")
        #expect(try props["ServiceUUIDs"]?.stringArray() == [BlueZConfiguration.defaultServiceUUID])
    }

    @Test(arguments: [
        ("Get", [DBusValue.string("org.nope"), .string("UUID")], "org.freedesktop.DBus.Error.UnknownInterface"),
        ("Get", [.string(BlueZ.characteristic), .string("Nope")], "org.freedesktop.DBus.Error.UnknownProperty"),
        ("Set", [.string(BlueZ.characteristic), .string("UUID"), .variant(.string("x"))],
         "org.freedesktop.DBus.Error.PropertyReadOnly"),
        ("Get", [.uint32(1)], "org.freedesktop.DBus.Error.InvalidArgs"),
        ("Frob", [], "org.freedesktop.DBus.Error.UnknownMethod"),
    ])
    func propertiesErrors(_ member: String, _ args: [DBusValue], _ errorName: String) {
        let outcome = gatt.app.answerStandard(path: gatt.messagePath, interface: DBusObjectTree.properties,
                                              member: member, arguments: DBusArguments(args))
        guard case .error(let name, _)? = outcome else { Issue.record("expected \(errorName), got \(String(describing: outcome))"); return }
        #expect(name == errorName)
    }

    @Test func updateEmitsPropertiesChangedOnlyOnChange() {
        var copy = gatt
        let changed = copy.setNotifying(true)
        #expect(changed == [.string(BlueZ.characteristic), .propertyMap(["Notifying": .boolean(true)]), .stringArray([])])
        #expect(copy.isNotifying)
        #expect(copy.setNotifying(true) == nil)
        let first = copy.notification([1, 2])
        #expect(first == copy.notification([1, 2]), "a repeated frame is still emitted")
    }

    @Test func objectsOutsideTheRootAreRefused() {
        var tree = DBusObjectTree(root: "/org/meshnode/hci0/app")
        #expect(throws: DBusError.self) { try tree.add(path: "/elsewhere", interfaces: []) }
        #expect(throws: DBusError.self) { try tree.add(path: "/org/meshnode/hci0/app/bad path", interfaces: []) }
        #expect(tree.isKnown("/org/meshnode") == true)
        #expect(tree.children(of: "/org") == ["meshnode"])
    }
}
