// SPDX-License-Identifier: GPL-2.0-only
/* The lossless chain's probe. dcbnl answers only about the running host; a replayed tree carries what
 * capture-host saved of `mlnx_qos -i IF` instead, read by the same reader a paste goes through. */
#include "probe/qos.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/qos_counters.h"
#include "model/qos_mlnx_text.h"
#include "model/qos_ofed_sysfs.h"
#include "netcfg/dcb.h"
#include "netcfg/ethtool_stats.h"

/* MLNX_OFED's tc/N/traffic_class reads back as the number, or as "Global tclass=N" in some releases. */
static int forced_class(const struct rootfs *root, const char *dev, unsigned port)
{
	char text[64], *p, *end;
	long v;

	if (rootfs_read(root, text, sizeof(text), "sys/class/infiniband/%s/tc/%u/traffic_class", dev, port) <= 0)
		return -1;
	p = strchr(text, '=') ? strchr(text, '=') + 1 : text;
	v = strtol(p, &end, 0);
	return end != p && v >= 0 && v <= 255 ? (int)v : -1;
}

/* rdma_cm's default ToS for the port: configfs, present only after someone mkdir'd DEV under rdma_cm (as
 * cma_roce_tos does). The same path live and in a tree. */
static int rdma_cm_tos(const struct rootfs *root, const char *dev, unsigned port)
{
	char text[32], *end;
	long v;

	if (rootfs_read(root, text, sizeof(text), "sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_tos", dev, port) <= 0)
		return -1;
	v = strtol(text, &end, 0);
	return end != text && (*end == '\0' || *end == '\n') && v >= 0 && v <= 255 ? (int)v : -1;
}

static void ecn_per_priority(const struct rootfs *root, const char *netdev, enum qos_tristate ecn[QOS_PRIOS])
{
	for (unsigned p = 0; p < QOS_PRIOS; p++) {
		char text[8];

		ecn[p] = QOS_UNKNOWN;
		if (rootfs_read(root, text, sizeof(text), "sys/class/net/%s/ecn/roce_rp/enable/%u", netdev, p) > 0)
			ecn[p] = text[0] == '1' ? QOS_ON : text[0] == '0' ? QOS_OFF : QOS_UNKNOWN;
	}
}

static bool is_vlan(const struct rootfs *root, const char *netdev)
{
	char text[512];

	return rootfs_read(root, text, sizeof(text), "sys/class/net/%s/uevent", netdev) > 0 &&
	       strstr(text, "DEVTYPE=vlan") != NULL;
}

/* The kernel's /proc/net/vlan/IF (net/8021q/vlanproc.c) ends with " EGRESS priority mappings: " and one
 * "SKBPRIO:PCP " per mapping; skb priorities above 7 are no ToS's and are left out. */
static void vlan_egress_map(const struct rootfs *root, const char *netdev, struct qos_port *q)
{
	char text[4096], *at;
	unsigned prio, pcp;
	int n;

	if (rootfs_read(root, text, sizeof(text), "proc/net/vlan/%s", netdev) <= 0 ||
	    !(at = strstr(text, "EGRESS priority mappings:")))
		return;
	at += strlen("EGRESS priority mappings:");
	while (sscanf(at, " %u:%u%n", &prio, &pcp, &n) == 2) {
		if (prio < QOS_PRIOS && pcp < QOS_PRIOS)
			q->vlan_egress[prio] = (uint8_t)pcp;
		at += n;
	}
	q->vlan_egress_known = true;
}

/* A text tools/capture-host saved for netdev (KIND-IF.txt: mlnx_qos, ethtool-S), as a stream; NULL: none. */
static FILE *open_capture(const struct rootfs *root, const char *kind, const char *netdev)
{
	char path[256], real[4096];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "%s/%s-%s.txt", QOS_CAPTURE_DIR, kind, netdev);
	fd = rootfs_open_file(root, path, real, sizeof(real));
	if (fd < 0)
		return NULL;
	if (rootfs_regular_file(fd) < 0 || !(f = fdopen(fd, "r"))) {
		close(fd);
		return NULL;
	}
	return f;
}

static void dcb_from_capture(const struct rootfs *root, const char *netdev, struct qos_dcb *dcb)
{
	struct mlnx_qos_reader r;
	char buf[4096];
	FILE *f;

	memset(dcb, 0, sizeof(*dcb));
	dcb->error = -ENOENT;
	f = open_capture(root, "mlnx_qos", netdev);
	if (!f)
		return;
	mlnx_qos_begin(&r);
	/* A line longer than the buffer is no mlnx_qos line; its pieces are refused by the reader. */
	for (int lines = 0; lines < 4096 && fgets(buf, sizeof(buf), f); lines++) {
		buf[strcspn(buf, "\n")] = '\0';
		mlnx_qos_line(&r, buf);
	}
	fclose(f);
	if (!mlnx_qos_finish(&r, dcb)) {
		memset(dcb, 0, sizeof(*dcb));
		dcb->error = -EBADMSG;
	}
}

/* MLNX_OFED's qos/ files, read after dcbnl (or the captured mlnx_qos text): the buffers' sizes and xoff thresholds
 * that only they have, and the priority->buffer map and the trust mode (MLNX_OFED 4.x's qos/trust) where the
 * DCB settings did not give them. The same paths live and in a tree. */
static void ofed_qos_sysfs(const struct rootfs *root, const char *netdev, struct qos_dcb *dcb)
{
	char text[1024];
	enum qos_trust trust;

	if (rootfs_read(root, text, sizeof(text), "sys/class/net/%s/qos/buffer_size", netdev) > 0)
		qos_ofed_buffer_size(text, dcb);
	if (!dcb->buffer_known && rootfs_read(root, text, sizeof(text), "sys/class/net/%s/qos/prio2buffer", netdev) > 0)
		qos_ofed_prio2buffer(text, dcb);
	if (dcb->known && !dcb->trust_known && rootfs_read(root, text, sizeof(text), "sys/class/net/%s/qos/trust", netdev) > 0 &&
	    (trust = qos_ofed_trust(text)) != QOS_TRUST_UNKNOWN) {
		dcb->trust_known = true;
		dcb->trust = trust;
		dcb->trust_source = QOS_TRUST_FROM_SYSFS;
	}
}

/* The driver statistics, live through SIOCETHTOOL; a tree has what capture-host saved of `ethtool -S IF`. */
static void counters_live(const char *netdev, struct qos_counters *c)
{
	struct netdev_stats stats;
	int ret;

	memset(c, 0, sizeof(*c));
	ret = netdev_stats_read(netdev, &stats);
	if (ret < 0) {
		c->error = ret;
		return;
	}
	for (size_t i = 0; i < stats.count; i++)
		qos_counters_take(c, stats.items[i].name, stats.items[i].value);
	c->known = true;
	netdev_stats_free(&stats);
}

static void counters_from_capture(const struct rootfs *root, const char *netdev, struct qos_counters *c)
{
	char buf[512];
	FILE *f;

	memset(c, 0, sizeof(*c));
	c->error = -ENOENT;
	f = open_capture(root, "ethtool-S", netdev);
	if (!f)
		return;
	/* mlx5 lists about 1,500 statistics at 64 queues; a longer text is not ethtool -S of one netdev */
	for (int lines = 0; lines < 65536 && fgets(buf, sizeof(buf), f); lines++) {
		size_t len = strcspn(buf, "\n");
		bool whole = buf[len] == '\n' || feof(f);
		int ch;

		buf[len] = '\0';
		if (whole) {
			qos_counters_text_line(c, buf);
			continue;
		}
		/* longer than any statistic's line: none of its pieces is read as one */
		while ((ch = fgetc(f)) != EOF && ch != '\n')
			;
	}
	fclose(f);
	c->known = true;
	c->error = 0;
}

void qos_counters_read(const struct rootfs *root, const char *netdev, struct qos_counters *c)
{
	if (root->live)
		counters_live(netdev, c);
	else
		counters_from_capture(root, netdev, c);
}

int qos_probe(const struct rootfs *root, const struct host *host, struct qos_host *out)
{
	out->ports = NULL;
	out->count = 0;
	for (size_t d = 0; d < host->device_count; d++) {
		const struct rdma_device *dev = &host->devices[d];

		for (size_t i = 0; i < dev->port_count; i++) {
			const struct rdma_port *p = &dev->ports[i];
			struct qos_port *q;

			if (p->link_layer != LINK_LAYER_ETHERNET || !p->netdev[0] || out->count >= QOS_PORTS_MAX)
				continue;
			if (!out->ports && !(out->ports = calloc(QOS_PORTS_MAX, sizeof(*out->ports))))
				return -ENOMEM;
			q = &out->ports[out->count++];
			memset(q, 0, sizeof(*q));
			snprintf(q->device, sizeof(q->device), "%s", dev->name);
			q->port = p->num;
			snprintf(q->netdev, sizeof(q->netdev), "%s", p->netdev);
			q->forced_tc = forced_class(root, dev->name, p->num);
			q->default_roce_tos = rdma_cm_tos(root, dev->name, p->num);
			q->vlan = is_vlan(root, p->netdev);
			if (q->vlan) {
				snprintf(q->vlan_netdev, sizeof(q->vlan_netdev), "%s", p->netdev);
				vlan_egress_map(root, p->netdev, q);
			}
			ecn_per_priority(root, p->netdev, q->ecn);
			if (root->live)
				dcb_query(p->netdev, &q->dcb);
			else
				dcb_from_capture(root, p->netdev, &q->dcb);
			ofed_qos_sysfs(root, p->netdev, &q->dcb);
			qos_counters_read(root, p->netdev, &q->counters);
		}
	}
	return 0;
}
