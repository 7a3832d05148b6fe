#!/bin/sh
# bluetoothd with Privacy = device, for scripts/blelab-run --bluetoothd (BlueZ 5.66 reads Privacy
# only from its main configuration file, which -f names).
printf '[General]\nPrivacy = device\n' > /run/meshlab/privacy.conf
exec /usr/libexec/bluetooth/bluetoothd -f /run/meshlab/privacy.conf "$@"
