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
  case "$word" in meshlab.guest=*) guest=${word#meshlab.guest=} ;; esac
done
umount /proc /sys /dev 2>/dev/null
exec switch_root /root /bin/sh "$guest"
