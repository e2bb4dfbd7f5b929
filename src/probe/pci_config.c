// SPDX-License-Identifier: GPL-2.0-only
/* Config-space reads and the ACS extended capability walk (PCIe base spec 7.6.3 and 7.7.8). */
#include "probe/pci_config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int pci_config_read(const struct rootfs *root, const char *dir, unsigned char *buf, size_t size)
{
	DIR *d = rootfs_opendir(root, "%s", dir);
	size_t len = 0;
	int fd, ret = 0;

	if (!d)
		return -errno;
	/* config is a plain file beside the attributes: no link to follow, so none may lead out of the root; and
	 * no FIFO of a replayed tree may block the open or the read. */
	fd = openat(dirfd(d), "config", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	ret = fd < 0 ? -errno : rootfs_regular_file(fd);
	if (ret < 0) {
		if (fd >= 0)
			close(fd);
		closedir(d);
		return ret;
	}
	if (size > PCI_CONFIG_SIZE)
		size = PCI_CONFIG_SIZE;
	while (len < size) {
		ssize_t n = read(fd, buf + len, size - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	closedir(d);
	return ret < 0 ? ret : (int)len;
}

static unsigned le32(const unsigned char *p)
{
	return (unsigned)p[0] | (unsigned)p[1] << 8 | (unsigned)p[2] << 16 | (unsigned)p[3] << 24;
}

int pci_acs_parse(const unsigned char *cfg, size_t len, unsigned *offset, unsigned *ctrl)
{
	unsigned off = PCI_EXT_CAP_START;

	/* Each header is 4 bytes at a 4-byte aligned offset in [0x100, 0x1000): more hops than slots is a loop. */
	for (int hops = 0; hops < (PCI_CONFIG_SIZE - PCI_EXT_CAP_START) / 4; hops++) {
		unsigned header;

		if (off + 4 > len)
			return -ENODATA;
		header = le32(cfg + off);
		/* All zeros or all ones at 0x100: no extended capabilities (conventional PCI, or a function that
		 * does not answer). */
		if (header == 0 || header == 0xffffffffu)
			return off == PCI_EXT_CAP_START ? 0 : -EINVAL;
		if ((header & 0xffff) == PCI_EXT_CAP_ID_ACS) {
			if (off + 8 > len)
				return -ENODATA;
			*offset = off;
			*ctrl = (unsigned)cfg[off + 6] | (unsigned)cfg[off + 7] << 8;
			return 1;
		}
		off = header >> 20;
		if (off == 0)
			return 0;
		if (off < PCI_EXT_CAP_START || (off & 3))
			return -EINVAL;
	}
	return -EINVAL;
}
