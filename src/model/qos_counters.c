// SPDX-License-Identifier: GPL-2.0-only
/* Driver statistic names to the lossless chain's counters. mlx5 (Documentation/networking/device_drivers/
 * ethernet/mellanox/mlx5/counters.rst): rx_prioN_packets, tx_prioN_pause, rx_prioN_pause_duration (µs),
 * rx_prioN_buf_discard, rx_discards_phy, tx_pause_storm_error_events ...; ice (Intel E810, the RDMA flow control
 * guide): tx_priority_N_xoff.nic. */
#include "model/qos_counters.h"

#include "model/ethtool_text.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* "rx_prio3_pause" -> 3 and "pause"; -1 when name is not "<dir>_prio<digit>_<rest>". */
static int prio_suffix(const char *name, const char *dir, const char *infix, const char **rest)
{
	size_t d = strlen(dir), i = strlen(infix);

	if (strncmp(name, dir, d) != 0 || strncmp(name + d, infix, i) != 0)
		return -1;
	name += d + i;
	if (name[0] < '0' || name[0] > '7' || name[1] != '_')
		return -1;
	*rest = name + 2;
	return name[0] - '0';
}

/* mlx5 has had three names for a priority's receive drops (rx_prioN_discards, then _buf_discard and
 * _cong_discard); the largest is the least that was dropped, without counting one drop twice. */
static void keep_max(uint64_t *slot, uint64_t value)
{
	if (value > *slot)
		*slot = value;
}

static bool take_prio(struct qos_counters *c, const char *dir, int p, const char *rest, uint64_t v)
{
	bool rx = dir[0] == 'r';

	if (!strcmp(rest, "packets")) {
		(rx ? c->rx_packets : c->tx_packets)[p] = v;
		c->present |= QOS_CTR_PACKETS;
	} else if (!strcmp(rest, "pause")) {
		(rx ? c->rx_pause : c->tx_pause)[p] = v;
		c->present |= QOS_CTR_PAUSE;
	} else if (!strcmp(rest, "pause_duration")) {
		(rx ? c->rx_pause_us : c->tx_pause_us)[p] = v;
		c->present |= QOS_CTR_DURATION;
	} else if (rx && (!strcmp(rest, "buf_discard") || !strcmp(rest, "cong_discard") || !strcmp(rest, "discards"))) {
		keep_max(&c->prio_discards[p], v);
		c->present |= QOS_CTR_PRIO_DISCARD;
	} else {
		return false;
	}
	return true;
}

bool qos_counters_take(struct qos_counters *c, const char *name, uint64_t v)
{
	const char *rest;
	int p;

	if ((p = prio_suffix(name, "rx", "_prio", &rest)) >= 0)
		return take_prio(c, "rx", p, rest, v);
	if ((p = prio_suffix(name, "tx", "_prio", &rest)) >= 0)
		return take_prio(c, "tx", p, rest, v);
	/* ice counts XOFF frames (the pauses) and XON frames (the resumes) apart */
	if ((p = prio_suffix(name, "rx", "_priority_", &rest)) >= 0 && (!strcmp(rest, "xoff.nic") || !strcmp(rest, "xoff")))
		return take_prio(c, "rx", p, "pause", v);
	if ((p = prio_suffix(name, "tx", "_priority_", &rest)) >= 0 && (!strcmp(rest, "xoff.nic") || !strcmp(rest, "xoff")))
		return take_prio(c, "tx", p, "pause", v);
	if (!strcmp(name, "rx_packets_phy"))
		c->rx_packets_phy = v;
	else if (!strcmp(name, "rx_discards_phy"))
		c->rx_discards_phy = v;
	else if (!strcmp(name, "tx_pause_storm_warning_events"))
		c->storm_warnings = v;
	else if (!strcmp(name, "tx_pause_storm_error_events"))
		c->storm_errors = v;
	else
		return false;
	c->present |= !strncmp(name, "tx_pause_storm", 14) ? QOS_CTR_STORM : QOS_CTR_PHY;
	return true;
}

bool qos_counters_text_line(struct qos_counters *c, const char *line)
{
	struct ethtool_text_stat st;
	char name[ETHTOOL_TEXT_NAME_MAX + 1];

	if (!ethtool_text_stat(line, &st))
		return false;
	memcpy(name, st.name, st.len);
	name[st.len] = '\0';
	return qos_counters_take(c, name, st.value);
}

static uint64_t grew(uint64_t before, uint64_t after, unsigned *resets)
{
	if (after >= before)
		return after - before;
	++*resets;
	return 0;
}

unsigned qos_counters_growth(const struct qos_counters *a, const struct qos_counters *b, struct qos_counters *g)
{
	unsigned resets = 0;

	memset(g, 0, sizeof(*g));
	g->known = a->known && b->known;
	if (!g->known) {
		g->error = b->known ? a->error : b->error;
		return 0;
	}
	g->present = a->present & b->present;
	for (unsigned p = 0; p < QOS_PRIOS; p++) {
		g->rx_packets[p] = grew(a->rx_packets[p], b->rx_packets[p], &resets);
		g->tx_packets[p] = grew(a->tx_packets[p], b->tx_packets[p], &resets);
		g->rx_pause[p] = grew(a->rx_pause[p], b->rx_pause[p], &resets);
		g->tx_pause[p] = grew(a->tx_pause[p], b->tx_pause[p], &resets);
		g->rx_pause_us[p] = grew(a->rx_pause_us[p], b->rx_pause_us[p], &resets);
		g->tx_pause_us[p] = grew(a->tx_pause_us[p], b->tx_pause_us[p], &resets);
		g->prio_discards[p] = grew(a->prio_discards[p], b->prio_discards[p], &resets);
	}
	g->rx_packets_phy = grew(a->rx_packets_phy, b->rx_packets_phy, &resets);
	g->rx_discards_phy = grew(a->rx_discards_phy, b->rx_discards_phy, &resets);
	g->storm_warnings = grew(a->storm_warnings, b->storm_warnings, &resets);
	g->storm_errors = grew(a->storm_errors, b->storm_errors, &resets);
	return resets;
}
