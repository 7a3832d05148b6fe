#!/usr/bin/env bash
# Issue 22 with real daemons over loopback UDP (docs/PROTOCOL.md Part G): a line A - B - D.
# D stops; A sends 20 direct messages to D through B, whose mailbox keeps them; B is kill -9'ed
# and restarted once in between (the mailbox reopened from SQLite); D comes back: all 20 must
# be delivered exactly once, in the order sent. Then B's database from before D came back is
# put back and B restarted, so B hands all 20 over again after D's seen cache (10 s here) has
# forgotten them: D's delivery memory must refuse every one. Prints B's bytes written per held
# message (/proc/PID/io write_bytes) and the hand-over time. With meshflood in $MESHTOOLS_BIN
# (scripts/test.sh builds it), a neighbour of B also mails 10,000 freshly minted absent IDs
# while the 20 wait (B's relay budget opened wide, so only the mailbox's caps stand in the way):
# the 20 must survive, the flood must stay within the caps, the database bounded; then B is
# kill -9'ed in the middle of a second flood and must reopen its database clean with the 20.
# Last, B starts on a garbage database: one log line, the file moved aside, an empty mailbox.
# About a minute.
# Usage: scripts/mailbox-daemons.sh [BIN_DIR]   (default: swift build --show-bin-path)
# MAILBOX_COUNT=N sends N messages instead of 20 (even; the hand-over benchmark uses 100).
# The nodes are scripts/meshlab.py's; the run is scripts/mailbox_daemons.py.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 -u scripts/mailbox_daemons.py "${1:-$(swift build --show-bin-path)}"
