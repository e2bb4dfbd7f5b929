// SPDX-License-Identifier: GPL-2.0-only
/* What people paste about a RoCE port's QoS, read back: iproute2 dcb's text (the published pastes in
 * tests/pastes) and its -j JSON, each value range-checked and a malformed document refused whole; and the
 * paste reader that tells the blocks apart in a stream. */
#include <errno.h>
#include <jansson.h>
#include <linux/dcbnl.h>
#include <stdio.h>
#include <string.h>

#include "core/log/paste_scan.h"
#include "model/qos_dcb_json.h"
#include "model/qos_dcb_text.h"
#include "tap.h"

static const char *pastes;

/* Every line of a file of tests/pastes through dcb_text_line; how many were dcb's. */
static int read_paste(const char *name, struct qos_dcb *dcb)
{
	char path[512], line[1024];
	int taken = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", pastes, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		taken += dcb_text_line(dcb, line);
	}
	fclose(f);
	dcb_settings_finish(dcb);
	return taken;
}

static void dcb_text_pfc_of_the_man_page(void)
{
	struct qos_dcb dcb = { 0 };

	CHECK(read_paste("dcb-pfc-man-eth0.txt", &dcb) == 2);
	CHECK(dcb.known && dcb.pfc_known && dcb.pfc_enabled == 0xc0 && dcb.pfc_cap == 8);
	CHECK(!dcb.trust_known);
}

static void dcb_text_old_pg_pfc_with_pause_counters(void)
{
	struct qos_dcb dcb = { 0 };

	CHECK(read_paste("dcb-pfc-stats-eni1np1.txt", &dcb) == 4);
	CHECK(dcb.pfc_known && dcb.pfc_enabled == ((1u << 1) | (1u << 7)));
	CHECK(dcb.pfc_requests[1] == 217 && dcb.pfc_requests[7] == 28);
	CHECK(dcb.pfc_indications[1] == 179 && dcb.pfc_indications[7] == 18);
}

static void dcb_text_ets_and_buffer(void)
{
	struct qos_dcb dcb = { 0 };

	CHECK(read_paste("dcb-ets-eni1np1.txt", &dcb) == 8);
	CHECK(dcb.ets_known && dcb.prio_tc[0] == 1 && dcb.prio_tc[1] == 3 && dcb.prio_tc[2] == 5 && dcb.prio_tc[7] == 0);
	CHECK(dcb.tc_bw[4] == 100 && dcb.tc_tsa[4] == IEEE_8021QAZ_TSA_ETS && dcb.tc_tsa[0] == IEEE_8021QAZ_TSA_STRICT);
	memset(&dcb, 0, sizeof(dcb));
	CHECK(read_paste("dcb-buffer-eni1np1.txt", &dcb) == 3);
	CHECK(dcb.buffer_known && dcb.prio_buffer[3] == 3 && dcb.prio_buffer[6] == 6 && dcb.prio_buffer[0] == 0);
}

/* The APP table by DSCP name; the last replace leaves CS3 (24) on 5; mlx5 trusts dscp once it has entries. */
static void dcb_text_app_table_by_name(void)
{
	struct qos_dcb dcb = { 0 };
	unsigned prio;

	CHECK(read_paste("dcb-app-eni1np1.txt", &dcb) == 3);
	CHECK(dcb.app_known && qos_dscp_priority(&dcb, 24, &prio) && prio == 5);
	CHECK(qos_dscp_priority(&dcb, 48, &prio) && prio == 6 && qos_dscp_priority(&dcb, 0, &prio) && prio == 0);
	CHECK(dcb.trust_known && dcb.trust == QOS_TRUST_DSCP && dcb.trust_source == QOS_TRUST_FROM_APP_TABLE);
	CHECK(dcb_dscp_by_name("AF31", 4) == 26 && dcb_dscp_by_name("EF", 2) == 46 && dcb_dscp_by_name("63", 2) == 63);
	CHECK(dcb_dscp_by_name("64", 2) == -1 && dcb_dscp_by_name("AF99", 4) == -1);
}

static void dcb_text_apptrust_and_dcbx(void)
{
	struct qos_dcb dcb = { 0 };

	CHECK(read_paste("dcb-apptrust-man-eth0.txt", &dcb) == 1);
	CHECK(dcb.trust_known && dcb.trust == QOS_TRUST_UNKNOWN && dcb.trust_source == QOS_TRUST_FROM_APPTRUST);
	CHECK(dcb_text_line(&dcb, "order: dscp pcp") && dcb.trust == QOS_TRUST_DSCP);
	CHECK(dcb_text_line(&dcb, "host ieee") && dcb.dcbx_known && dcb.dcbx == (DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE));
}

/* A value out of range, a key past 7, a word that is not a pair: the line is refused and stores nothing. */
static void dcb_text_refuses_out_of_range(void)
{
	struct qos_dcb dcb = { 0 };

	CHECK(!dcb_text_line(&dcb, "prio-pfc 0:off 8:on"));
	CHECK(!dcb_text_line(&dcb, "prio-pfc 0:off 3:maybe"));
	CHECK(!dcb_text_line(&dcb, "prio-tc 0:8"));
	CHECK(!dcb_text_line(&dcb, "tc-bw 0:101"));
	CHECK(!dcb_text_line(&dcb, "dscp-prio 64:3"));
	CHECK(!dcb_text_line(&dcb, "dscp-prio 26:3 27"));
	CHECK(!dcb_text_line(&dcb, "requests 0:99999999999999999999999"));
	CHECK(!dcb_text_line(&dcb, "NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE"));
	CHECK(!dcb.pfc_known && !dcb.ets_known && !dcb.app_known && dcb.dscp_mapped == 0);
}

static int read_json(const char *text, struct qos_dcb *dcb, char *why, size_t len)
{
	json_t *doc = json_loads(text, 0, NULL);
	int rc = doc ? dcb_json_read(doc, dcb, why, len) : -EINVAL;

	json_decref(doc);
	return rc;
}

static void dcb_json_as_dcb_prints_it(void)
{
	struct qos_dcb dcb = { 0 };
	char why[160];
	unsigned prio;

	CHECK(read_json("{\"pfc_cap\":8,\"macsec_bypass\":false,\"delay\":4096,"
			"\"prio_pfc\":[false,false,false,true,false,false,false,false],"
			"\"requests\":[0,0,0,1234,0,0,0,0],\"indications\":[0,0,0,99,0,0,0,0]}", &dcb, why, sizeof(why)) == 0);
	CHECK(dcb.pfc_known && dcb.pfc_enabled == 0x08 && dcb.pfc_requests[3] == 1234 && dcb.pfc_indications[3] == 99);
	CHECK(read_json("{\"dscp_prio\":[[0,0,\" \"],[26,3,\" \"],[24,4,\" \"]],\"pcp_prio\":[[\"1nd\",1,\" \"]]}", &dcb,
			why, sizeof(why)) == 0);
	CHECK(dcb.app_known && dcb.app_entries == 4 && qos_dscp_priority(&dcb, 26, &prio) && prio == 3);
	CHECK(read_json("{\"order\":[\"pcp\",\"dscp\"]}", &dcb, why, sizeof(why)) == 0);
	CHECK(dcb.trust_known && dcb.trust == QOS_TRUST_PCP);
	CHECK(read_json("{\"willing\":true,\"ets_cap\":8,\"cbs\":false,\"tc_bw\":[0,0,0,50,50,0,0,0],"
			"\"tc_tsa\":[\"strict\",\"strict\",\"strict\",\"ets\",\"ets\",\"strict\",\"strict\",\"strict\"],"
			"\"prio_tc\":[0,1,2,3,4,5,6,7]}", &dcb, why, sizeof(why)) == 0);
	CHECK(dcb.ets_known && dcb.prio_tc[7] == 7 && dcb.tc_bw[3] == 50 && dcb.tc_tsa[3] == IEEE_8021QAZ_TSA_ETS);
}

/* A malformed member refuses the whole document, naming the member; another tool's JSON is not dcb's. */
static void dcb_json_malformed_refused_whole(void)
{
	struct qos_dcb dcb = { 0 }, before;
	char why[160] = "";

	CHECK(read_json("{\"prio_pfc\":[false,false,false,true,false,false,false,false]}", &dcb, why, sizeof(why)) == 0);
	before = dcb;
	CHECK(read_json("{\"prio_tc\":[0,1,2,3,4,5,6,7],\"prio_pfc\":[true,false]}", &dcb, why, sizeof(why)) == -EBADMSG);
	CHECK_STR(why, "prio_pfc: expected an array of 8 values");
	CHECK(read_json("{\"dscp_prio\":[[64,3,\" \"]]}", &dcb, why, sizeof(why)) == -EBADMSG);
	CHECK_STR(why, "dscp_prio[0]: expected [DSCP 0-63, priority]");
	CHECK(read_json("{\"tc_bw\":[0,0,0,0,0,0,0,101]}", &dcb, why, sizeof(why)) == -EBADMSG);
	CHECK_STR(why, "tc_bw[7]: expected 0-100");
	CHECK(memcmp(&dcb, &before, sizeof(dcb)) == 0);
	CHECK(read_json("{\"ifname\":\"eth0\",\"mtu\":9000}", &dcb, why, sizeof(why)) == -ENOENT);
	CHECK(read_json("[1,2,3]", &dcb, why, sizeof(why)) == -ENOENT);
}

/* A stream mixing a NCCL line, a prompt, mlnx_qos, dcb text and ethtool lines: each to its port. */
static void paste_scan_tells_blocks_apart(void)
{
	static const char *const lines[] = {
		"node-a:1:1 [0] NCCL INFO NCCL_IB_TC set by environment to 106.",
		"$ dcb pfc show dev eth3",
		"pfc-cap 8 macsec-bypass off delay 0",
		"prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off",
		"root@node-a:~# ethtool -S eth3 | grep pause",
		"     rx_prio3_pause: 77",
		"     tx_prio3_pause: 5",
		"[root@node-a ~]# mlnx_qos -i eth2",
		"DCBX mode: OS controlled",
		"Priority trust state: pcp",
		"PFC configuration:",
		"priority 0 1 2 3 4 5 6 7",
		"enabled 0 0 0 1 0 0 0 0",
	};
	struct paste_scan *ps;
	struct qos_host q;
	const char *tc, *sl;
	bool taken[sizeof(lines) / sizeof(lines[0])];

	CHECK(paste_scan_init(&ps) == 0);
	if (!ps)
		return;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		taken[i] = paste_scan_line(ps, lines[i], strlen(lines[i]), i + 1);
	paste_scan_end_file(ps);
	CHECK(!taken[0] && taken[1] && taken[3] && taken[5] && taken[9] && taken[12]);
	CHECK(paste_scan_model(ps, &q, &tc, &sl) == 0);
	CHECK_STR(tc, "106");
	CHECK(q.count == 2);
	for (size_t i = 0; i < q.count; i++) {
		if (!strcmp(q.ports[i].netdev, "eth3"))
			CHECK(q.ports[i].dcb.pfc_enabled == 0x08 && !q.ports[i].dcb.trust_known &&
			      q.ports[i].dcb.pfc_indications[3] == 77 && q.ports[i].dcb.pfc_requests[3] == 5);
		else
			CHECK(!strcmp(q.ports[i].netdev, "eth2") && q.ports[i].dcb.trust == QOS_TRUST_PCP &&
			      q.ports[i].dcb.pfc_enabled == 0x08);
	}
	CHECK(ps->counters.count == 2 && paste_counter_worth(&ps->counters.items[0]));
	qos_host_free(&q);
	paste_scan_free(ps);
}

/* A paste cut at every byte: never more ports than the bound, never a crash; a whole line stays readable. */
static void paste_scan_cut_anywhere(void)
{
	static const char text[] = "$ dcb -j pfc show dev eth0\n{\"pfc_cap\":8,\"prio_pfc\":[false,false,false,true,"
				   "false,false,false,false]}\n";
	size_t len = strlen(text), named = (size_t)(strstr(text, "\"pfc_cap\"") + 9 - text);

	for (size_t cut = 0; cut <= len; cut++) {
		struct paste_scan *ps;
		struct findings f = { 0 };
		char line[256];
		size_t at = 0, n = 0;

		if (paste_scan_init(&ps) != 0)
			return;
		while (at < cut) {
			size_t l = strcspn(text + at, "\n");
			if (at + l > cut)
				l = cut - at;
			snprintf(line, sizeof(line), "%.*s", (int)l, text + at);
			paste_scan_line(ps, line, l, ++n);
			at += l + 1;
		}
		paste_scan_end_file(ps);
		CHECK(ps->port_count <= PASTE_PORTS_MAX && paste_scan_judge(ps, &f) == 0);
		if (cut >= len - 1)
			CHECK(f.count == 1 && f.items[0].severity == SEVERITY_INFO);   /* PFC on 3, trust not pasted */
		else if (cut >= named)
			CHECK(ps->note_count == 1 && f.count == 1);   /* cut short once it names a member: said */
		else
			CHECK(f.count == 0);
		findings_free(&f);
		paste_scan_free(ps);
	}
}

/* Every line of a file of tests/pastes, then lines, through one paste_scan; the findings of its ports. */
static void scan_file_and(struct paste_scan *ps, const char *name, const char *const *lines, size_t n, struct findings *f)
{
	char path[512], line[1024];
	unsigned long number = 0;
	FILE *file;

	snprintf(path, sizeof(path), "%s/%s", pastes, name);
	file = fopen(path, "r");
	CHECK(file != NULL);
	while (file && fgets(line, sizeof(line), file)) {
		line[strcspn(line, "\n")] = '\0';
		number++;
		if (line[strspn(line, " \t")])
			paste_scan_line(ps, line, strlen(line), number);
	}
	if (file)
		fclose(file);
	for (size_t i = 0; i < n; i++)
		paste_scan_line(ps, lines[i], strlen(lines[i]), ++number);
	paste_scan_end_file(ps);
	CHECK(paste_scan_judge(ps, f) == 0);
}

static const struct finding *finding_of(const struct findings *f, const char *id)
{
	for (size_t i = 0; i < f->count; i++)
		if (!strcmp(f->items[i].id, id))
			return &f->items[i];
	return NULL;
}

/* /proc/net/vlan pasted beside mlnx_qos -i of its parent, trust pcp and PFC on 3: the empty egress map sends PCP 0,
 * said with the egress-qos-map that fixes it; the VLAN is no longer "untagged". Mapped to 3: ok. */
static void paste_vlan_egress_map_against_pfc(void)
{
	static const char *const mlnx[] = {
		"$ mlnx_qos -i eth1", "DCBX mode: OS controlled", "Priority trust state: pcp", "PFC configuration:",
		"priority 0 1 2 3 4 5 6 7", "enabled 0 0 0 1 0 0 0 0",
	};
	static const char *const mapped[] = {
		"$ mlnx_qos -i eth1", "DCBX mode: OS controlled", "Priority trust state: pcp", "PFC configuration:",
		"priority 0 1 2 3 4 5 6 7", "enabled 0 0 0 1 0 0 0 0",
		"$ cat /proc/net/vlan/eth1.100", "eth1.100  VID: 100\t REORDER_HDR: 1  dev->priv_flags: 1001",
		"Device: eth1", "INGRESS priority mappings: 0:0  1:0  2:0  3:0  4:0  5:0  6:0 7:0",
		" EGRESS priority mappings: 0:3 1:3 2:3 3:3 4:3 5:3 6:3 7:3 ",
	};
	struct findings f = { 0 };
	const struct finding *v;
	struct paste_scan *ps;
	struct qos_host q;
	const char *tc, *sl;

	CHECK(paste_scan_init(&ps) == 0);
	if (!ps)
		return;
	scan_file_and(ps, "proc-net-vlan-eth1.100.txt", mlnx, sizeof(mlnx) / sizeof(mlnx[0]), &f);
	CHECK(paste_scan_model(ps, &q, &tc, &sl) == 0 && q.count == 1);
	CHECK(q.count == 1 && q.ports[0].vlan && !strcmp(q.ports[0].vlan_netdev, "eth1.100") && q.ports[0].vlan_egress_known &&
	      !strcmp(q.ports[0].netdev, "eth1"));
	qos_host_free(&q);
	v = finding_of(&f, "qos.vlan_egress");
	CHECK(v && v->severity == SEVERITY_WARN && strstr(v->message, "leave the VLAN eth1.100 with PCP 0") &&
	      strstr(v->message, "empty: every skb priority leaves with PCP 0"));
	CHECK(v && v->fix && strstr(v->fix, "ip link set dev eth1.100 type vlan egress-qos-map 0:3 1:3 2:3 3:3 4:3 5:3 6:3 7:3 ") &&
	      strstr(v->fix, "export NCCL_IB_SL=3"));
	CHECK(!finding_of(&f, "qos.trust_pcp_untagged"));
	v = finding_of(&f, "qos.lossless");   /* NCCL's own PCP: NCCL_IB_SL, unset */
	CHECK(v && v->severity == SEVERITY_WARN && v->fix && !strncmp(v->fix, "export NCCL_IB_SL=3 ", 20));
	findings_free(&f);
	paste_scan_free(ps);

	CHECK(paste_scan_init(&ps) == 0);
	if (!ps)
		return;
	scan_file_and(ps, "proc-net-vlan-eth1.100.txt", mapped, sizeof(mapped) / sizeof(mapped[0]), &f);
	v = finding_of(&f, "qos.vlan_egress");
	CHECK(v && v->severity == SEVERITY_OK && strstr(v->message, "leave with PCP 3"));
	findings_free(&f);
	paste_scan_free(ps);
}

int main(int argc, char **argv)
{
	pastes = argc > 1 ? argv[1] : "tests/pastes";
	RUN(dcb_text_pfc_of_the_man_page);
	RUN(dcb_text_old_pg_pfc_with_pause_counters);
	RUN(dcb_text_ets_and_buffer);
	RUN(dcb_text_app_table_by_name);
	RUN(dcb_text_apptrust_and_dcbx);
	RUN(dcb_text_refuses_out_of_range);
	RUN(dcb_json_as_dcb_prints_it);
	RUN(dcb_json_malformed_refused_whole);
	RUN(paste_scan_tells_blocks_apart);
	RUN(paste_scan_cut_anywhere);
	RUN(paste_vlan_egress_map_against_pfc);
	TAP_DONE();
}
