"""UDP relays that stand in for mesh links, so a soak can cut a link and restore it at run time.
For a link i-j, node i connects (as central) to the relay's front port, and the relay forwards
to node j's port from its own back socket; a cut link drops every datagram both ways, so both
nodes see the link go silent and time out, as when a radio link fades. Loopback only."""
import selectors
import socket
import threading


class LinkProxy:
    def __init__(self, front_port, back_port):
        self.front = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.front.bind(("127.0.0.1", front_port))
        self.back = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.back.bind(("127.0.0.1", 0))
        self.target = ("127.0.0.1", back_port)
        self.client = None  # the address that last wrote to the front
        self.cut = False
        self.forwarded = self.dropped = 0
        for s in (self.front, self.back):
            s.setblocking(False)


class LinkProxies(threading.Thread):
    """Runs every LinkProxy on one thread until stop()."""

    def __init__(self):
        super().__init__(daemon=True)
        self.selector = selectors.DefaultSelector()
        self.proxies = []
        self.running = True

    def add(self, front_port, back_port):
        proxy = LinkProxy(front_port, back_port)
        self.selector.register(proxy.front, selectors.EVENT_READ, (proxy, True))
        self.selector.register(proxy.back, selectors.EVENT_READ, (proxy, False))
        self.proxies.append(proxy)
        return proxy

    def run(self):
        while self.running:
            for key, _ in self.selector.select(0.2):
                proxy, from_front = key.data
                for _ in range(256):
                    try:
                        data, addr = key.fileobj.recvfrom(2048)
                    except (BlockingIOError, InterruptedError):
                        break
                    except OSError:
                        break
                    if proxy.cut:
                        proxy.dropped += 1
                        continue
                    try:
                        if from_front:
                            proxy.client = addr
                            proxy.back.sendto(data, proxy.target)
                        elif proxy.client:
                            proxy.front.sendto(data, proxy.client)
                        proxy.forwarded += 1
                    except OSError:
                        proxy.dropped += 1

    def stop(self):
        self.running = False
        self.join(2)
        for proxy in self.proxies:
            proxy.front.close()
            proxy.back.close()
