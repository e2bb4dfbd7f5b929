// SPDX-License-Identifier: GPL-2.0-only
/* The one-value parsers of outside text: a GID as sysfs writes it, an address, systemd's rlimit syntax,
 * NCCL's interface lists (NCCL_IB_HCA, NCCL_SOCKET_IFNAME), an ethtool link-mode name, NCCL's version banner
 * and version option, message sizes, port selections, a PCI config space's capability list, `ethtool -S`
 * text (the PFC counters a capture or a paste gives) and MLNX_OFED's qos/prio2buffer and qos/buffer_size. The first
 * byte picks the parser; the rest is the value. Where a value parses, what we print of it must parse back. */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/nccl_gid_choice.h"
#include "core/port_selection.h"
#include "model/nccl_match.h"
#include "model/qos_counters.h"
#include "model/qos_ofed_sysfs.h"
#include "netcfg/ethtool_linkmodes.h"
#include "probe/elf_nccl_version.h"
#include "probe/memlock.h"
#include "probe/pci_config.h"
#include "util/byte_size.h"
#include "util/gidaddr.h"

static void gid_values(const char *text)
{
	struct in6_addr gid, back;
	char sysfs[40], ip[64];

	if (gid_parse_sysfs(text, &gid) == 0) {
		gid_format_sysfs(&gid, sysfs);
		if (gid_parse_sysfs(sysfs, &back) != 0 || memcmp(&gid, &back, sizeof(gid)) != 0)
			abort();
		gid_format_ip(&gid, ip);
		if (ip_parse_as_gid(ip, &back) != 0 || memcmp(&gid, &back, sizeof(gid)) != 0)
			abort();
	}
	if (ip_parse_as_gid(text, &gid) == 0) {
		(void)gid_is_link_local(&gid);
		(void)gid_common_prefix(&gid, &back);
	}
}

static void nccl_list(const char *text, size_t max)
{
	static const struct nccl_if_candidate names[] = {
		{ "mlx5_0", 1 }, { "mlx5_1", 2 }, { "mlx5_10", 1 }, { "rocep1s0f0", 1 }, { "eth0", -1 }, { "ib0", -1 },
		{ "", -1 },
	};
	bool selected[sizeof(names) / sizeof(names[0])];
	unsigned hits[NCCL_IB_HCA_ENTRIES_MAX];
	struct nccl_if_list list;

	nccl_if_list_parse(text, max, &list);
	if (list.count > max)
		abort();
	nccl_if_list_match(&list, names, sizeof(names) / sizeof(names[0]), selected, hits);
}

static void limit_value(const char *text)
{
	struct memlock_value soft, hard;

	if (systemd_limit_parse(text, &soft, &hard) == 0 && !soft.unlimited && !hard.unlimited && soft.bytes > hard.bytes)
		abort();   /* documented: soft above hard is refused */
}

/* Line by line as the capture reader gives it; what was read prints back and reads again the same. */
static void ethtool_text(char *text)
{
	struct qos_counters c = { 0 }, back = { 0 };
	char line[64];

	for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		(void)qos_counters_text_line(&c, l);
	if (c.present & ~(unsigned)(QOS_CTR_PACKETS | QOS_CTR_PAUSE | QOS_CTR_DURATION | QOS_CTR_PRIO_DISCARD |
				    QOS_CTR_PHY | QOS_CTR_STORM))
		abort();
	for (unsigned p = 0; p < QOS_PRIOS; p++) {
		snprintf(line, sizeof(line), "  tx_prio%u_pause: %llu", p, (unsigned long long)c.tx_pause[p]);
		if (!qos_counters_text_line(&back, line) || back.tx_pause[p] != c.tx_pause[p])
			abort();
	}
}

/* MLNX_OFED's qos sysfs texts: a map read has 8 buffers 0-7; sizes read print back in the driver's layout and read
 * again the same. */
static void ofed_texts(const char *text)
{
	struct qos_dcb d = { 0 }, back = { 0 };
	char again[512];
	size_t at;

	if (qos_ofed_prio2buffer(text, &d))
		for (unsigned p = 0; p < QOS_PRIOS; p++)
			if (d.prio_buffer[p] >= QOS_PRIOS)
				abort();
	if (!qos_ofed_buffer_size(text, &d))
		return;
	at = (size_t)snprintf(again, sizeof(again), "Port buffer size = %u\nSpare buffer size = %u\nBuffer\tSize\txoff_threshold\txon_threshold\n",
			      d.port_buffer_size, d.spare_buffer_size);
	for (unsigned b = 0; b < QOS_PRIOS; b++)
		at += (size_t)snprintf(again + at, sizeof(again) - at, "%u\t%u\t%u\t\t0\n", b, d.buffer_size[b], d.buffer_xoff[b]);
	if (!qos_ofed_buffer_size(again, &back) || memcmp(back.buffer_size, d.buffer_size, sizeof(d.buffer_size)) ||
	    memcmp(back.buffer_xoff, d.buffer_xoff, sizeof(d.buffer_xoff)) || back.port_buffer_size != d.port_buffer_size)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf_nccl_version banner;
	struct port_selection sel;
	struct nccl_version version;
	unsigned offset, ctrl;
	uint64_t bytes;
	char *text;

	if (size < 1 || size > 4097)
		return 0;
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	switch (data[0] % 10) {
	case 0:
		gid_values(text);
		break;
	case 1:
		limit_value(text);
		break;
	case 2:
		nccl_list(text, NCCL_IB_HCA_ENTRIES_MAX);
		break;
	case 3:
		nccl_list(text, NCCL_SOCKET_IFNAME_ENTRIES_MAX);
		break;
	case 4:
		(void)link_mode_speed(text);
		break;
	case 5:   /* the banner is found inside .rodata, not NUL-terminated: the exact length only */
		if (nccl_banner_parse((const char *)data + 1, size - 1, &banner) == 0 &&
		    (!memchr(banner.version, 0, sizeof(banner.version)) || !memchr(banner.cuda, 0, sizeof(banner.cuda))))
			abort();
		(void)nccl_version_parse(text, &version);
		break;
	case 6:
		if (byte_size_parse(text, UINT64_MAX, &bytes) == 0 && byte_size_parse(text, bytes, &bytes) != 0)
			abort();   /* a size is within a limit of itself */
		break;
	case 7:
		(void)port_selection_parse(text, &sel);
		break;
	case 8:   /* a config space is binary: as sysfs gives it, up to 4 KiB */
		if (pci_acs_parse(data + 1, size - 1, &offset, &ctrl) == 1 &&
		    (offset < PCI_EXT_CAP_START || offset + 8 > size - 1))
			abort();
		break;
	case 9:
		ofed_texts(text);
		ethtool_text(text);
		break;
	}
	free(text);
	return 0;
}
