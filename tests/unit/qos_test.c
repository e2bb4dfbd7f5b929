// SPDX-License-Identifier: GPL-2.0-only
/* The lossless chain: dcbnl IEEE_GET replies decoded (built here as the kernel's dcbnl_ieee_fill lays them out),
 * refusals and cut-short replies said as such, and the chain from NCCL_IB_TC to a PFC priority followed. */
#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/dcbnl.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <string.h>

#include "core/qos/chain.h"
#include "core/qos/checks_qos.h"
#include "model/counter_meaning.h"
#include "model/qos_mlnx_text.h"
#include "model/qos_ofed_sysfs.h"
#include "netcfg/dcb.h"
#include "tap.h"

static const char *pastes;

static union {
	char bytes[8192];
	struct nlmsghdr align;
} buf;

struct reply_spec {
	int pfc_prio;          /* -1: PFC off everywhere */
	bool dscp_table;       /* the 64 DSCP entries mlx5 lists under trust dscp, DSCP d -> d >> 3 */
	int dscp26_prio;       /* override DSCP 26's priority; -1 keep */
	int dscp_all_prio;     /* every DSCP to this priority instead of d >> 3; 0 keeps d >> 3 (use -1..7 + 1) */
	int trust_selector;    /* apptrust's first selector; 0: no apptrust table */
	bool buffer;
};

static size_t ieee_reply(const struct reply_spec *s)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf.bytes);
	struct dcbmsg *dm;
	struct nlattr *ieee, *apps;
	struct ieee_pfc pfc = { 0 };
	struct ieee_ets ets = { 0 };
	unsigned d, p;

	nlh->nlmsg_type = RTM_GETDCB;
	dm = mnl_nlmsg_put_extra_header(nlh, sizeof(*dm));
	dm->cmd = DCB_CMD_IEEE_GET;
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, "ens1f0np0");
	ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
	for (p = 0; p < 8; p++)
		ets.prio_tc[p] = (uint8_t)p;
	ets.tc_tx_bw[0] = 50;
	ets.tc_tx_bw[3] = 50;
	mnl_attr_put(nlh, DCB_ATTR_IEEE_ETS, sizeof(ets), &ets);
	pfc.pfc_cap = 8;
	if (s->pfc_prio >= 0) {
		pfc.pfc_en = (uint8_t)(1u << s->pfc_prio);
		pfc.requests[s->pfc_prio] = 1234;
		pfc.indications[s->pfc_prio] = 99;
	}
	mnl_attr_put(nlh, DCB_ATTR_IEEE_PFC, sizeof(pfc), &pfc);
	apps = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE_APP_TABLE);
	if (s->dscp_table)
		for (d = 0; d < 64; d++) {
			struct dcb_app app = { IEEE_8021QAZ_APP_SEL_DSCP, (uint8_t)(d >> 3), (uint16_t)d };
			if (s->dscp_all_prio > 0)
				app.priority = (uint8_t)(s->dscp_all_prio - 1);
			if (d == 26 && s->dscp26_prio >= 0)
				app.priority = (uint8_t)s->dscp26_prio;
			mnl_attr_put(nlh, DCB_ATTR_IEEE_APP, sizeof(app), &app);
		}
	mnl_attr_nest_end(nlh, apps);
	if (s->buffer) {
		struct dcbnl_buffer b = { { 0, 0, 0, 1, 0, 0, 0, 0 }, { 0 }, 0 };
		mnl_attr_put(nlh, DCB_ATTR_DCB_BUFFER, sizeof(b), &b);
	}
	if (s->trust_selector) {
		struct nlattr *trust = mnl_attr_nest_start(nlh, 11);   /* DCB_ATTR_DCB_APP_TRUST_TABLE */
		mnl_attr_put_u8(nlh, s->trust_selector == 255 ? 2 : DCB_ATTR_IEEE_APP, (uint8_t)s->trust_selector);
		mnl_attr_nest_end(nlh, trust);
	}
	mnl_attr_nest_end(nlh, ieee);
	mnl_attr_put_u8(nlh, DCB_ATTR_DCBX, DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE);
	return nlh->nlmsg_len;
}

static size_t error_reply(int code)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf.bytes);
	struct nlmsgerr *err;

	nlh->nlmsg_type = NLMSG_ERROR;
	err = mnl_nlmsg_put_extra_header(nlh, sizeof(*err));
	err->error = code;
	return nlh->nlmsg_len;
}

static const struct reply_spec usual = { .pfc_prio = 3, .dscp_table = true, .dscp26_prio = -1 };

static void dcb_reply_of_a_connectx_with_pfc_on_3_decodes(void)
{
	struct qos_dcb dcb;
	unsigned prio;
	struct reply_spec s = usual;

	s.buffer = true;
	CHECK(dcb_parse_ieee(buf.bytes, ieee_reply(&s), &dcb) == 0);
	CHECK(dcb.known && dcb.pfc_known && dcb.ets_known && dcb.app_known && dcb.buffer_known && dcb.dcbx_known);
	CHECK(dcb.pfc_enabled == 0x08 && dcb.pfc_requests[3] == 1234 && dcb.pfc_indications[3] == 99);
	CHECK(dcb.prio_tc[5] == 5 && dcb.tc_bw[3] == 50);
	CHECK(dcb.app_entries == 64);
	CHECK(qos_dscp_priority(&dcb, 26, &prio) && prio == 3);
	CHECK(dcb.trust_known && dcb.trust == QOS_TRUST_DSCP && dcb.trust_source == QOS_TRUST_FROM_APP_TABLE);
	CHECK(dcb.prio_buffer[3] == 1);
}

static void dcb_apptrust_order_wins_over_the_app_table(void)
{
	struct qos_dcb dcb;
	struct reply_spec s = usual;

	s.trust_selector = 255;   /* pcp first, although DSCP entries exist */
	CHECK(dcb_parse_ieee(buf.bytes, ieee_reply(&s), &dcb) == 0);
	CHECK(dcb.trust == QOS_TRUST_PCP && dcb.trust_source == QOS_TRUST_FROM_APPTRUST);
	s.trust_selector = IEEE_8021QAZ_APP_SEL_DSCP;
	CHECK(dcb_parse_ieee(buf.bytes, ieee_reply(&s), &dcb) == 0);
	CHECK(dcb.trust == QOS_TRUST_DSCP && dcb.trust_source == QOS_TRUST_FROM_APPTRUST);
}

static void dcb_an_empty_app_table_means_trust_pcp(void)
{
	struct qos_dcb dcb;
	struct reply_spec s = usual;

	s.dscp_table = false;
	CHECK(dcb_parse_ieee(buf.bytes, ieee_reply(&s), &dcb) == 0);
	CHECK(dcb.trust == QOS_TRUST_PCP && dcb.dscp_mapped == 0);
}

static void dcb_a_driver_without_dcbnl_is_said_as_such(void)
{
	struct qos_dcb dcb;

	CHECK(dcb_parse_ieee(buf.bytes, error_reply(-EOPNOTSUPP), &dcb) == -EOPNOTSUPP);
	CHECK(!dcb.known && dcb.error == -EOPNOTSUPP);
}

static void dcb_a_reply_cut_short_is_refused(void)
{
	struct qos_dcb dcb;
	size_t len = ieee_reply(&usual);
	size_t cut;

	/* Every cut: never a crash, never a model that claims to be known with half its tables. */
	for (cut = 0; cut < len; cut++) {
		int ret = dcb_parse_ieee(buf.bytes, cut, &dcb);
		CHECK(ret < 0 && !dcb.known);
	}
	/* A PFC attribute shorter than struct ieee_pfc, inside a well-formed message. */
	{
		struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf.bytes);
		struct nlattr *ieee;
		char half[8] = { 8, 8 };

		nlh->nlmsg_type = RTM_GETDCB;
		mnl_nlmsg_put_extra_header(nlh, sizeof(struct dcbmsg));
		ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
		mnl_attr_put(nlh, DCB_ATTR_IEEE_PFC, sizeof(half), half);
		mnl_attr_nest_end(nlh, ieee);
		CHECK(dcb_parse_ieee(buf.bytes, nlh->nlmsg_len, &dcb) == -EBADMSG && !dcb.known);
	}
}

static void chain_with(const struct reply_spec *s, const char *tc, bool vlan, const char *sl, struct qos_dcb *dcb,
		       struct qos_chain *c, struct qos_port_input *in)
{
	unsigned p;

	CHECK(dcb_parse_ieee(buf.bytes, ieee_reply(s), dcb) == 0);
	memset(in, 0, sizeof(*in));
	in->dcb = dcb;
	in->forced_tc = -1;
	in->nccl_tc = tc;
	in->nccl_sl = sl;
	in->vlan = vlan;
	for (p = 0; p < QOS_PRIOS; p++)
		in->ecn[p] = QOS_UNKNOWN;
	qos_chain_follow(in, c);
}

static void chain_tc_106_lands_on_lossless_priority_3(void)
{
	struct qos_dcb dcb;
	struct qos_chain c;
	struct qos_port_input in;
	char line[256];

	chain_with(&usual, "106", false, NULL, &dcb, &c, &in);
	CHECK(c.tc == 106 && c.dscp == 26 && c.prio_known && c.prio == 3 && c.pfc == QOS_ON);
	qos_chain_describe(&in, &c, line, sizeof(line));
	CHECK_STR(line, "traffic class 106 (NCCL_IB_TC) -> DSCP 26 -> priority 3 (trust dscp, dscp map) -> PFC on, "
			"ECN unknown");
}

static void chain_nccl_default_lands_on_lossy_priority_0(void)
{
	struct qos_dcb dcb;
	struct qos_chain c;
	struct qos_port_input in;

	chain_with(&usual, NULL, false, NULL, &dcb, &c, &in);
	CHECK(c.tc == 0 && !strcmp(c.tc_from, "default") && c.prio == 0 && c.pfc == QOS_OFF);
	CHECK(qos_tc_for_priority(&dcb, 3) == 106);
	CHECK(qos_lossless_priority(&dcb) == 3);
}

static void chain_trust_pcp_without_vlan_is_priority_0(void)
{
	struct qos_dcb dcb;
	struct qos_chain c;
	struct qos_port_input in;
	struct reply_spec s = usual;

	s.dscp_table = false;
	chain_with(&s, "106", false, "3", &dcb, &c, &in);
	CHECK(c.prio_known && c.prio == 0 && !strcmp(c.prio_from, "untagged") && c.pfc == QOS_OFF);
	CHECK(qos_tc_for_priority(&dcb, 3) == -1);
	chain_with(&s, "106", true, "3", &dcb, &c, &in);
	CHECK(c.prio == 3 && c.pfc == QOS_ON);
}

static void chain_pfc_on_4_while_dscp_26_maps_to_3(void)
{
	struct qos_dcb dcb;
	struct qos_chain c;
	struct qos_port_input in;
	struct reply_spec s = usual;

	s.pfc_prio = 4;
	chain_with(&s, "106", false, NULL, &dcb, &c, &in);
	CHECK(c.prio == 3 && c.pfc == QOS_OFF);
	CHECK(qos_tc_for_priority(&dcb, 4) == (32 << 2 | 2));
}

static void chain_forced_class_wins_and_bad_values_stay_unknown(void)
{
	struct qos_dcb dcb;
	struct qos_chain c;
	struct qos_port_input in;
	char line[256];

	chain_with(&usual, "0", false, NULL, &dcb, &c, &in);
	in.forced_tc = 106;
	qos_chain_follow(&in, &c);
	CHECK(c.tc == 106 && !strcmp(c.tc_from, "forced") && c.prio == 3);
	in.forced_tc = -1;
	in.nccl_tc = "dscp26";
	qos_chain_follow(&in, &c);
	CHECK(c.tc == -1 && !c.prio_known);
	qos_chain_describe(&in, &c, line, sizeof(line));
	CHECK_STR(line, "NCCL_IB_TC=dscp26 is not a traffic class (0-255)");
	in.nccl_tc = "300";
	qos_chain_follow(&in, &c);
	CHECK(c.tc == -1);
}

static void counters_mean_what_the_fabric_did(void)
{
	CHECK(counter_meaning_of("out_of_sequence")->group == COUNTER_PATH_LOSS);
	CHECK(counter_meaning_of("duplicate_request")->group == COUNTER_PATH_LOSS);
	CHECK(counter_meaning_of("completer_retry_err")->group == COUNTER_PATH_LOSS);
	CHECK(counter_meaning_of("np_cnp_sent")->group == COUNTER_ECN);
	CHECK(counter_meaning_of("device/rp_cnp_handled")->group == COUNTER_ECN);
	CHECK(counter_meaning_of("rx_prio3_pause")->group == COUNTER_PFC);
	CHECK(counter_meaning_of("tx_pause_storm_warning_events")->group == COUNTER_PFC);
	CHECK(counter_meaning_of("out_of_buffer")->group == COUNTER_RECEIVER);
	CHECK(counter_meaning_of("rx_discards_phy")->group == COUNTER_DROPS);
	CHECK(counter_meaning_of("sent_pkts")->group == COUNTER_TRAFFIC);
	CHECK(counter_meaning_of("port_xmit_data")->group == COUNTER_TRAFFIC);
	CHECK(counter_meaning_of("req_remote_access_errors")->group == COUNTER_ERRORS);
	CHECK_STR(counter_meaning_of("local_ack_timeout_err")->check, "qos.lossless");
	CHECK_STR(counter_group_key(COUNTER_PATH_LOSS), "path_loss");
}

static bool read_mlnx_qos(const char *name, struct qos_dcb *dcb)
{
	struct mlnx_qos_reader r;
	char path[512], line[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", pastes, name);
	f = fopen(path, "r");
	CHECK(f != NULL);
	if (!f)
		return false;
	mlnx_qos_begin(&r);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		mlnx_qos_line(&r, line);
	}
	fclose(f);
	return mlnx_qos_finish(&r, dcb);
}

static void mlnx_qos_paste_of_ofed_4_2_reads_back(void)
{
	struct qos_dcb dcb;
	struct qos_port_input in = { .dcb = &dcb, .forced_tc = -1, .nccl_tc = "106" };
	struct qos_chain c;
	unsigned prio;

	for (unsigned p = 0; p < QOS_PRIOS; p++)
		in.ecn[p] = QOS_UNKNOWN;
	CHECK(read_mlnx_qos("mlnx_qos-ofed42-dscp-pfc0267.txt", &dcb));
	CHECK(dcb.known && dcb.trust == QOS_TRUST_DSCP && dcb.trust_source == QOS_TRUST_FROM_MLNX_QOS);
	CHECK(dcb.pfc_known && dcb.pfc_enabled == 0xc5);
	CHECK(qos_dscp_priority(&dcb, 26, &prio) && prio == 3);
	CHECK(dcb.ets_known && dcb.prio_tc[1] == 0 && dcb.prio_tc[0] == 1 && dcb.tc_bw[7] == 40);
	CHECK(dcb.tc_tsa[6] == 0 /* strict */ && dcb.dcbx_known);
	qos_chain_follow(&in, &c);
	CHECK(c.prio == 3 && c.pfc == QOS_OFF);
	{
		char line[256];   /* docs/lossless.md quotes this line */
		qos_chain_describe(&in, &c, line, sizeof(line));
		CHECK_STR(line, "traffic class 106 (NCCL_IB_TC) -> DSCP 26 -> priority 3 (trust dscp, dscp map) -> PFC off, "
				"ECN unknown");
	}
}

static void mlnx_qos_reader_refuses_other_text(void)
{
	struct mlnx_qos_reader r;
	struct qos_dcb dcb;

	mlnx_qos_begin(&r);
	CHECK(!mlnx_qos_line(&r, "NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE"));
	CHECK(!mlnx_qos_line(&r, "prio:9 dscp:01"));
	CHECK(!mlnx_qos_line(&r, "prio:1 dscp:99"));
	CHECK(!mlnx_qos_finish(&r, &dcb));
	mlnx_qos_begin(&r);
	CHECK(mlnx_qos_line(&r, "Priority trust state: pcp"));
	CHECK(!mlnx_qos_finish(&r, &dcb));   /* no PFC table: not enough to judge */
}

/* One port whose netdev answered dcbnl as spec says; the findings check_qos gives it under job. */
static void audit(const struct reply_spec *spec, bool vlan, const struct qos_job *job, struct findings *f)
{
	struct qos_port port = { .device = "mlx5_0", .port = 1, .netdev = "ens1f0np0", .forced_tc = -1,
				 .default_roce_tos = -1, .vlan = vlan };
	struct qos_host host = { &port, 1 };

	for (unsigned p = 0; p < QOS_PRIOS; p++)
		port.ecn[p] = QOS_UNKNOWN;
	if (spec)
		CHECK(dcb_parse_ieee(buf.bytes, ieee_reply(spec), &port.dcb) == 0);
	else
		dcb_parse_ieee(buf.bytes, error_reply(-EOPNOTSUPP), &port.dcb);
	findings_clear(f);
	check_qos(&host, job, f);
}

static const struct finding *find(const struct findings *f, const char *id)
{
	for (size_t i = 0; i < f->count; i++)
		if (!strcmp(f->items[i].id, id))
			return &f->items[i];
	return NULL;
}

static void audit_tc_106_on_pfc_3_is_lossless(void)
{
	struct findings f = { 0 };
	struct qos_job job = { .tc = "106", .tc_source = "environment" };
	const struct finding *l;

	audit(&usual, false, &job, &f);
	l = find(&f, "qos.lossless");
	CHECK(l && l->severity == SEVERITY_OK && strstr(l->message, "priority 3") && strstr(l->message, "lossless"));
	CHECK(findings_worst(&f) == SEVERITY_OK);
	findings_free(&f);
}

static void audit_tc_unset_rides_lossy_priority_0(void)
{
	struct findings f = { 0 };
	struct qos_job job = { .tc = NULL };
	const struct finding *l;

	audit(&usual, false, &job, &f);
	l = find(&f, "qos.lossless");
	CHECK(l && l->severity == SEVERITY_WARN && strstr(l->message, "NCCL_IB_TC unset") && strstr(l->message, "priority 0"));
	CHECK(l && l->fix && !strncmp(l->fix, "export NCCL_IB_TC=106", 21));
	findings_free(&f);
}

static void audit_trust_pcp_without_vlan_says_so(void)
{
	struct findings f = { 0 };
	struct qos_job job = { .tc = "106", .tc_source = "environment" };
	struct reply_spec s = usual;
	const struct finding *l, *t;

	s.dscp_table = false;
	audit(&s, false, &job, &f);
	l = find(&f, "qos.lossless");
	t = find(&f, "qos.trust_pcp_untagged");
	CHECK(l && l->severity == SEVERITY_WARN && strstr(l->message, "untagged"));
	CHECK(t && t->severity == SEVERITY_WARN && t->fix && strstr(t->fix, "--trust dscp"));
	audit(&s, true, &(struct qos_job){ .tc = "106", .tc_source = "environment", .sl = "3" }, &f);
	CHECK(find(&f, "qos.lossless")->severity == SEVERITY_OK && !find(&f, "qos.trust_pcp_untagged"));
	findings_free(&f);
}

static void audit_pfc_on_4_while_dscp_26_maps_to_3(void)
{
	struct findings f = { 0 };
	struct qos_job job = { .tc = "106", .tc_source = "environment" };
	struct reply_spec s = usual;
	const struct finding *l;

	s.pfc_prio = 4;
	audit(&s, false, &job, &f);
	l = find(&f, "qos.lossless");
	CHECK(l && l->severity == SEVERITY_WARN && strstr(l->message, "priority 4 is lossless"));
	CHECK(l && l->fix && !strncmp(l->fix, "export NCCL_IB_TC=130", 21));   /* DSCP 32 -> 4 */
	findings_free(&f);
}

static void audit_no_pfc_no_ecn_gives_both_fixes(void)
{
	struct findings f = { 0 };
	struct qos_job job = { .tc = "106", .tc_source = "environment" };
	struct reply_spec s = usual;
	const struct finding *l;

	s.pfc_prio = -1;
	audit(&s, false, &job, &f);
	l = find(&f, "qos.lossless");
	CHECK(l && l->severity == SEVERITY_WARN && strstr(l->message, "neither lossless"));
	CHECK(l && l->fix && strstr(l->fix, "dcb pfc set dev ens1f0np0 prio-pfc 3:on") &&
	      strstr(l->fix, "mlnx_qos -i ens1f0np0 --pfc 0,0,0,1,0,0,0,0 --trust dscp"));
	findings_free(&f);
}

static void audit_pfc_on_a_priority_no_dscp_reaches(void)
{
	struct findings f = { 0 };
	struct qos_job job = { .tc = "106", .tc_source = "environment" };
	struct reply_spec s = usual;

	const struct finding *u;

	s.pfc_prio = 4;
	audit(&s, false, &job, &f);
	CHECK(!find(&f, "qos.pfc_unmapped"));   /* DSCP 32-39 reach 4 by the default map */
	s.dscp_all_prio = 3 + 1;                 /* every DSCP to 3: nothing reaches 4 */
	audit(&s, false, &job, &f);
	u = find(&f, "qos.pfc_unmapped");
	CHECK(u && u->severity == SEVERITY_WARN && strstr(u->message, "PFC is on priority 4 but no DSCP maps to it"));
	CHECK(u && u->fix && strstr(u->fix, "dscp-prio 26:4"));
	findings_free(&f);
}

static void audit_driver_without_dcbnl_is_said_as_such(void)
{
	struct findings f = { 0 };
	struct qos_job job = { .tc = NULL };
	const struct finding *l;

	audit(NULL, false, &job, &f);
	l = find(&f, "qos.lossless");
	CHECK(l && l->severity == SEVERITY_OK && strstr(l->message, "the driver has no dcbnl"));
	findings_free(&f);
}

/* MLNX_OFED's qos/ files in the layouts of mlx5_core's en_sysfs.c (mlx5e_show_prio2buffer, mlx5e_show_buffer_size),
 * the sizes those of tests/fixtures/qos-ofed-sysfs. */
static const char prio2buffer_all_0[] = "Priority\tBuffer\n0\t\t0\n1\t\t0\n2\t\t0\n3\t\t0\n4\t\t0\n5\t\t0\n6\t\t0\n7\t\t0\n";
static const char buffer_sizes[] = "Port buffer size = 262016\nSpare buffer size = 147072\n"
				   "Buffer\tSize\txoff_threshold\txon_threshold\n0\t0\t0\t\t0\n1\t114944\t91392\t\t81408\n"
				   "2\t0\t0\t\t0\n3\t0\t0\t\t0\n4\t0\t0\t\t0\n5\t0\t0\t\t0\n6\t0\t0\t\t0\n7\t0\t0\t\t0\n";

static void ofed_sysfs_texts_read_back(void)
{
	struct qos_dcb d;

	memset(&d, 0, sizeof(d));
	CHECK(qos_ofed_prio2buffer("Priority\tBuffer\n0\t\t0\n1\t\t0\n2\t\t0\n3\t\t1\n4\t\t0\n5\t\t0\n6\t\t0\n7\t\t0\n", &d));
	CHECK(d.buffer_known && d.prio_buffer[3] == 1 && d.prio_buffer[0] == 0);
	CHECK(qos_ofed_buffer_size(buffer_sizes, &d));
	CHECK(d.buffer_size_known && d.buffer_xoff_known && d.buffer_size[1] == 114944 && d.buffer_xoff[1] == 91392 &&
	      d.buffer_size[0] == 0 && d.port_buffer_size == 262016 && d.spare_buffer_size == 147072);
	CHECK(qos_buffer_lossless(&d, 1) && !qos_buffer_lossless(&d, 0));
	/* half a table, a ninth buffer, a priority twice, a row with text: refused, the model as it was */
	memset(&d, 0, sizeof(d));
	CHECK(!qos_ofed_prio2buffer("Priority\tBuffer\n0\t\t0\n1\t\t0\n", &d) && !d.buffer_known);
	CHECK(!qos_ofed_prio2buffer("0 0\n1 0\n2 0\n3 9\n4 0\n5 0\n6 0\n7 0\n", &d) && !d.buffer_known);
	CHECK(!qos_ofed_prio2buffer("0 0\n0 0\n2 0\n3 0\n4 0\n5 0\n6 0\n7 0\n", &d) && !d.buffer_known);
	CHECK(!qos_ofed_buffer_size("Buffer\tSize\n0\t0\t0\t0\n1\t5\tx\t0\n", &d) && !d.buffer_size_known);
	CHECK(!qos_ofed_buffer_size("0\t0\t0\t\t0\n1\t114944\t91392\t\t81408\n", &d) && !d.buffer_size_known);
	CHECK(qos_ofed_trust("dscp\n") == QOS_TRUST_DSCP && qos_ofed_trust("pcp") == QOS_TRUST_PCP &&
	      qos_ofed_trust("dscpx") == QOS_TRUST_UNKNOWN);
}

static void buffer_audit(const char *prio2buffer, const char *sizes, struct findings *f)
{
	struct qos_port port = { .device = "mlx5_0", .port = 1, .netdev = "ens1f0np0", .forced_tc = -1,
				 .default_roce_tos = -1 };
	struct qos_host host = { &port, 1 };
	struct qos_job job = { .tc = "106", .tc_source = "environment" };

	for (unsigned p = 0; p < QOS_PRIOS; p++)
		port.ecn[p] = QOS_UNKNOWN;
	CHECK(dcb_parse_ieee(buf.bytes, ieee_reply(&usual), &port.dcb) == 0);
	CHECK(qos_ofed_prio2buffer(prio2buffer, &port.dcb));
	if (sizes)
		CHECK(qos_ofed_buffer_size(sizes, &port.dcb));
	findings_clear(f);
	check_qos(&host, &job, f);
}

static void audit_pfc_priority_in_a_buffer_without_bytes(void)
{
	struct findings f = { 0 };
	const struct finding *b;
	char sizes[512];

	/* priority 3 (PFC) in buffer 0, which has no bytes, while buffer 1 pauses: move the priority */
	buffer_audit(prio2buffer_all_0, buffer_sizes, &f);
	b = find(&f, "qos.pfc_buffer");
	CHECK(b && b->severity == SEVERITY_WARN && strstr(b->message, "PFC priority 3 lands in receive buffer 0, which has no bytes"));
	CHECK(b && b->fix && strstr(b->fix, "mlnx_qos -i ens1f0np0 --prio2buffer 0,0,0,1,0,0,0,0 ") &&
	      strstr(b->fix, "dcb buffer set dev ens1f0np0 prio-buffer 3:1 "));
	/* no buffer pauses (buffer 1 lossy too): buffer 0 gets the spare bytes */
	snprintf(sizes, sizeof(sizes), "%s", buffer_sizes);
	memcpy(strstr(sizes, "91392"), "00000", 5);
	buffer_audit(prio2buffer_all_0, sizes, &f);
	b = find(&f, "qos.pfc_buffer");
	CHECK(b && b->severity == SEVERITY_WARN && b->fix &&
	      strstr(b->fix, "mlnx_qos -i ens1f0np0 --buffer_size 147072,114944,0,0,0,0,0,0 ") &&
	      strstr(b->fix, "dcb buffer set dev ens1f0np0 buffer-size 0:147072 "));
	/* no spare and the port full: half of the largest buffer no PFC priority uses */
	memcpy(strstr(sizes, "147072"), "000000", 6);
	memcpy(strstr(sizes, "262016"), "114944", 6);
	buffer_audit(prio2buffer_all_0, sizes, &f);
	b = find(&f, "qos.pfc_buffer");
	CHECK(b && b->fix && strstr(b->fix, "--buffer_size 57472,57472,0,0,0,0,0,0 ") && strstr(b->fix, "from lossy buffer 1"));
	/* priority 3 in buffer 1, as the driver puts it: ok */
	buffer_audit("0 0\n1 0\n2 0\n3 1\n4 0\n5 0\n6 0\n7 0\n", buffer_sizes, &f);
	b = find(&f, "qos.pfc_buffer");
	CHECK(b && b->severity == SEVERITY_OK && strstr(b->message, "priority 3 in buffer 1 (114944 bytes, xoff at 91392)"));
	/* the map without the sizes: nothing said */
	buffer_audit(prio2buffer_all_0, NULL, &f);
	CHECK(!find(&f, "qos.pfc_buffer"));
	findings_free(&f);
}

int main(int argc, char **argv)
{
	pastes = argc > 1 ? argv[1] : "tests/pastes";
	RUN(dcb_reply_of_a_connectx_with_pfc_on_3_decodes);
	RUN(dcb_apptrust_order_wins_over_the_app_table);
	RUN(dcb_an_empty_app_table_means_trust_pcp);
	RUN(dcb_a_driver_without_dcbnl_is_said_as_such);
	RUN(dcb_a_reply_cut_short_is_refused);
	RUN(chain_tc_106_lands_on_lossless_priority_3);
	RUN(chain_nccl_default_lands_on_lossy_priority_0);
	RUN(chain_trust_pcp_without_vlan_is_priority_0);
	RUN(chain_pfc_on_4_while_dscp_26_maps_to_3);
	RUN(chain_forced_class_wins_and_bad_values_stay_unknown);
	RUN(counters_mean_what_the_fabric_did);
	RUN(mlnx_qos_paste_of_ofed_4_2_reads_back);
	RUN(mlnx_qos_reader_refuses_other_text);
	RUN(audit_tc_106_on_pfc_3_is_lossless);
	RUN(audit_tc_unset_rides_lossy_priority_0);
	RUN(audit_trust_pcp_without_vlan_says_so);
	RUN(audit_pfc_on_4_while_dscp_26_maps_to_3);
	RUN(audit_no_pfc_no_ecn_gives_both_fixes);
	RUN(audit_pfc_on_a_priority_no_dscp_reaches);
	RUN(audit_driver_without_dcbnl_is_said_as_such);
	RUN(ofed_sysfs_texts_read_back);
	RUN(audit_pfc_priority_in_a_buffer_without_bytes);
	TAP_DONE();
}
