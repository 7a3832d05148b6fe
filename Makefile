# MeshNode: build, install and uninstall meshnoded and relayctl (see docs/OPERATIONS.md).
#
#   make build                      release binaries with the Swift runtime linked in statically, in
#                                   their own scratch path (.build-release), never a plain
#                                   `swift build -c release`'s (.build: dynamic, RUNPATH into the toolchain)
#   sudo make install               install (stripped; STRIP= keeps symbols) under PREFIX (default
#                                   /usr/local), create user meshnode
#   make install DESTDIR=/tmp/stage stage an install (no user, no systemctl)
#   sudo make uninstall             remove what install put in place (keeps config, state, user)
#   make verify-unit                stage an install, then systemd-analyze verify and security on it
#   make deb                        make build, then build meshnoded_VERSION_ARCH.deb from its
#                                   binaries (VERSION= overrides ProductVersion.swift's) in .build/deb,
#                                   refuse a binary with a RUNPATH other than $ORIGIN, then run
#                                   lintian on it (packaging/deb/, docs/OPERATIONS.md)
#   make deb ARCH=arm64             as root: arm64 binaries cross-built with Debian 13's Swift and
#                                   meshnoded_VERSION_arm64.deb in .build/deb-arm64 (scripts/build-arm64.sh)

PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
DOCDIR     ?= $(PREFIX)/share/doc/meshnode
MANDIR     ?= $(PREFIX)/share/man
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
LIBEXECDIR ?= $(PREFIX)/libexec/meshnoded
UNITDIR    ?= /etc/systemd/system
SYSUSERSDIR ?= /etc/sysusers.d
DBUSDIR    ?= /usr/share/dbus-1/system.d
CONFDIR    ?= /etc/meshnoded
STATEDIR   ?= /var/lib/meshnoded
DESTDIR    ?=
SWIFT      ?= swift
# Not .build: a plain `swift build -c release` leaves dynamically linked binaries in .build/release
# with a RUNPATH into the toolchain; make install and make deb must never pick those up.
SCRATCH    ?= .build-release
# lld with packed relative relocations (DT_RELR, glibc >= 2.36): the 30,000 relocations of the
# position-independent binary take 6 KB instead of 735 KB that the loader read at every start.
# --no-export-dynamic undoes the -export-dynamic of the toolchain's static-stdlib-args.lnk:
# nothing looks our symbols up at run time, and their 430 KB symbol table was all resident.
# Together about 1.5 MiB less resident memory (docs/PERFORMANCE.md, "Footprint").
# -z now: every symbol bound at start, so the GOT is read-only after start (full RELRO).
SWIFTFLAGS ?= -c release --static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs \
              -Xlinker --no-export-dynamic -Xlinker -z -Xlinker now
STRIP      ?= -s
BUILDDIR   := $(SCRATCH)/release
STAGE      := $(abspath $(SCRATCH))/stage
SERVICE_USER := meshnode
# The package version: ProductVersion.swift's unless given (make deb VERSION=0.1.0+test1).
VERSION    ?= $(shell sed -n 's/.*current = "\(.*\)".*/\1/p' Sources/ControlProtocol/ProductVersion.swift)
DEBDIR     ?= .build/deb

.PHONY: build install uninstall verify-unit deb print-version clean

build:
	$(SWIFT) build $(SWIFTFLAGS) --scratch-path $(SCRATCH) --product meshnoded
	$(SWIFT) build $(SWIFTFLAGS) --scratch-path $(SCRATCH) --product relayctl

install:
	@test -x $(BUILDDIR)/meshnoded -a -x $(BUILDDIR)/relayctl || { echo "run 'make build' first" >&2; exit 1; }
	install -d -m 0755 $(DESTDIR)$(BINDIR) $(DESTDIR)$(UNITDIR) $(DESTDIR)$(DBUSDIR) $(DESTDIR)$(DOCDIR)
	install -d -m 0755 $(DESTDIR)$(CONFDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8
	install -d -m 0755 $(DESTDIR)$(COMPLETIONDIR) $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(SYSUSERSDIR)
	install -m 0755 $(STRIP) $(BUILDDIR)/meshnoded $(DESTDIR)$(BINDIR)/meshnoded
	install -m 0755 $(STRIP) $(BUILDDIR)/relayctl $(DESTDIR)$(BINDIR)/relayctl
	sed -e 's|/usr/local/bin/|$(BINDIR)/|g' -e 's|/usr/local/share/doc/meshnode/|$(DOCDIR)/|g' \
	    -e 's|/etc/meshnoded/|$(CONFDIR)/|g' systemd/meshnoded.service > $(DESTDIR)$(UNITDIR)/meshnoded.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/meshnoded.service
	sed -e 's|/usr/local/libexec/meshnoded/|$(LIBEXECDIR)/|g' systemd/meshnoded-metrics.service \
	    > $(DESTDIR)$(UNITDIR)/meshnoded-metrics.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/meshnoded-metrics.service
	install -m 0644 systemd/meshnoded-metrics.timer $(DESTDIR)$(UNITDIR)/meshnoded-metrics.timer
	install -m 0755 systemd/meshnoded-metrics $(DESTDIR)$(LIBEXECDIR)/meshnoded-metrics
	install -m 0644 systemd/meshnoded.sysusers $(DESTDIR)$(SYSUSERSDIR)/meshnoded.conf
	install -m 0644 man/relayctl.1 $(DESTDIR)$(MANDIR)/man1/relayctl.1
	install -m 0644 man/meshnoded.conf.5 $(DESTDIR)$(MANDIR)/man5/meshnoded.conf.5
	install -m 0644 man/meshnoded.8 $(DESTDIR)$(MANDIR)/man8/meshnoded.8
	install -m 0644 completion/relayctl.bash $(DESTDIR)$(COMPLETIONDIR)/relayctl
	install -m 0644 systemd/meshnoded-dbus.conf $(DESTDIR)$(DBUSDIR)/meshnoded.conf
	install -m 0644 systemd/meshnoded.conf.example $(DESTDIR)$(DOCDIR)/meshnoded.conf.example
	install -d -m 0755 $(DESTDIR)$(DOCDIR)/examples
	install -m 0644 systemd/mqtt-gateway.conf systemd/lan.conf $(DESTDIR)$(DOCDIR)/examples/
	install -m 0644 docs/OPERATIONS.md docs/CONTROL.md $(DESTDIR)$(DOCDIR)/
	@if [ -e $(DESTDIR)$(CONFDIR)/meshnoded.conf ]; then \
	    echo "keeping existing $(DESTDIR)$(CONFDIR)/meshnoded.conf"; \
	else \
	    install -m 0644 systemd/meshnoded.conf.example $(DESTDIR)$(CONFDIR)/meshnoded.conf; \
	fi
	@if [ -z "$(DESTDIR)" ]; then \
	    if command -v systemd-sysusers >/dev/null; then systemd-sysusers $(SYSUSERSDIR)/meshnoded.conf; else \
	    getent group $(SERVICE_USER) >/dev/null || groupadd --system $(SERVICE_USER); \
	    getent passwd $(SERVICE_USER) >/dev/null || useradd --system --no-create-home --home-dir $(STATEDIR) \
	        --shell /usr/sbin/nologin --gid $(SERVICE_USER) --comment "MeshNode relay" $(SERVICE_USER); fi; \
	    if [ -d /run/systemd/system ]; then systemctl daemon-reload; fi; \
	    if [ -d /run/dbus ] && command -v dbus-send >/dev/null; then \
	        dbus-send --system --type=method_call --dest=org.freedesktop.DBus / org.freedesktop.DBus.ReloadConfig || true; \
	    fi; \
	    echo "installed; start with: systemctl enable --now meshnoded"; \
	fi

uninstall:
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then systemctl disable --now meshnoded 2>/dev/null || true; fi
	rm -f $(DESTDIR)$(BINDIR)/meshnoded $(DESTDIR)$(BINDIR)/relayctl
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then systemctl disable --now meshnoded-metrics.timer 2>/dev/null || true; fi
	rm -f $(DESTDIR)$(UNITDIR)/meshnoded.service $(DESTDIR)$(DBUSDIR)/meshnoded.conf
	rm -f $(DESTDIR)$(UNITDIR)/meshnoded-metrics.service $(DESTDIR)$(UNITDIR)/meshnoded-metrics.timer
	rm -f $(DESTDIR)$(LIBEXECDIR)/meshnoded-metrics $(DESTDIR)$(SYSUSERSDIR)/meshnoded.conf
	rm -f $(DESTDIR)$(MANDIR)/man1/relayctl.1 $(DESTDIR)$(MANDIR)/man5/meshnoded.conf.5 $(DESTDIR)$(MANDIR)/man8/meshnoded.8
	rm -f $(DESTDIR)$(COMPLETIONDIR)/relayctl
	-rmdir $(DESTDIR)$(LIBEXECDIR) 2>/dev/null
	rm -f $(DESTDIR)$(DOCDIR)/meshnoded.conf.example $(DESTDIR)$(DOCDIR)/OPERATIONS.md $(DESTDIR)$(DOCDIR)/CONTROL.md
	rm -f $(DESTDIR)$(DOCDIR)/examples/mqtt-gateway.conf $(DESTDIR)$(DOCDIR)/examples/lan.conf
	-rmdir $(DESTDIR)$(DOCDIR)/examples 2>/dev/null
	-rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then systemctl daemon-reload; fi
	@echo "kept $(CONFDIR), $(STATEDIR) (the node identity) and user $(SERVICE_USER);"
	@echo "remove them by hand to forget this node: rm -r $(CONFDIR) $(STATEDIR); userdel $(SERVICE_USER)"

verify-unit:
	rm -rf $(STAGE) $(SCRATCH)/verify && mkdir -p $(SCRATCH)/verify
	$(MAKE) install DESTDIR=$(STAGE)
	sed -e 's|^ExecStart=$(BINDIR)/|ExecStart=$(STAGE)$(BINDIR)/|' $(STAGE)$(UNITDIR)/meshnoded.service \
	    > $(SCRATCH)/verify/meshnoded.service
	sed -e 's|^ExecStart=$(LIBEXECDIR)/|ExecStart=$(STAGE)$(LIBEXECDIR)/|' $(STAGE)$(UNITDIR)/meshnoded-metrics.service \
	    > $(SCRATCH)/verify/meshnoded-metrics.service
	cp $(STAGE)$(UNITDIR)/meshnoded-metrics.timer $(SCRATCH)/verify/
	MANPATH=$(STAGE)$(MANDIR): systemd-analyze verify $(SCRATCH)/verify/meshnoded.service $(SCRATCH)/verify/meshnoded-metrics.service \
	    $(SCRATCH)/verify/meshnoded-metrics.timer
	systemd-analyze security --offline=yes $(SCRATCH)/verify/meshnoded.service | tail -n 1

ifeq ($(ARCH),arm64)
# Cross-built in a Debian 13 root with Debian's Swift (scripts/build-arm64.sh; needs root).
deb:
	scripts/build-arm64.sh --out $(if $(filter .build/deb,$(DEBDIR)),.build/deb-arm64,$(DEBDIR))
else
deb: build
	packaging/deb/build-deb.sh "$(VERSION)" "$(SCRATCH)" "$(DEBDIR)"
endif

print-version:
	@echo $(VERSION)

clean:
	rm -rf $(STAGE) $(SCRATCH)/verify $(DEBDIR)
