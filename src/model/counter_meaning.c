// SPDX-License-Identifier: GPL-2.0-only
/* The counter catalogue. Names are mlx5's (Documentation/networking/device_drivers/ethernet/mellanox/mlx5 and
 * the hw_counters of drivers/infiniband/hw/mlx5/counters.c), rxe's (drivers/infiniband/sw/rxe/rxe_hw_counters.c)
 * and the IB port counters every driver has; a pattern's '*' matches any run of characters. */
#include "model/counter_meaning.h"

#include <fnmatch.h>
#include <string.h>

struct counter_rule {
	const char *pattern;
	struct counter_meaning m;
};

#define LOSS "qos.lossless"
static const struct counter_rule rules[] = {
	/* packets lost on the path: the requester retransmitted, or the responder saw a gap */
	{ "out_of_sequence", { COUNTER_PATH_LOSS, "responder saw a packet sequence gap: packets were lost on the way", LOSS } },
	{ "out_of_seq_request", { COUNTER_PATH_LOSS, "responder saw a packet sequence gap (rxe): packets were lost", LOSS } },
	{ "packet_seq_err", { COUNTER_PATH_LOSS, "requester got a NAK for a sequence error: its packets were lost", LOSS } },
	{ "rcvd_seq_err", { COUNTER_PATH_LOSS, "requester got a sequence-error NAK (rxe): its packets were lost", LOSS } },
	{ "implied_nak_seq_err", { COUNTER_PATH_LOSS, "a response arrived out of order: responses were lost", LOSS } },
	{ "local_ack_timeout_err", { COUNTER_PATH_LOSS, "no ACK within the QP's timeout: packets or ACKs were lost", LOSS } },
	{ "completer_retry_err", { COUNTER_PATH_LOSS, "requester retransmitted after a timeout (rxe)", LOSS } },
	{ "duplicate_request", { COUNTER_PATH_LOSS, "responder got a packet again: the requester retransmitted", LOSS } },
	{ "roce_adp_retrans*", { COUNTER_PATH_LOSS, "adaptive retransmissions: packets were lost", LOSS } },
	{ "roce_slow_restart*", { COUNTER_PATH_LOSS, "retransmission slow restarts after losses", LOSS } },
	{ "req_transport_retries_exceeded", { COUNTER_PATH_LOSS, "a QP gave up after its retry count: the job saw 'retry exceeded'", LOSS } },
	{ "retry_exceeded_err", { COUNTER_PATH_LOSS, "a QP gave up after its retry count (rxe)", LOSS } },
	{ "rx_icrc_encapsulated", { COUNTER_PATH_LOSS, "RoCE packets with a bad ICRC: corrupted on the path", "port.errors" } },
	/* ECN and DCQCN */
	{ "np_ecn_marked_roce_packets", { COUNTER_ECN, "ECN-marked RoCE packets arrived: a switch queue was filling", LOSS } },
	{ "np_cnp_sent", { COUNTER_ECN, "CNPs sent back to senders: this node asked them to slow down (ECN at work)", LOSS } },
	{ "rp_cnp_handled", { COUNTER_ECN, "CNPs handled: this node slowed down on congestion (ECN at work)", LOSS } },
	{ "rp_cnp_ignored", { COUNTER_ECN, "CNPs ignored: congestion control is off for their priority", LOSS } },
	{ "*ecn_mark*", { COUNTER_ECN, "ECN-marked packets: a switch queue was filling", LOSS } },
	{ "rx_*cnp*", { COUNTER_ECN, "CNPs received: congestion control at work", LOSS } },
	/* PFC */
	{ "*pause_storm*", { COUNTER_PFC, "pause storm events: a receiver paused the link for too long", "qos.pause_storm" } },
	{ "*prio*_pause_duration", { COUNTER_PFC, "time paused on this priority", "qos.pause_storm" } },
	{ "*prio*_pause_transition", { COUNTER_PFC, "pause on/off transitions on this priority", "qos.pause_storm" } },
	{ "rx_prio*_pause", { COUNTER_PFC, "pause frames received: the switch asked this NIC to stop sending (PFC at work)", "qos.pause_storm" } },
	{ "tx_prio*_pause", { COUNTER_PFC, "pause frames sent: this NIC asked the switch to stop (PFC at work)", "qos.pause_storm" } },
	{ "*pause*", { COUNTER_PFC, "pause frames: flow control at work", "qos.pause_storm" } },
	/* the receiver's buffers */
	{ "out_of_buffer", { COUNTER_RECEIVER, "a packet came with no receive posted: the receiver ran out of posted buffers", NULL } },
	{ "rx_out_of_buffer", { COUNTER_RECEIVER, "packets dropped for no posted receive buffer", NULL } },
	{ "rnr_nak_retry_err", { COUNTER_RECEIVER, "RNR NAK retries ran out: the receiver had no buffer posted in time", NULL } },
	{ "*rnr*", { COUNTER_RECEIVER, "receiver-not-ready NAKs: the receiver had no buffer posted", NULL } },
	/* drops */
	{ "rx_discards_phy", { COUNTER_DROPS, "the port dropped packets for lack of buffer: lossy traffic on a full port", LOSS } },
	{ "tx_discards_phy", { COUNTER_DROPS, "the port dropped packets it could not send", LOSS } },
	{ "*discard*", { COUNTER_DROPS, "packets discarded", LOSS } },
	{ "*drop*", { COUNTER_DROPS, "packets dropped", LOSS } },
	{ "port_rcv_errors", { COUNTER_DROPS, "packets received with errors", "port.errors" } },
	{ "port_xmit_discards", { COUNTER_DROPS, "packets the port could not send", LOSS } },
	{ "link_downed", { COUNTER_DROPS, "the link went down", "port.state" } },
	{ "link_error_recovery", { COUNTER_DROPS, "the link retrained after errors", "port.errors" } },
	/* errors */
	{ "*access_err*", { COUNTER_ERRORS, "remote access errors: wrong rkey or a region the peer did not register", NULL } },
	{ "*invalid_request*", { COUNTER_ERRORS, "invalid requests NAKed by the responder", NULL } },
	{ "*length_err*", { COUNTER_ERRORS, "length errors: a message larger than the posted buffer", NULL } },
	{ "*cqe_err*", { COUNTER_ERRORS, "completions in error", NULL } },
	{ "*flush_err*", { COUNTER_ERRORS, "work flushed from a QP in error", NULL } },
	{ "send_err", { COUNTER_ERRORS, "sends in error (rxe)", NULL } },
	/* words other drivers (irdma, bnxt_re) use, after every name above */
	{ "*resend*", { COUNTER_PATH_LOSS, "packets resent: packets were lost", LOSS } },
	{ "*retr*", { COUNTER_PATH_LOSS, "retransmissions: packets were lost", LOSS } },
	{ "*lost*", { COUNTER_PATH_LOSS, "packets lost", LOSS } },
	{ "*timeout*", { COUNTER_PATH_LOSS, "timeouts: packets or ACKs were lost", LOSS } },
	{ "*seq*", { COUNTER_PATH_LOSS, "sequence errors: packets were lost", LOSS } },
	{ "*nak*", { COUNTER_PATH_LOSS, "NAKs from the responder", LOSS } },
	{ "*cnp*", { COUNTER_ECN, "congestion notifications: ECN at work", LOSS } },
	{ "*ecn*", { COUNTER_ECN, "ECN marks: congestion", LOSS } },
	{ "*icrc*", { COUNTER_PATH_LOSS, "packets with a bad ICRC: corrupted on the path", "port.errors" } },
	{ "*_err", { COUNTER_ERRORS, "errors", NULL } },
	{ "*_err_*", { COUNTER_ERRORS, "errors", NULL } },
	{ "*error*", { COUNTER_ERRORS, "errors", NULL } },
	{ "*bad*", { COUNTER_ERRORS, "bad packets", NULL } },
	{ "*fail*", { COUNTER_ERRORS, "failures", NULL } },
	{ "*invalid*", { COUNTER_ERRORS, "invalid requests", NULL } },
};

static const struct counter_meaning traffic = { COUNTER_TRAFFIC, "traffic", NULL };

const struct counter_meaning *counter_meaning_of(const char *name)
{
	const char *base = strncmp(name, "device/", 7) == 0 ? name + 7 : name;

	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (fnmatch(rules[i].pattern, base, 0) == 0)
			return &rules[i].m;
	return &traffic;
}

const char *counter_group_title(enum counter_group g)
{
	static const char *const titles[COUNTER_GROUPS] = {
		"traffic", "packets lost on the path", "ECN at work", "PFC at work",
		"the receiver ran out of posted buffers", "drops", "errors",
	};
	return g < COUNTER_GROUPS ? titles[g] : "traffic";
}

const char *counter_group_key(enum counter_group g)
{
	static const char *const keys[COUNTER_GROUPS] = {
		"traffic", "path_loss", "ecn", "pfc", "receiver", "drops", "errors",
	};
	return g < COUNTER_GROUPS ? keys[g] : "traffic";
}
