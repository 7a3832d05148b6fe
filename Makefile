# MeshNode: build, install and uninstall meshnoded and relayctl (see docs/OPERATIONS.md).
#
#   make build                      release binaries with the Swift runtime linked in statically
#   sudo make install               install (stripped; STRIP= keeps symbols) under PREFIX (default
#                                   /usr/local), create user meshnode
#   make install DESTDIR=/tmp/stage stage an install (no user, no systemctl)
#   sudo make uninstall             remove what install put in place (keeps config, state, user)
#   make verify-unit                stage an install, then systemd-analyze verify and security on it

PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
DOCDIR     ?= $(PREFIX)/share/doc/meshnode
UNITDIR    ?= /etc/systemd/system
DBUSDIR    ?= /usr/share/dbus-1/system.d
CONFDIR    ?= /etc/meshnoded
STATEDIR   ?= /var/lib/meshnoded
DESTDIR    ?=
SWIFT      ?= swift
SCRATCH    ?= .build
SWIFTFLAGS ?= -c release --static-swift-stdlib
STRIP      ?= -s
BUILDDIR   := $(SCRATCH)/release
STAGE      := $(abspath $(SCRATCH))/stage
SERVICE_USER := meshnode

.PHONY: build install uninstall verify-unit clean

build:
	$(SWIFT) build $(SWIFTFLAGS) --scratch-path $(SCRATCH) --product meshnoded
	$(SWIFT) build $(SWIFTFLAGS) --scratch-path $(SCRATCH) --product relayctl

install:
	@test -x $(BUILDDIR)/meshnoded -a -x $(BUILDDIR)/relayctl || { echo "run 'make build' first" >&2; exit 1; }
	install -d -m 0755 $(DESTDIR)$(BINDIR) $(DESTDIR)$(UNITDIR) $(DESTDIR)$(DBUSDIR) $(DESTDIR)$(DOCDIR)
	install -d -m 0755 $(DESTDIR)$(CONFDIR)
	install -m 0755 $(STRIP) $(BUILDDIR)/meshnoded $(DESTDIR)$(BINDIR)/meshnoded
	install -m 0755 $(STRIP) $(BUILDDIR)/relayctl $(DESTDIR)$(BINDIR)/relayctl
	sed -e 's|/usr/local/bin/|$(BINDIR)/|g' -e 's|/usr/local/share/doc/meshnode/|$(DOCDIR)/|g' \
	    -e 's|/etc/meshnoded/|$(CONFDIR)/|g' systemd/meshnoded.service > $(DESTDIR)$(UNITDIR)/meshnoded.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/meshnoded.service
	install -m 0644 systemd/meshnoded-dbus.conf $(DESTDIR)$(DBUSDIR)/meshnoded.conf
	install -m 0644 systemd/meshnoded.conf.example $(DESTDIR)$(DOCDIR)/meshnoded.conf.example
	install -m 0644 docs/OPERATIONS.md docs/CONTROL.md $(DESTDIR)$(DOCDIR)/
	@if [ -e $(DESTDIR)$(CONFDIR)/meshnoded.conf ]; then \
	    echo "keeping existing $(DESTDIR)$(CONFDIR)/meshnoded.conf"; \
	else \
	    install -m 0644 systemd/meshnoded.conf.example $(DESTDIR)$(CONFDIR)/meshnoded.conf; \
	fi
	@if [ -z "$(DESTDIR)" ]; then \
	    getent group $(SERVICE_USER) >/dev/null || groupadd --system $(SERVICE_USER); \
	    getent passwd $(SERVICE_USER) >/dev/null || useradd --system --no-create-home --home-dir $(STATEDIR) \
	        --shell /usr/sbin/nologin --gid $(SERVICE_USER) --comment "MeshNode relay" $(SERVICE_USER); \
	    if [ -d /run/systemd/system ]; then systemctl daemon-reload; fi; \
	    if [ -d /run/dbus ] && command -v dbus-send >/dev/null; then \
	        dbus-send --system --type=method_call --dest=org.freedesktop.DBus / org.freedesktop.DBus.ReloadConfig || true; \
	    fi; \
	    echo "installed; start with: systemctl enable --now meshnoded"; \
	fi

uninstall:
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then systemctl disable --now meshnoded 2>/dev/null || true; fi
	rm -f $(DESTDIR)$(BINDIR)/meshnoded $(DESTDIR)$(BINDIR)/relayctl
	rm -f $(DESTDIR)$(UNITDIR)/meshnoded.service $(DESTDIR)$(DBUSDIR)/meshnoded.conf
	rm -f $(DESTDIR)$(DOCDIR)/meshnoded.conf.example $(DESTDIR)$(DOCDIR)/OPERATIONS.md $(DESTDIR)$(DOCDIR)/CONTROL.md
	-rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then systemctl daemon-reload; fi
	@echo "kept $(CONFDIR), $(STATEDIR) (the node identity) and user $(SERVICE_USER);"
	@echo "remove them by hand to forget this node: rm -r $(CONFDIR) $(STATEDIR); userdel $(SERVICE_USER)"

verify-unit:
	rm -rf $(STAGE) $(SCRATCH)/verify && mkdir -p $(SCRATCH)/verify
	$(MAKE) install DESTDIR=$(STAGE)
	sed -e 's|^ExecStart=$(BINDIR)/|ExecStart=$(STAGE)$(BINDIR)/|' $(STAGE)$(UNITDIR)/meshnoded.service \
	    > $(SCRATCH)/verify/meshnoded.service
	systemd-analyze verify $(SCRATCH)/verify/meshnoded.service
	systemd-analyze security --offline=yes $(SCRATCH)/verify/meshnoded.service | tail -n 1

clean:
	rm -rf $(STAGE) $(SCRATCH)/verify
