#!/bin/busybox sh
# /init of scripts/test-gpio-kernel's virtual machine: Debian's kernel with its own modules and
# gpio-sim built for it, the host's files read-only over 9p, and the check run among them with
# the machine's own /proc, /sys, /dev and /tmp. Its outcome goes to the shared folder; then the
# machine powers off.
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for module in $(cat /modules/order); do insmod "$module" || echo "insmod $module failed"; done
insmod /modules/gpio-sim.ko || echo "gpio-sim did not load"
for word in $(cat /proc/cmdline); do
    case $word in
        flapd.repo=*) repo=${word#flapd.repo=} ;;
        flapd.out=*) out=${word#flapd.out=} ;;
        flapd.api=*) api=${word#flapd.api=} ;;
    esac
done
ip link set lo up
root=/newroot
mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose host "$root"
mount -t proc proc "$root/proc"
mount -t sysfs sys "$root/sys"
mount -t devtmpfs dev "$root/dev"
mount -t tmpfs tmp "$root/tmp"
mount -t configfs configfs "$root/sys/kernel/config"
mount -t tracefs tracefs "$root/sys/kernel/tracing"
# The repository on its own share, over the machine's /tmp too when it lives under /tmp (as a
# clone in a temporary folder does): its folder is made in the tmpfs first.
mkdir -p "$root$repo" 2>/dev/null
mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose repo "$root$repo"
mount -t 9p -o trans=virtio,version=9p2000.L out "$root$out"
echo "the check starts (libgpiod $api)"
chroot "$root" /usr/bin/python3 "$repo/Tests/Peers/gpio_kernel_check.py" "$repo" "$out" "$api" > "$root$out/console-$api.log" 2>&1
echo "the check ended: $?"
sync
poweroff -f
