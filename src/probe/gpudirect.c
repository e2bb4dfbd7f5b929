// SPDX-License-Identifier: GPL-2.0-only
/* The NVIDIA module and the kernel, as dma-buf GPUDirect needs them. Only the open module flavour exports GPU
 * memory as dma-buf, which is why the version line's wording matters. */
#include "probe/gpudirect.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

int nvidia_version_line_parse(const char *line, enum nvidia_flavor *flavor, char *version, size_t size)
{
	const char *p = strstr(line, "Kernel Module");
	size_t len;

	*flavor = NVIDIA_FLAVOR_UNKNOWN;
	version[0] = '\0';
	if (!strstr(line, "NVRM version:") || !p)
		return -EINVAL;
	/* the open flavour writes "Open Kernel Module for x86_64  580.159.04", the proprietary one
	 * "x86_64 Kernel Module  535.129.03": the version is the first word after "Kernel Module" that starts with
	 * a digit */
	for (p += strlen("Kernel Module"); *p && !(isdigit((unsigned char)*p) && isspace((unsigned char)p[-1])); p++)
		;
	len = strspn(p, "0123456789.");
	if (len == 0 || len >= size || !memchr(p, '.', len))
		return -EINVAL;
	memcpy(version, p, len);
	version[len] = '\0';
	*flavor = strstr(line, "Open Kernel Module") ? NVIDIA_FLAVOR_OPEN : NVIDIA_FLAVOR_PROPRIETARY;
	return 0;
}

void gpudirect_read(const struct rootfs *root, struct gpudirect_info *out)
{
	char text[512], version[32];
	enum nvidia_flavor flavor;

	memset(out, 0, sizeof(*out));
	if (rootfs_read(root, text, sizeof(text), "proc/driver/nvidia/version") >= 0) {
		text[strcspn(text, "\n")] = '\0';
		if (nvidia_version_line_parse(text, &flavor, version, sizeof(version)) == 0) {
			out->flavor = flavor;
			snprintf(out->driver_version, sizeof(out->driver_version), "%s", version);
		}
	}
	/* the module's own version wins: it is what is loaded, whatever the proc line's build says */
	if (rootfs_read(root, text, sizeof(text), "sys/module/nvidia/version") > 0 && strlen(text) < sizeof(version) &&
	    isdigit((unsigned char)text[0]))
		snprintf(out->driver_version, sizeof(out->driver_version), "%s", text);
	if (rootfs_read(root, text, sizeof(text), "proc/sys/kernel/osrelease") > 0 && strlen(text) < sizeof(out->kernel_release))
		snprintf(out->kernel_release, sizeof(out->kernel_release), "%s", text);
}
