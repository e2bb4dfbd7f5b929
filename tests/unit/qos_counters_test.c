// SPDX-License-Identifier: GPL-2.0-only
/* The lossless chain's counters: driver statistic names (mlx5's, ice's) and `ethtool -S` text into the model, the
 * growth between two readings with resets said as such, and the rules that judge them (qos.pause_storm,
 * qos.discards) over one reading and over an interval. */
#include <stdio.h>
#include <string.h>

#include "core/log/paste_scan.h"
#include "core/qos/pause_storm.h"
#include "model/ethtool_text.h"
#include "model/qos_counters.h"
#include "tap.h"

static void names_of_mlx5_and_ice_land_on_their_priority(void)
{
	struct qos_counters c = { 0 };

	CHECK(qos_counters_take(&c, "rx_prio3_pause", 41927));
	CHECK(qos_counters_take(&c, "tx_prio3_pause", 1290418));
	CHECK(qos_counters_take(&c, "rx_prio3_pause_duration", 8134));
	CHECK(qos_counters_take(&c, "tx_prio3_packets", 20515332188ULL));
	CHECK(qos_counters_take(&c, "rx_prio3_buf_discard", 4));
	CHECK(qos_counters_take(&c, "rx_prio3_discards", 2));   /* an older name of the same drops: not added */
	CHECK(qos_counters_take(&c, "tx_priority_2_xoff.nic", 14864));   /* ice */
	CHECK(qos_counters_take(&c, "rx_discards_phy", 7));
	CHECK(qos_counters_take(&c, "tx_pause_storm_error_events", 1));
	CHECK(c.rx_pause[3] == 41927 && c.tx_pause[3] == 1290418 && c.rx_pause_us[3] == 8134);
	CHECK(c.tx_packets[3] == 20515332188ULL && c.prio_discards[3] == 4 && c.tx_pause[2] == 14864);
	CHECK(c.rx_discards_phy == 7 && c.storm_errors == 1);
	CHECK(c.present == (QOS_CTR_PAUSE | QOS_CTR_DURATION | QOS_CTR_PACKETS | QOS_CTR_PRIO_DISCARD | QOS_CTR_PHY |
			    QOS_CTR_STORM));
	CHECK(!qos_counters_take(&c, "rx_prio8_pause", 1));
	CHECK(!qos_counters_take(&c, "rx_prio3_pause_transition", 1));
	CHECK(!qos_counters_take(&c, "rx_priority_3_xon.nic", 1));
	CHECK(!qos_counters_take(&c, "rx_prio_pause", 1));
	CHECK(!qos_counters_take(&c, "rx_bytes", 1));
}

static void ethtool_text_is_read_line_by_line_and_the_rest_ignored(void)
{
	struct qos_counters c = { 0 };

	CHECK(!qos_counters_text_line(&c, "NIC statistics:"));
	CHECK(qos_counters_text_line(&c, "     rx_prio3_pause: 1523"));
	CHECK(qos_counters_text_line(&c, "tx_prio3_pause:\t2847  "));
	CHECK(!qos_counters_text_line(&c, "     rx_packets: 845320277"));                  /* kept by nobody here */
	CHECK(!qos_counters_text_line(&c, "     rxq0: rx_prio3_pause: 7"));                /* a queue's line */
	CHECK(!qos_counters_text_line(&c, "     rx_prio3_packets: 12abc"));
	CHECK(!qos_counters_text_line(&c, "     rx_prio3_packets: -5"));
	CHECK(!qos_counters_text_line(&c, "     rx_prio3_packets: 99999999999999999999999"));   /* over 64 bits */
	CHECK(!qos_counters_text_line(&c, "     rx_prio3_pause: 5   <- pause frames RECEIVED"));
	CHECK(!qos_counters_text_line(&c, "rx_prio3_pause_duration_and_a_name_longer_than_32: 5"));
	CHECK(!qos_counters_text_line(&c, ""));
	CHECK(c.rx_pause[3] == 1523 && c.tx_pause[3] == 2847 && c.rx_packets[3] == 0);
}

/* One reader of `ethtool -S` text: the shape it takes and refuses, and the probe's capture reader and explain's
 * paste reader agreeing on every line of a pasted block (same counters, same values). */
static void ethtool_text_has_one_reader(void)
{
	static const char *const lines[] = {
		"NIC statistics:", "     rx_prio3_pause: 1523", "     tx_prio3_pause:\t2847  ", "     rx_prio3_packets: 12abc",
		"     rxq0: rx_prio3_pause: 7", "     rx_prio4_pause: 5   <- pause frames RECEIVED",
		"     tx_priority_3_xoff.nic: 6434", "     rx_prio2_pause: 18446744073709551615",
		"     rx_prio1_pause: 18446744073709551616", "     3rx_prio5_pause: 9", "     rx_prio6_pause:",
		"     rx_prio0_buf_discard: 44", "     rx_discards_phy: 17",
	};
	struct qos_counters probe = { 0 }, pasted = { 0 };
	struct ethtool_text_stat st;
	struct paste_scan *ps;

	CHECK(ethtool_text_stat("     rx_prio3_pause: 1523", &st) && st.len == 14 && !strncmp(st.name, "rx_prio3_pause", 14) &&
	      st.value == 1523 && st.indented);
	CHECK(ethtool_text_stat("out_of_sequence: 5\r", &st) && st.value == 5 && !st.indented);
	CHECK(ethtool_text_stat("a2345678901234567890123456789012: 1", &st) && st.len == 32);      /* ETH_GSTRING_LEN */
	CHECK(!ethtool_text_stat("a23456789012345678901234567890123: 1", &st));
	CHECK(!ethtool_text_stat("     rx_prio3_pause : 1", &st) && !ethtool_text_stat("rx_prio3_pause: +1", &st) &&
	      !ethtool_text_stat(": 1", &st) && !ethtool_text_stat("", &st));
	CHECK(paste_scan_init(&ps) == 0);
	if (!ps)
		return;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		qos_counters_text_line(&probe, lines[i]);
		paste_scan_line(ps, lines[i], strlen(lines[i]), i + 1);
	}
	/* the paste's counters into the model as the probe takes them: the same fields, the same values */
	for (size_t i = 0; i < ps->counters.count; i++)
		qos_counters_take(&pasted, ps->counters.items[i].name, ps->counters.items[i].last);
	CHECK(probe.present == pasted.present && !memcmp(probe.rx_pause, pasted.rx_pause, sizeof(probe.rx_pause)) &&
	      !memcmp(probe.tx_pause, pasted.tx_pause, sizeof(probe.tx_pause)) &&
	      !memcmp(probe.prio_discards, pasted.prio_discards, sizeof(probe.prio_discards)) &&
	      probe.rx_discards_phy == pasted.rx_discards_phy);
	CHECK(probe.rx_pause[3] == 1523 && probe.tx_pause[3] == 6434 && probe.rx_pause[2] == UINT64_MAX &&
	      probe.rx_pause[1] == 0 && probe.rx_pause[4] == 0 && probe.rx_pause[5] == 0 && probe.prio_discards[0] == 44);
	paste_scan_free(ps);
}

static void counters_that_go_back_are_a_reset_not_a_huge_growth(void)
{
	struct qos_counters a = { .known = true }, b = { .known = true }, g;

	qos_counters_take(&a, "rx_prio3_pause", 5000);
	qos_counters_take(&a, "tx_prio3_packets", 100);
	qos_counters_take(&b, "rx_prio3_pause", 40);    /* the driver reloaded: counting again from 0 */
	qos_counters_take(&b, "tx_prio3_packets", 300);
	CHECK(qos_counters_growth(&a, &b, &g) == 1);
	CHECK(g.known && g.rx_pause[3] == 0 && g.tx_packets[3] == 200);
	CHECK(qos_counters_growth(&b, &b, &g) == 0 && g.rx_pause[3] == 0);
	b.known = false;
	b.error = -19;
	CHECK(qos_counters_growth(&a, &b, &g) == 0 && !g.known && g.error == -19);
}

/* A ConnectX port with PFC on priority 3 (or PFC unread when pfc is -1). */
static struct qos_port port_with(int pfc)
{
	struct qos_port p = { .device = "mlx5_0", .port = 1, .netdev = "ens1f0np0", .forced_tc = -1 };

	p.dcb.known = p.dcb.pfc_known = pfc >= 0;
	p.dcb.pfc_enabled = pfc >= 0 ? (uint8_t)(1u << pfc) : 0;
	p.counters.known = true;
	return p;
}

static const struct finding *only(const struct findings *f, const char *id)
{
	const struct finding *hit = NULL;

	for (size_t i = 0; i < f->count; i++)
		if (!strcmp(f->items[i].id, id)) {
			CHECK(hit == NULL);   /* one finding of this id */
			hit = &f->items[i];
		}
	return hit;
}

static void judge(const struct qos_port *p, double seconds, struct findings *f)
{
	findings_clear(f);
	qos_judge_counters(p, &p->counters, seconds, f);
}

static void pauses_received_past_one_percent_point_at_a_receiver_further_on(void)
{
	struct qos_port p = port_with(3);
	struct findings f = { 0 };
	const struct finding *s;

	/* sonic-buildimage#9430's storm, seen from the NIC (tests/fixtures/README.md, qos-pause-storm) */
	qos_counters_take(&p.counters, "rx_prio3_pause", 15437);
	qos_counters_take(&p.counters, "tx_prio3_packets", 385237);
	judge(&p, 0, &f);
	s = only(&f, "qos.pause_storm");
	CHECK(s && s->severity == SEVERITY_WARN && strstr(s->message, "priority 3: the switch sent this NIC 15437 pause "
							     "frames for 385237 packets it sent (4.0%)"));
	CHECK(s && s->fix && strstr(s->fix, "ethtool -S ens1f0np0 | grep prio3_pause") &&
	      strstr(s->fix, "tx_prio3_pause grows"));
	CHECK(s && !strcmp(s->subject, "mlx5_0/1"));
	/* the same frames against a thousand times as many packets: 0.1%, a lossless priority at work */
	p.counters.tx_packets[3] = 15437 * 1000ULL;
	judge(&p, 0, &f);
	s = only(&f, "qos.pause_storm");
	CHECK(s && s->severity == SEVERITY_OK && strstr(s->message, "lossless priority 3 below 1%"));
	findings_free(&f);
}

static void pauses_sent_point_at_this_nodes_receive_path(void)
{
	struct qos_port p = port_with(3);
	struct findings f = { 0 };
	const struct finding *s;

	qos_counters_take(&p.counters, "tx_prio3_pause", 1290418);
	qos_counters_take(&p.counters, "rx_prio3_packets", 20693166);
	judge(&p, 0, &f);
	s = only(&f, "qos.pause_storm");
	CHECK(s && s->severity == SEVERITY_WARN && strstr(s->message, "this NIC sent 1290418 pause frames") &&
	      strstr(s->message, "its own receive path is the congested one"));
	CHECK(s && s->fix && strstr(s->fix, "outbound_pci_stalled") && strstr(s->fix, "gpu.pcie_link") &&
	      strstr(s->fix, "mlnx_qos -i ens1f0np0"));
	/* pauses against no packet at all: the priority stood still */
	p.counters.rx_packets[3] = 0;
	judge(&p, 0, &f);
	s = only(&f, "qos.pause_storm");
	CHECK(s && s->severity == SEVERITY_WARN && strstr(s->message, "while it received no packet on it"));
	/* a few pause frames say nothing, whatever their share */
	p.counters.tx_pause[3] = QOS_PAUSE_MIN - 1;
	p.counters.rx_packets[3] = 10;
	judge(&p, 0, &f);
	CHECK(only(&f, "qos.pause_storm") && only(&f, "qos.pause_storm")->severity == SEVERITY_OK);
	findings_free(&f);
}

static void a_priority_without_pfc_is_not_judged_and_unread_pfc_falls_back_on_the_pauses(void)
{
	struct qos_port p = port_with(4);
	struct findings f = { 0 };

	qos_counters_take(&p.counters, "rx_prio3_pause", 15437);
	qos_counters_take(&p.counters, "tx_prio3_packets", 385237);
	judge(&p, 0, &f);
	CHECK(only(&f, "qos.pause_storm") && only(&f, "qos.pause_storm")->severity == SEVERITY_OK);
	p = port_with(-1);
	qos_counters_take(&p.counters, "rx_prio3_pause", 15437);
	qos_counters_take(&p.counters, "tx_prio3_packets", 385237);
	judge(&p, 0, &f);
	CHECK(only(&f, "qos.pause_storm") && only(&f, "qos.pause_storm")->severity == SEVERITY_WARN);
	p.counters.known = false;   /* no statistics: nothing said */
	judge(&p, 0, &f);
	CHECK(f.count == 0);
	findings_free(&f);
}

static void over_an_interval_time_paused_counts_and_only_trouble_is_said(void)
{
	struct qos_port p = port_with(3);
	struct findings f = { 0 };
	const struct finding *s;

	qos_counters_take(&p.counters, "rx_prio3_pause", 50);   /* under the interval's minimum count */
	qos_counters_take(&p.counters, "tx_prio3_packets", 1000);
	qos_counters_take(&p.counters, "rx_prio3_pause_duration", 600000);   /* 0.6 s of 2 s */
	judge(&p, 2.0, &f);
	s = only(&f, "qos.pause_storm");
	CHECK(s && s->severity == SEVERITY_WARN && strstr(s->message, "(25/s)") &&
	      strstr(s->message, "paused 30% of the time over 2.0 s"));
	p.counters.rx_pause_us[3] = 1000;
	judge(&p, 2.0, &f);
	CHECK(f.count == 0);   /* calm: counters says nothing, not even ok */
	findings_free(&f);
}

static void the_nics_storm_watchdog_is_a_storm(void)
{
	struct qos_port p = port_with(3);
	struct findings f = { 0 };
	const struct finding *s;

	qos_counters_take(&p.counters, "tx_pause_storm_warning_events", 3);
	qos_counters_take(&p.counters, "tx_pause_storm_error_events", 0);
	judge(&p, 0, &f);
	s = only(&f, "qos.pause_storm");
	CHECK(s && s->severity == SEVERITY_INFO && strstr(s->message, "stall warning mark 3 times"));
	p.counters.storm_errors = 2;
	judge(&p, 0, &f);
	s = only(&f, "qos.pause_storm");
	CHECK(s && s->severity == SEVERITY_WARN && strstr(s->message, "watchdog fired 2 times") && s->fix &&
	      strstr(s->fix, "pfc_stall_prevention"));
	findings_free(&f);
}

static void drops_on_a_lossless_priority_and_on_the_port(void)
{
	struct qos_port p = port_with(3);
	struct findings f = { 0 };
	const struct finding *d;

	qos_counters_take(&p.counters, "rx_prio3_buf_discard", 5);
	qos_counters_take(&p.counters, "rx_prio3_packets", 1000000000);   /* 5 per billion: link flaps */
	judge(&p, 0, &f);
	d = only(&f, "qos.discards");
	CHECK(d && d->severity == SEVERITY_OK);
	judge(&p, 1.0, &f);   /* over an interval, any drop on a lossless priority */
	d = only(&f, "qos.discards");
	CHECK(d && d->severity == SEVERITY_WARN && strstr(d->message, "priority 3 is lossless (PFC) but dropped 5") &&
	      d->fix && strstr(d->fix, "mlnx_qos -i ens1f0np0 --cable_len=N"));
	p.counters.rx_packets[3] = 1000;
	judge(&p, 0, &f);
	CHECK(only(&f, "qos.discards") && only(&f, "qos.discards")->severity == SEVERITY_WARN);
	/* the port's drops: 200 per million received, with PFC on */
	p.counters.prio_discards[3] = 0;
	qos_counters_take(&p.counters, "rx_discards_phy", 200);
	qos_counters_take(&p.counters, "rx_packets_phy", 1000000);
	judge(&p, 0, &f);
	d = only(&f, "qos.discards");
	CHECK(d && d->severity == SEVERITY_WARN && strstr(d->message, "dropped 200 of 1000000 received packets") &&
	      strstr(d->message, "priority 3 is lossless") && d->fix && strstr(d->fix, "check --only qos.lossless"));
	p.counters.rx_discards_phy = 50;
	judge(&p, 0, &f);
	CHECK(only(&f, "qos.discards") && only(&f, "qos.discards")->severity == SEVERITY_OK);
	p = port_with(-1);   /* no PFC known: port-wide drops are the lossy fabric's, counters shows them */
	qos_counters_take(&p.counters, "rx_discards_phy", 200);
	qos_counters_take(&p.counters, "rx_packets_phy", 1000000);
	judge(&p, 0, &f);
	CHECK(!only(&f, "qos.discards"));
	findings_free(&f);
}

int main(void)
{
	RUN(names_of_mlx5_and_ice_land_on_their_priority);
	RUN(ethtool_text_is_read_line_by_line_and_the_rest_ignored);
	RUN(ethtool_text_has_one_reader);
	RUN(counters_that_go_back_are_a_reset_not_a_huge_growth);
	RUN(pauses_received_past_one_percent_point_at_a_receiver_further_on);
	RUN(pauses_sent_point_at_this_nodes_receive_path);
	RUN(a_priority_without_pfc_is_not_judged_and_unread_pfc_falls_back_on_the_pauses);
	RUN(over_an_interval_time_paused_counts_and_only_trouble_is_said);
	RUN(the_nics_storm_watchdog_is_a_storm);
	RUN(drops_on_a_lossless_priority_and_on_the_port);
	TAP_DONE();
}
