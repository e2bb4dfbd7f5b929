// SPDX-License-Identifier: GPL-2.0-only
/* The lossless chain's model: what a netdev's DCB settings are (PFC, ETS, the APP table, trust, DCBX, the
 * buffer map), each with whether it is known, so a rule can tell "off" from "not read". Types and pure
 * accessors only: netcfg and probe fill it, core decides from it. */
#ifndef ROCE_DOCTOR_MODEL_QOS_H
#define ROCE_DOCTOR_MODEL_QOS_H

#include <stdbool.h>
#include <stdint.h>

#include <net/if.h>
#include <stddef.h>

#define QOS_PRIOS 8
#define QOS_DSCPS 64
#define QOS_PORTS_MAX 256

enum qos_tristate { QOS_UNKNOWN = -1, QOS_OFF = 0, QOS_ON = 1 };

/* How packets are classified to a priority on receive and, for RoCE, which field the NIC marks on send:
 * trust pcp reads the VLAN tag's PCP (an untagged frame is priority 0), trust dscp reads the IP header. */
enum qos_trust { QOS_TRUST_UNKNOWN, QOS_TRUST_PCP, QOS_TRUST_DSCP };

/* Where the trust mode was read: the apptrust table (kernel 6.2+), the APP table's DSCP entries (mlx5 turns
 * trust dscp on with the first DSCP entry and lists all 64 while it is on), MLNX_OFED's sysfs, or the text of
 * `mlnx_qos -i IF` (a paste, or a capture under --root). */
enum qos_trust_source { QOS_TRUST_FROM_NONE, QOS_TRUST_FROM_APPTRUST, QOS_TRUST_FROM_APP_TABLE,
			QOS_TRUST_FROM_SYSFS, QOS_TRUST_FROM_MLNX_QOS };

struct qos_dcb {
	/* dcbnl answered at all; dcb_error is the -errno when it did not (-EOPNOTSUPP: the driver has no
	 * dcbnl, as virtio-net and the netdev under rxe) */
	bool known;
	int error;
	bool pfc_known;
	uint8_t pfc_enabled;                 /* bit p: PFC on priority p */
	uint8_t pfc_cap;                     /* priorities the port can make lossless at once */
	uint64_t pfc_requests[QOS_PRIOS];    /* pause frames sent per priority (the port asked to pause) */
	uint64_t pfc_indications[QOS_PRIOS]; /* pause frames received per priority */
	bool ets_known;
	uint8_t prio_tc[QOS_PRIOS];          /* priority -> traffic class */
	uint8_t tc_bw[QOS_PRIOS];            /* traffic class -> percent */
	uint8_t tc_tsa[QOS_PRIOS];           /* IEEE_8021QAZ_TSA_* */
	bool app_known;
	uint64_t dscp_mapped;                /* bit d: the APP table maps DSCP d */
	uint8_t dscp_prio[QOS_DSCPS];        /* DSCP -> priority where mapped */
	unsigned app_entries;                /* all APP entries, every selector */
	bool trust_known;
	enum qos_trust trust;
	enum qos_trust_source trust_source;
	bool dcbx_known;
	uint8_t dcbx;                        /* DCB_CAP_DCBX_* bits */
	bool buffer_known;
	uint8_t prio_buffer[QOS_PRIOS];      /* priority -> receive buffer */
	/* The receive buffers themselves (MLNX_OFED's qos/buffer_size, dcbnl's buffer sizes): the buffer a PFC
	 * priority lands in needs room and an xoff threshold, or the port drops before it ever sends a pause. */
	bool buffer_size_known;
	uint32_t buffer_size[QOS_PRIOS];     /* receive buffer -> bytes */
	bool buffer_xoff_known;              /* MLNX_OFED's sysfs only: dcbnl has no thresholds */
	uint32_t buffer_xoff[QOS_PRIOS];     /* fill in bytes at which the port sends pause; 0: the buffer is lossy */
	uint32_t port_buffer_size;           /* all buffers together, bytes; 0 unknown */
	uint32_t spare_buffer_size;          /* what no buffer holds yet, bytes; 0 unknown or none */
};

/* The netdev's per-priority counters that say what PFC did (the driver statistics `ethtool -S IF` prints), read
 * once: since the driver started counting, or, in counters, the growth between two readings. mlx5's names
 * (rx_prio3_pause ...) and ice's (tx_priority_3_xoff.nic ...); a group the driver does not have stays absent. */
enum qos_counter_group {
	QOS_CTR_PACKETS = 1 << 0,            /* rx/tx_prioN_packets */
	QOS_CTR_PAUSE = 1 << 1,              /* rx/tx_prioN_pause, ice's rx/tx_priority_N_xoff */
	QOS_CTR_DURATION = 1 << 2,           /* rx/tx_prioN_pause_duration, microseconds */
	QOS_CTR_PRIO_DISCARD = 1 << 3,       /* rx_prioN_buf_discard, _cong_discard, _discards */
	QOS_CTR_PHY = 1 << 4,                /* rx_packets_phy and rx_discards_phy */
	QOS_CTR_STORM = 1 << 5,              /* tx_pause_storm_warning_events / _error_events */
};

struct qos_counters {
	bool known;                          /* the statistics were read (live, or a capture under --root) */
	int error;                           /* -errno when not: -EOPNOTSUPP no driver statistics, -ENOENT none captured */
	unsigned present;                    /* enum qos_counter_group bits the driver has */
	uint64_t rx_packets[QOS_PRIOS], tx_packets[QOS_PRIOS];
	uint64_t rx_pause[QOS_PRIOS];        /* pause frames received: the link partner asked us to stop */
	uint64_t tx_pause[QOS_PRIOS];        /* pause frames sent: our receive buffer was filling */
	uint64_t rx_pause_us[QOS_PRIOS], tx_pause_us[QOS_PRIOS];
	uint64_t prio_discards[QOS_PRIOS];   /* received packets dropped on that priority */
	uint64_t rx_packets_phy, rx_discards_phy;
	uint64_t storm_warnings, storm_errors;
};

/* One RoCE port's side of the chain: its netdev's DCB settings and what the RDMA stack adds on top. */
struct qos_port {
	char device[64];
	unsigned port;
	char netdev[IF_NAMESIZE];
	struct qos_dcb dcb;
	int forced_tc;                       /* sys/class/infiniband/DEV/tc/PORT/traffic_class; -1 none */
	int default_roce_tos;                /* rdma_cm's configfs default_roce_tos; -1 unknown (rdma_cm users only) */
	bool vlan;                           /* the netdev is a VLAN: RoCE frames carry a PCP */
	char vlan_netdev[IF_NAMESIZE];       /* that VLAN: netdev itself, or (explain's pastes) a VLAN on it; "" none */
	/* The VLAN's egress QoS map (/proc/net/vlan/IF, "EGRESS priority mappings"): skb priority -> PCP, 0 where
	 * unmapped. rdma_cm takes its SL, and so the PCP, from it (the ToS's skb priority); NCCL sets NCCL_IB_SL. */
	bool vlan_egress_known;
	uint8_t vlan_egress[QOS_PRIOS];
	enum qos_tristate ecn[QOS_PRIOS];    /* ECN reaction point per priority (MLNX_OFED ecn/roce_rp/enable/N) */
	struct qos_counters counters;
};

struct qos_host {
	struct qos_port *ports;
	size_t count;
};

void qos_host_free(struct qos_host *q);

const char *qos_trust_name(enum qos_trust trust);             /* "pcp", "dscp", "unknown" */
const char *qos_trust_source_name(enum qos_trust_source src); /* "apptrust", "app table", "sysfs", "none" */

/* Whether DSCP d is mapped, and to which priority. */
bool qos_dscp_priority(const struct qos_dcb *dcb, unsigned dscp, unsigned *prio);

/* Whether receive buffer b can hold a PFC priority's packets: it has bytes, and (where the thresholds are known) an
 * xoff threshold, so the port pauses the sender before the buffer overflows. True when the sizes are not known. */
bool qos_buffer_lossless(const struct qos_dcb *dcb, unsigned b);

#endif
