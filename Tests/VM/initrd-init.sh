#!/bin/busybox sh
# First stage inside the VM (PID 1 from the initramfs built by scripts/blelab-run): mount the host's
# root read-only over 9p, put a RAM overlay on top, and hand over to Tests/VM/guest.sh on it.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
while read -r module; do insmod "/modules/$module" 2>/dev/null; done < /modules/load-order
if ! mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000 meshroot /host; then
  echo "meshlab: cannot mount the host root"; poweroff -f
fi
mount -t tmpfs -o size=1g tmpfs /mem
mkdir -p /mem/upper /mem/work
if ! mount -t overlay -o lowerdir=/host,upperdir=/mem/upper,workdir=/mem/work overlay /root; then
  echo "meshlab: overlay mount failed"; poweroff -f
fi
for word in $(cat /proc/cmdline); do
  case "$word" in
    meshlab.guest=*) guest=${word#meshlab.guest=} ;;
    meshlab.init=*) init=${word#meshlab.init=} ;;
  esac
done
if [ "$init" = systemd ]; then
  # systemd as PID 1 boots only what meshlab.target needs: basic.target (journald, the system
  # bus socket) and the service that runs the guest script.
  units=/root/etc/systemd/system
  mkdir -p "$units"
  printf '%s\n' '[Unit]' 'Description=meshlab scenario' 'Requires=basic.target meshlab-command.service' \
    'After=basic.target meshlab-command.service' 'AllowIsolate=yes' > "$units/meshlab.target"
  printf '%s\n' '[Unit]' 'Description=meshlab scenario command' 'Requires=dbus.socket' 'After=basic.target dbus.socket' \
    '[Service]' 'Type=oneshot' "ExecStart=/bin/sh $guest" 'StandardOutput=journal+console' > "$units/meshlab-command.service"
  # The host's fstab and machine ID are not this VM's. A container marker would make systemd
  # ignore the kernel command line; tmp.conf would empty the host's /tmp and /var/tmp as seen
  # through the overlay (where a checkout under test may live).
  : > /root/etc/fstab
  rm -f /root/etc/machine-id /root/.dockerenv /root/run/.containerenv
  mkdir -p /root/etc/tmpfiles.d
  ln -sf /dev/null /root/etc/tmpfiles.d/tmp.conf
  umount /proc /sys /dev 2>/dev/null
  exec switch_root /root /lib/systemd/systemd --unit=meshlab.target
fi
umount /proc /sys /dev 2>/dev/null
exec switch_root /root /bin/sh "$guest"
