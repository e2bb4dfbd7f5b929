// SPDX-License-Identifier: GPL-2.0-only
/* What explain finds pasted among a log's lines: the outputs people paste about a RoCE port's QoS
 * (`mlnx_qos -i IF`, `dcb ... show` text and `dcb -j` JSON, `cma_roce_tos` and the sysfs and configfs files
 * behind it, `ibdev2netdev` and `rdma link` to name the ports) and its counters (`ethtool -S IF` whole or
 * grepped, `rdma statistic show`). Each line is offered as it streams; blocks are told apart by the
 * command lines pasted with them and by their own shapes, never by assuming a file is one format. The
 * result is the lossless chain's model (model/qos.h) of each pasted port and the job's NCCL_IB_TC, judged by
 * the same rules check runs (core/qos), so a host nobody can log in to is judged from its pastes. Memory is
 * bounded whatever the input. */
#ifndef ROCE_DOCTOR_LOG_PASTE_SCAN_H
#define ROCE_DOCTOR_LOG_PASTE_SCAN_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/findings.h"
#include "core/log/paste_counters.h"
#include "model/qos.h"
#include "model/qos_mlnx_text.h"
#include "util/notes.h"

#define PASTE_PORTS_MAX 16
#define PASTE_BLOCKS_MAX 64
#define PASTE_NOTES_MAX 8
#define PASTE_JSON_MAX (64 * 1024)   /* one dcb -j document; dcb prints a few hundred bytes */

enum paste_kind {
	PASTE_MLNX_QOS, PASTE_DCB, PASTE_DCB_JSON, PASTE_ETHTOOL, PASTE_RDMA_STATISTIC, PASTE_SYSFS, PASTE_PORT_MAP,
	PASTE_NCCL_ENV, PASTE_VLAN, PASTE_KINDS
};

struct paste_block {
	enum paste_kind kind;
	int port;
	unsigned long line;          /* its first line, within its file */
	unsigned long lines;         /* lines of it read */
};

struct paste_port {
	char netdev[IF_NAMESIZE];    /* "" until a command line, ibdev2netdev or rdma link names it */
	char device[64];
	unsigned port;               /* 0 until named */
	struct qos_dcb dcb;          /* what dcb text and JSON said */
	struct mlnx_qos_reader mlnx; /* what mlnx_qos -i said, read when the paste ends */
	unsigned long mlnx_line;
	bool json_bad;               /* a dcb -j document for it was cut short or malformed */
	int forced_tc;               /* tc/N/traffic_class; -1 not pasted */
	int default_roce_tos;        /* rdma_cm's; -1 not pasted */
	enum qos_tristate ecn[QOS_PRIOS];
	char vlan_netdev[IF_NAMESIZE];   /* a VLAN on it (/proc/net/vlan), "" none pasted */
	bool vlan_egress_known;
	uint8_t vlan_egress[QOS_PRIOS];  /* its EGRESS priority mappings: skb priority -> PCP */
	bool used;
};

/* One VLAN as /proc/net/vlan/config lists it: its parent names the port it belongs to. */
struct paste_vlan {
	char name[IF_NAMESIZE];
	char parent[IF_NAMESIZE];
};

#define PASTE_VLANS_MAX 16

struct paste_scan {
	struct paste_port ports[PASTE_PORTS_MAX];   /* [0]: the port of blocks pasted before any names one */
	size_t port_count;
	int current;                 /* the port the next unnamed block belongs to */
	struct paste_block blocks[PASTE_BLOCKS_MAX];
	size_t block_count;
	unsigned long blocks_more;
	bool block_open;             /* the last line offered was pasted: a block goes on */
	enum { EXPECT_NONE, EXPECT_ETHTOOL, EXPECT_VALUE } expect;   /* what the last command line announced */
	char value_path[256];        /* EXPECT_VALUE: the sysfs or configfs file whose value comes next */
	int stat_port;               /* rdma statistic: the link whose counters continue on the next lines; -1 */
	char *json;                  /* a dcb -j document being gathered; NULL when none */
	size_t json_len;
	int json_depth;
	bool json_string, json_escape;
	unsigned long json_line;
	struct paste_vlan vlans[PASTE_VLANS_MAX];
	size_t vlan_count;
	char vlan_block[IF_NAMESIZE];    /* the VLAN whose /proc/net/vlan/IF lines go on; "" none */
	char vlan_parent[IF_NAMESIZE];   /* its "Device:" line */
	struct paste_counters counters;
	char nccl_tc[24], nccl_sl[24];   /* "" when no line set them */
	unsigned long nccl_tc_line;
	char notes[PASTE_NOTES_MAX][200];
	size_t note_count;
	unsigned long lines;         /* lines taken as pasted */
	unsigned long line_base;     /* see log_scan: numbers count within a file */
};

/* 0 or -ENOMEM. */
int paste_scan_init(struct paste_scan **out);
void paste_scan_free(struct paste_scan *ps);

/* One non-blank line (no newline) and its number within its file: whether it was taken as pasted. */
bool paste_scan_line(struct paste_scan *ps, const char *line, size_t len, unsigned long number);
/* A file ended: a dcb -j document still open was cut short. */
void paste_scan_end_file(struct paste_scan *ps);

/* Whether anything was pasted. */
bool paste_scan_any(const struct paste_scan *ps);

/* The pasted ports as the lossless chain's model (ports that stated nothing about QoS left out), and the
 * job's NCCL_IB_TC and NCCL_IB_SL; q's ports are allocated (qos_host_free). 0 or -ENOMEM. */
int paste_scan_model(const struct paste_scan *ps, struct qos_host *q, const char **tc, const char **sl);

/* What the pastes leave out that the lossless chain needs (a port's PFC settings, its trust mode), one line
 * each naming what to paste. */
void paste_scan_missing(const struct paste_scan *ps, struct notes *out);

/* The findings check's lossless rules give on the pasted ports (check_qos). 0 or -ENOMEM. */
int paste_scan_judge(const struct paste_scan *ps, struct findings *out);

const char *paste_kind_name(enum paste_kind kind);   /* "mlnx_qos", "dcb", "dcb -j", "ethtool -S" ... */

#endif
