# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# `roce-vm setup`: Debian packages, Debian's own kernel unpacked into the cache, and a small initramfs.
# Idempotent: every step checks first, so a second run takes well under a second.

setup_packages() {
	dpkg-query -W -f='${Status}\n' "${VM_PACKAGES[@]}" 2>/dev/null | grep -c '^install ok installed$' \
		| grep -qx "${#VM_PACKAGES[@]}" && return
	[ "$(id -u)" -eq 0 ] || die "missing packages and not root; run: sudo apt-get install ${VM_PACKAGES[*]}"
	log "installing ${VM_PACKAGES[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${VM_PACKAGES[@]}" >/dev/null
}

# The linux-image-6.x-amd64 package that the linux-image-amd64 meta package depends on, unpacked with
# dpkg -x into the cache: nothing is installed into this machine's /boot or /lib/modules.
setup_kernel() {
	[ -n "$(kver)" ] && return
	local pkg tmp
	pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -1)
	if [ -z "$pkg" ]; then
		[ "$(id -u)" -eq 0 ] && apt-get update -qq
		pkg=$(apt-cache depends linux-image-amd64 | sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -1)
	fi
	[ -n "$pkg" ] || die "cannot resolve the kernel package behind linux-image-amd64 (apt-cache depends)"
	tmp=$(mktemp -d "$ROCE_VM_CACHE/.kern.XXXXXX")
	log "downloading $pkg"
	# apt-get download as root warns when _apt cannot write the directory; let it.
	chmod 755 "$tmp"
	(cd "$tmp" && apt-get download -q "$pkg" >/dev/null 2>&1) || { rm -rf "$tmp"; die "apt-get download $pkg failed"; }
	dpkg -x "$tmp"/linux-image-*.deb "$tmp/kern"
	local v; v=$(basename "$tmp"/kern/boot/vmlinuz-* | sed 's/^vmlinuz-//')
	depmod -b "$tmp/kern" "$v"
	rm -f "$tmp"/linux-image-*.deb
	mv "$tmp/kern" "$ROCE_VM_CACHE/kern"   # appears whole or not at all
	rmdir "$tmp"
}

# The bzImage decompresses itself (xz) inside the guest, which costs about 4 s of a TCG boot. Unpacked once
# here, the ELF vmlinux boots through its PVH entry point with nothing to decompress.
setup_vmlinux() {
	local v z out off
	v=$(kver)
	z=$ROCE_VM_CACHE/kern/boot/vmlinuz-$v
	out=$ROCE_VM_CACHE/vmlinux-$v
	[ -s "$out" ] && return
	grep -qx 'CONFIG_PVH=y' "$ROCE_VM_CACHE/kern/boot/config-$v" || { log "kernel $v has no PVH entry: booting the bzImage"; return 0; }
	off=$(LC_ALL=C grep -obUaP '\xfd\x37\x7a\x58\x5a\x00' "$z" | head -1 | cut -d: -f1)
	[ -n "$off" ] || { log "no xz payload in $z: booting the bzImage"; return 0; }
	# xz stops at the end of the first stream; tail then dies of SIGPIPE, which is expected.
	{ tail -c "+$((off + 1))" "$z" | xz -dc --single-stream > "$out.tmp"; } 2>/dev/null || true
	if [ "$(head -c 4 "$out.tmp" | od -An -tx1 | tr -d ' ')" = 7f454c46 ]; then
		mv "$out.tmp" "$out"
	else
		rm -f "$out.tmp"
		log "could not unpack vmlinux from $z: booting the bzImage"
	fi
}

# Rebuilt only when its inputs change: the init template, the cache path, the kernel version.
setup_initrd() {
	local v stamp d m
	v=$(kver)
	stamp=$( { cat "$VM_DIR/guest/init"; echo "$ROCE_VM_CACHE $v $GUEST_SHARE"; } | sha256sum | cut -d' ' -f1)
	[ -s "$ROCE_VM_CACHE/initrd.gz" ] && [ "$(cat "$ROCE_VM_CACHE/initrd.stamp" 2>/dev/null)" = "$stamp" ] && return
	d=$(mktemp -d)
	mkdir -p "$d"/{bin,mods,proc,sys,dev,newroot}
	cp /bin/busybox "$d/bin/busybox"
	# Only what mounting the host root over virtio-9p needs; everything else loads from there later.
	for m in virtio_pci 9pnet_virtio 9p; do
		modprobe -d "$ROCE_VM_CACHE/kern" -S "$v" --show-depends "$m"
	done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }' > "$d/order.full"
	while read -r m; do cp "$m" "$d/mods/"; done < "$d/order.full"
	sed 's#.*/##' "$d/order.full" > "$d/order" && rm "$d/order.full"
	sed -e "s#@SHARE@#$GUEST_SHARE#g" "$VM_DIR/guest/init" > "$d/init"
	chmod 755 "$d/init"
	(cd "$d" && find . | cpio -o -H newc --quiet | gzip -1) > "$ROCE_VM_CACHE/initrd.gz.tmp"
	mv "$ROCE_VM_CACHE/initrd.gz.tmp" "$ROCE_VM_CACHE/initrd.gz"
	echo "$stamp" > "$ROCE_VM_CACHE/initrd.stamp"
	rm -rf "$d"
}

setup() {
	local t0; t0=$(now_ms)
	setup_packages
	mkdir -p "$ROCE_VM_CACHE"
	# Two setups at once (parallel CI jobs) must not unpack into each other.
	exec 9>"$ROCE_VM_CACHE/.lock"
	flock -w 600 9 || die "another setup holds $ROCE_VM_CACHE/.lock"
	setup_kernel
	setup_vmlinux
	setup_initrd
	exec 9>&-
	log "ready: kernel $(kver), cache $ROCE_VM_CACHE ($(elapsed "$t0") s)"
}
