// SPDX-License-Identifier: GPL-2.0-only
/* Pause storms and drops on a lossless priority. A pause frame says who is congested: one this NIC sent
 * (tx_prioN_pause) means its own receive path could not drain (PCIe, host memory, a buffer too small); one it
 * received (rx_prioN_pause) means a receiver further on is congested and the switch holds this sender back. The
 * fix is where the congested receiver is, so each finding says which side that is and how to find it. */
#include "core/qos/pause_storm.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

struct judge {
	const struct qos_port *p;
	const struct qos_counters *c;
	double seconds;           /* 0: one reading, since the counters started */
	char subject[96];
	char span[48];            /* "since the counters started" / "over 2.0 s" */
	struct findings *out;
};

/* Which priorities are lossless: PFC's own setting when read; otherwise those that paused at all, since pause
 * frames exist only where PFC is on at one end of the link. */
static bool lossless(const struct judge *j, unsigned prio)
{
	if (j->p->dcb.known && j->p->dcb.pfc_known)
		return j->p->dcb.pfc_enabled >> prio & 1;
	return j->c->rx_pause[prio] || j->c->tx_pause[prio];
}

static double percent(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void rate(const struct judge *j, uint64_t n, char *buf, size_t len)
{
	if (j->seconds > 0)
		snprintf(buf, len, " (%.0f/s)", (double)n / j->seconds);
	else
		buf[0] = '\0';
}

/* One direction of one priority: pauses against the packets they held back, or the time paused. */
static bool storm(const struct judge *j, uint64_t pauses, uint64_t packets, uint64_t paused_us)
{
	uint64_t min = j->seconds > 0 ? QOS_PAUSE_MIN_INTERVAL : QOS_PAUSE_MIN;

	/* no packet at all against that many pauses: the priority stood still, the worst share there is */
	if ((j->c->present & QOS_CTR_PACKETS) && pauses >= min &&
	    (double)pauses * 100.0 >= (double)packets * QOS_PAUSE_SHARE_PERCENT)
		return true;
	return j->seconds > 0 && (j->c->present & QOS_CTR_DURATION) &&
	       (double)paused_us / (j->seconds * 1e6) * 100.0 >= QOS_PAUSED_TIME_PERCENT;
}

/* "for 385237 packets it sent (4.0%)", or "while it sent no packet on it" */
static void against(uint64_t pauses, uint64_t packets, const char *verb, char *buf, size_t len)
{
	if (packets)
		snprintf(buf, len, "for %" PRIu64 " packets it %s (%.1f%%)", packets, verb, percent(pauses, packets));
	else
		snprintf(buf, len, "while it %s no packet on it", verb);
}

static void paused_time(const struct judge *j, uint64_t us, char *buf, size_t len)
{
	if (!(j->c->present & QOS_CTR_DURATION) || !us)
		buf[0] = '\0';
	else if (j->seconds > 0)
		snprintf(buf, len, ", paused %.0f%% of the time", (double)us / (j->seconds * 1e6) * 100.0);
	else
		snprintf(buf, len, ", %.1f s paused in all", (double)us / 1e6);
}

static bool sent_storm(const struct judge *j, unsigned prio)
{
	struct findings *out = j->out;   /* the name docs_test finds ids by */
	const struct qos_counters *c = j->c;
	const char *nd = j->p->netdev;
	char fix[640], r[32], t[64], a[80];

	if (!storm(j, c->tx_pause[prio], c->rx_packets[prio], c->tx_pause_us[prio]))
		return false;
	rate(j, c->tx_pause[prio], r, sizeof(r));
	against(c->tx_pause[prio], c->rx_packets[prio], "received", a, sizeof(a));
	paused_time(j, c->tx_pause_us[prio], t, sizeof(t));
	snprintf(fix, sizeof(fix),
		 "ethtool -S %s | grep -E 'prio%u_pause|outbound_pci_stalled|prio%u_buf_discard'   # on this node: "
		 "what grows while the job runs\n"
		 "roce-doctor check --only gpu.pcie_link   # a NIC that cannot drain into memory pauses its link\n"
		 "mlnx_qos -i %s   # priority %u's receive buffer (buffer_size, cable_len) against the NIC's guide",
		 nd, prio, prio, nd, prio);
	finding_add(out, "qos.pause_storm", SEVERITY_WARN, j->subject, fix,
		    "%s priority %u: this NIC sent %" PRIu64 " pause frames%s %s%s %s: its own receive path is the "
		    "congested one, and its pauses spread back through the fabric", nd, prio, c->tx_pause[prio], r, a, t,
		    j->span);
	return true;
}

static bool received_storm(const struct judge *j, unsigned prio)
{
	struct findings *out = j->out;
	const struct qos_counters *c = j->c;
	const char *nd = j->p->netdev;
	char fix[640], r[32], t[64], a[80];

	if (!storm(j, c->rx_pause[prio], c->tx_packets[prio], c->rx_pause_us[prio]))
		return false;
	rate(j, c->rx_pause[prio], r, sizeof(r));
	against(c->rx_pause[prio], c->tx_packets[prio], "sent", a, sizeof(a));
	paused_time(j, c->rx_pause_us[prio], t, sizeof(t));
	snprintf(fix, sizeof(fix),
		 "ethtool -S %s | grep prio%u_pause   # here, then on every node of the job: the congested receiver is the "
		 "one whose tx_prio%u_pause grows\n"
		 "# on the switch: PFC on priority %u of both ports, their pause counters and PFC watchdog\n"
		 "cat /sys/class/net/%s/ecn/roce_rp/enable/%u /sys/class/net/%s/ecn/roce_np/enable/%u   # ECN (DCQCN) "
		 "should slow senders before PFC must",
		 nd, prio, prio, prio, nd, prio, nd, prio);
	finding_add(out, "qos.pause_storm", SEVERITY_WARN, j->subject, fix,
		    "%s priority %u: the switch sent this NIC %" PRIu64 " pause frames%s %s%s %s: a receiver further on is "
		    "congested and PFC holds this sender back", nd, prio, c->rx_pause[prio], r, a, t, j->span);
	return true;
}

/* mlx5's stall watchdog: past device_stall_critical_watermark it stops sending pauses and drops instead. */
static bool watchdog(const struct judge *j)
{
	struct findings *out = j->out;
	const struct qos_counters *c = j->c;
	char fix[320];

	if (!(c->present & QOS_CTR_STORM) || (!c->storm_errors && !c->storm_warnings))
		return false;
	snprintf(fix, sizeof(fix),
		 "ethtool -S %s | grep -E 'pause_storm|outbound_pci_stalled'   # on this node, while the job runs\n"
		 "cat /sys/class/net/%s/settings/pfc_stall_prevention   # MLNX_OFED: auto ends a storm after 100 ms, "
		 "default after 8 s",
		 j->p->netdev, j->p->netdev);
	if (c->storm_errors)
		finding_add(out, "qos.pause_storm", SEVERITY_WARN, j->subject, fix,
			    "%s: the NIC's pause-storm watchdog fired %" PRIu64 " times %s (tx_pause_storm_error_events): its "
			    "receive path stalled so long that it stopped pausing and dropped instead", j->p->netdev,
			    c->storm_errors, j->span);
	else
		finding_add(out, "qos.pause_storm", SEVERITY_INFO, j->subject, fix,
			    "%s: the NIC paused its link past the stall warning mark %" PRIu64 " times %s "
			    "(tx_pause_storm_warning_events), short of the watchdog", j->p->netdev, c->storm_warnings, j->span);
	return true;
}

static void pause_storms(const struct judge *j)
{
	struct findings *out = j->out;
	bool said = watchdog(j), looked = false;
	char prios[24] = "";

	if (!(j->c->present & QOS_CTR_PAUSE))
		return;
	for (unsigned prio = 0; prio < QOS_PRIOS; prio++) {
		if (!lossless(j, prio))
			continue;
		looked = true;
		snprintf(prios + strlen(prios), sizeof(prios) - strlen(prios), "%s%u", prios[0] ? "," : "", prio);
		said |= sent_storm(j, prio);
		said |= received_storm(j, prio);
	}
	if (!said && looked && j->seconds == 0)
		finding_add(out, "qos.pause_storm", SEVERITY_OK, j->subject, NULL,
			    "%s: pause frames on lossless priority %s below %.0f%% of its packets %s", j->p->netdev, prios,
			    QOS_PAUSE_SHARE_PERCENT, j->span);
}

static bool prio_drops(const struct judge *j, unsigned prio)
{
	struct findings *out = j->out;
	const struct qos_counters *c = j->c;
	const char *nd = j->p->netdev;
	char fix[480], r[32];

	if (!c->prio_discards[prio])
		return false;
	/* Since the start, a few drops per million packets are link flaps and reboots of the peer, not a headroom
	 * fault; over an interval any drop on a lossless priority is one. */
	if (j->seconds == 0 && (c->present & QOS_CTR_PACKETS) &&
	    (double)c->prio_discards[prio] * 1e6 < (double)c->rx_packets[prio])
		return false;
	rate(j, c->prio_discards[prio], r, sizeof(r));
	snprintf(fix, sizeof(fix),
		 "mlnx_qos -i %s --cable_len=N   # the real cable length in metres: PFC's headroom grows with it\n"
		 "mlnx_qos -i %s   # priority %u's receive buffer; then PFC on priority %u of the switch port, both ways",
		 nd, nd, prio, prio);
	finding_add(out, "qos.discards", SEVERITY_WARN, j->subject, fix,
		    "%s priority %u is lossless (PFC) but dropped %" PRIu64 " received packets%s %s "
		    "(rx_prio%u_buf_discard): the pause came too late (headroom too small for the cable and MTU) or the "
		    "switch ignores it", nd, prio, c->prio_discards[prio], r, j->span, prio);
	return true;
}

static bool port_drops(const struct judge *j)
{
	struct findings *out = j->out;
	const struct qos_counters *c = j->c;
	const char *nd = j->p->netdev;
	char fix[400], r[32];
	int pfc = -1;

	for (unsigned prio = 0; prio < QOS_PRIOS && pfc < 0; prio++)
		if (j->p->dcb.known && j->p->dcb.pfc_known && (j->p->dcb.pfc_enabled >> prio & 1))
			pfc = (int)prio;
	if (pfc < 0 || !(c->present & QOS_CTR_PHY) || !c->rx_discards_phy ||
	    (double)c->rx_discards_phy * 1e6 < (double)c->rx_packets_phy * QOS_DISCARDS_PER_MILLION)
		return false;
	rate(j, c->rx_discards_phy, r, sizeof(r));
	snprintf(fix, sizeof(fix),
		 "roce-doctor check --only qos.lossless   # does NCCL's traffic ride the PFC priority?\n"
		 "ethtool -S %s | grep -E 'rx_discards_phy|rx_prio._packets|rx_prio._buf_discard'   # which priority "
		 "carries what is dropped",
		 nd);
	finding_add(out, "qos.discards", SEVERITY_WARN, j->subject, fix,
		    "%s dropped %" PRIu64 " of %" PRIu64 " received packets for lack of buffer%s %s (rx_discards_phy, "
		    "%.3f%%) while priority %d is lossless: lossy traffic fills the port, or RoCE is not on the PFC "
		    "priority", nd, c->rx_discards_phy, c->rx_packets_phy, r, j->span,
		    percent(c->rx_discards_phy, c->rx_packets_phy), pfc);
	return true;
}

static void discards(const struct judge *j)
{
	struct findings *out = j->out;
	bool said = false, looked = false;

	if (j->c->present & QOS_CTR_PRIO_DISCARD)
		for (unsigned prio = 0; prio < QOS_PRIOS; prio++)
			if (lossless(j, prio)) {
				looked = true;
				said |= prio_drops(j, prio);
			}
	said |= port_drops(j);
	if (!said && looked && j->seconds == 0)
		finding_add(out, "qos.discards", SEVERITY_OK, j->subject, NULL,
			    "%s: no drops on its lossless priorities %s", j->p->netdev, j->span);
}

void qos_judge_counters(const struct qos_port *p, const struct qos_counters *c, double seconds, struct findings *out)
{
	struct judge j = { p, c, seconds, "", "", out };

	if (!c->known)
		return;
	snprintf(j.subject, sizeof(j.subject), "%s/%u", p->device, p->port);
	if (seconds > 0)
		snprintf(j.span, sizeof(j.span), "over %.1f s", seconds);
	else
		snprintf(j.span, sizeof(j.span), "since the counters started");
	pause_storms(&j);
	discards(&j);
}
