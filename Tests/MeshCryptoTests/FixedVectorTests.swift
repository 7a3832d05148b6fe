import MeshProtocol
import Testing
@testable import MeshCrypto

@Suite("Fixed test vectors (docs/PROTOCOL.md, section D11)")
struct FixedVectorTests {
    typealias V = FixedVectors

    static func identityA() throws -> NodeIdentity {
        try NodeIdentity(signingKey: P256SigningKey(rawRepresentation: V.scalar(0x11)),
                         agreementKey: P256KeyAgreementKey(rawRepresentation: V.scalar(0x22)))
    }

    static func identityB() throws -> NodeIdentity {
        try NodeIdentity(signingKey: P256SigningKey(rawRepresentation: V.scalar(0x33)),
                         agreementKey: P256KeyAgreementKey(rawRepresentation: V.scalar(0x44)))
    }

    @Test("Identity keys, node IDs, fingerprint and identity file")
    func identities() throws {
        let a = try Self.identityA()
        let b = try Self.identityB()
        #expect(a.signingPublicKey.x963 == V.signingPublicA && a.agreementPublicKey.x963 == V.agreementPublicA)
        #expect(b.signingPublicKey.x963 == V.signingPublicB && b.agreementPublicKey.x963 == V.agreementPublicB)
        #expect(a.nodeID.hex == V.nodeIDA && b.nodeID.hex == V.nodeIDB)
        #expect(a.shortID == String(V.nodeIDA.prefix(8)))
        #expect(a.fingerprint == V.fingerprintA)
        #expect(try IdentityFile.encode(a) == V.identityFileA)
        #expect(try IdentityFile.decode(V.identityFileA).nodeID == a.nodeID)
    }

    @Test("Key exchange messages decode, verify, and match their fields")
    func keyExchange() throws {
        let a = try Self.identityA()
        let b = try Self.identityB()
        let ephemeralA = try P256KeyAgreementKey(rawRepresentation: V.scalar(0x55))
        let ephemeralB = try P256KeyAgreementKey(rawRepresentation: V.scalar(0x66))
        #expect(ephemeralA.publicKey.x963 == V.ephemeralPublicA && ephemeralB.publicKey.x963 == V.ephemeralPublicB)
        let opening = try KeyExchangeMessage(decoding: V.keyExchangeA)
        #expect(try opening.verify() == a.nodeID)
        let answer = try KeyExchangeMessage(decoding: V.keyExchangeB)
        #expect(try answer.verify() == b.nodeID)
        #expect(try answer.answering == KeyExchangeMessage.answerDigest(for: ephemeralA.publicKey))
        let resigned = try KeyExchangeMessage.signed(
            by: a, ephemeral: ephemeralA.publicKey, answering: KeyExchangeMessage.opening, timestamp: V.timestamp)
        #expect(Array(resigned.encoded().prefix(236)) == Array(V.keyExchangeA.prefix(236)))
        #expect(try resigned.verify() == a.nodeID)
    }

    @Test("Link keys, link packet and inner box are byte-exact")
    func sealing() throws {
        let a = try Self.identityA()
        let b = try Self.identityB()
        let ephemeralA = try P256KeyAgreementKey(rawRepresentation: V.scalar(0x55))
        let ephemeralB = try P256KeyAgreementKey(rawRepresentation: V.scalar(0x66))
        #expect(try ephemeralA.sharedSecret(with: ephemeralB.publicKey) == V.linkSecret)
        let keysA = try LinkKeys.derive(
            localNodeID: a.nodeID, localEphemeral: ephemeralA, remote: KeyExchangeMessage(decoding: V.keyExchangeB))
        let keysB = try LinkKeys.derive(
            localNodeID: b.nodeID, localEphemeral: ephemeralB, remote: KeyExchangeMessage(decoding: V.keyExchangeA))
        #expect(keysA.sendKey == V.keyAToB && keysA.receiveKey == V.keyBToA)
        #expect(keysB.sendKey == V.keyBToA && keysB.receiveKey == V.keyAToB)

        var sessionA = LinkSession(keys: keysA)
        let packet = try sessionA.seal(kind: .message, messageID: V.messageID, plaintext: Array("hello mesh".utf8), nonce: V.nonce)
        #expect(packet == V.linkPacket)
        var sessionB = LinkSession(keys: keysB)
        #expect(try sessionB.open(kind: .message, packet: V.linkPacket).plaintext == Array("hello mesh".utf8))

        // B acknowledges it (D12): what B's window says, sealed under frame kind 0x08.
        let accepted = sessionB.acceptedCounters
        #expect(accepted.highest == 1 && accepted.received == 0)
        let body = LinkAcknowledgementBody(highest: accepted.highest, received: accepted.received, credit: 32)
        #expect(body.encoded() == V.acknowledgementBody)
        let acknowledgement = try sessionB.seal(
            frameKind: LinkAcknowledgementBody.frameKind, messageID: V.messageID, plaintext: body.encoded(), nonce: V.nonce)
        #expect(acknowledgement == V.acknowledgementPacket)
        #expect(try sessionA.open(frameKind: LinkAcknowledgementBody.frameKind, packet: V.acknowledgementPacket).plaintext == V.acknowledgementBody)
        #expect(!sessionA.lastOpenUsedPreviousKey)
        // The kind byte is authenticated: the same packet does not open as a message.
        var sessionA2 = LinkSession(keys: keysA)
        #expect(throws: CryptoError.self) { try sessionA2.open(kind: .message, packet: V.acknowledgementPacket) }

        // The same two packets in the opaque form (D14): nothing in clear but the nonce.
        var opaqueA = LinkSession(keys: keysA)
        var opaqueB = LinkSession(keys: keysB)
        #expect(try opaqueA.sealOpaque(kind: 0x02, plaintext: Array("hello mesh".utf8), nonce: V.nonce) == V.opaqueLinkPacket)
        let openedOpaque = try opaqueB.openOpaque(packet: V.opaqueLinkPacket)
        #expect(openedOpaque.kind == 0x02 && openedOpaque.plaintext == Array("hello mesh".utf8))
        #expect(try opaqueB.sealOpaque(kind: LinkAcknowledgementBody.frameKind, plaintext: V.acknowledgementBody, nonce: V.nonce)
            == V.opaqueAcknowledgementPacket)
        let openedAcknowledgement = try opaqueA.openOpaque(packet: V.opaqueAcknowledgementPacket)
        #expect(openedAcknowledgement.kind == LinkAcknowledgementBody.frameKind && openedAcknowledgement.plaintext == V.acknowledgementBody)

        let box = try InnerSeal.seal(
            Array("hi B".utf8), recipientAgreementKey: b.agreementPublicKey, origin: a.nodeID, destination: b.nodeID,
            messageID: V.messageID, kind: .message, padding: .buckets,
            ephemeral: P256KeyAgreementKey(rawRepresentation: V.scalar(0x77)), nonce: V.nonce)
        #expect(box == V.innerBox)
        #expect(Array(box.prefix(65)) == V.innerEphemeralPublic)
        #expect(try InnerSeal.open(
            V.innerBox, identity: b, origin: a.nodeID, destination: b.nodeID, messageID: V.messageID,
            kind: .message) == Array("hi B".utf8))
    }

    @Test("The private key exchange's hellos, proof keys, proof and link keys are byte-exact")
    func privateKeyExchange() throws {
        let a = try Self.identityA()
        let b = try Self.identityB()
        let ephemeralA = try P256KeyAgreementKey(rawRepresentation: V.scalar(0x55))
        let ephemeralB = try P256KeyAgreementKey(rawRepresentation: V.scalar(0x66))
        let helloA = try PrivateHello(ephemeralKey: ephemeralA.publicKey, answering: KeyExchangeMessage.opening)
        #expect(helloA.encoded() == V.helloA)
        #expect(try PrivateHello(decoding: V.helloB).answering == KeyExchangeMessage.answerDigest(for: ephemeralA.publicKey))
        let secret = try ephemeralA.sharedSecret(with: ephemeralB.publicKey)
        let keysA = try IdentityProof.proofKeys(secret: secret, ours: ephemeralA.publicKey, theirs: ephemeralB.publicKey)
        let keysB = try IdentityProof.proofKeys(secret: secret, ours: ephemeralB.publicKey, theirs: ephemeralA.publicKey)
        #expect(keysA.send == V.proofKeyA && keysA.receive == V.proofKeyB)
        #expect(keysB.send == V.proofKeyB && keysB.receive == V.proofKeyA)
        let proof = try IdentityProof.seal(
            identity: a, ours: ephemeralA.publicKey, theirs: ephemeralB.publicKey, key: keysA.send, nonce: V.nonce,
            signature: V.proofSignatureA)
        #expect(proof == V.proofA)
        let opened = try IdentityProof.open(V.proofA, ours: ephemeralB.publicKey, theirs: ephemeralA.publicKey, key: keysB.receive)
        #expect(opened.nodeID == a.nodeID && opened.agreementKey == a.agreementPublicKey)
        let linkA = try LinkKeys.derive(
            salt: IdentityProof.salt, secret: secret, localNodeID: a.nodeID, localEphemeral: ephemeralA.publicKey,
            remote: (b.nodeID, ephemeralB.publicKey, b.signingPublicKey, b.agreementPublicKey))
        #expect(linkA.sendKey == V.privateKeyAToB && linkA.receiveKey == V.privateKeyBToA)
        // A signature over other ephemerals does not verify inside a valid box.
        var other = V.proofSignatureA
        other[10] ^= 1
        let forged = try IdentityProof.seal(
            identity: a, ours: ephemeralA.publicKey, theirs: ephemeralB.publicKey, key: keysA.send, nonce: V.nonce, signature: other)
        #expect(throws: CryptoError.badSignature) {
            try IdentityProof.open(forged, ours: ephemeralB.publicKey, theirs: ephemeralA.publicKey, key: keysB.receive)
        }
    }

    @Test("The envelope signature vector verifies")
    func envelopeSignature() throws {
        let a = try Self.identityA()
        let envelope = Envelope(
            kind: .message, messageID: V.messageID, origin: a.nodeID, timestamp: V.timestamp,
            payload: Array("hello mesh".utf8), signature: V.envelopeSignature)
        try EnvelopeSigner.verify(envelope, signingKey: a.signingPublicKey)
    }
}
