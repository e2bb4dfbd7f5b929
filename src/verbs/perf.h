// SPDX-License-Identifier: GPL-2.0-only
/* The RDMA side of bw, lat and serve: one device context, one registered buffer, N RC queue pairs, and the
 * loops that move data through them. Knows nothing of the network protocol that carries the endpoints. */
#ifndef ROCE_DOCTOR_PERF_H
#define ROCE_DOCTOR_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PERF_MAX_QPS 64
#define PERF_MAX_DEPTH 1024
#define PERF_MAX_INLINE 1024

enum perf_op { PERF_OP_WRITE = 1, PERF_OP_READ = 2, PERF_OP_SEND = 3 };
enum perf_link { PERF_LINK_ETHERNET = 1, PERF_LINK_INFINIBAND = 2 };

/* How the bandwidth loop waits while nothing has completed: spinning on the CQ (perftest's default, right
 * for a NIC), asleep on a completion event (Soft-RoCE and siw, whose "NIC" is the kernel on the same CPUs:
 * a spinning loop takes CPU from the very softirq work it waits for), or adaptive: spinning for a bounded
 * time after the last completion (the next one often comes that soon, and a sleep and wake-up cost more than
 * the wait), then asleep. lat always spins. */
enum perf_wait { PERF_WAIT_POLL = 0, PERF_WAIT_EVENT = 1, PERF_WAIT_ADAPTIVE = 2 };

/* How long the adaptive wait spins after the last completion before it sleeps (docs/bw.md: --wait). */
#define PERF_ADAPTIVE_SPIN_NS 50000u

/* Everything a peer needs to reach our queue pairs and memory. Plain integers: it travels on the wire. */
struct perf_endpoint {
	uint8_t link_layer;          /* enum perf_link */
	uint8_t mtu;                 /* IBV_MTU_* (1..5) of the port's active MTU */
	uint16_t lid;                /* InfiniBand only */
	uint8_t rd_atomic;           /* RDMA READs we accept in flight per QP (responder resources) */
	uint8_t gid[16];
	uint32_t rkey;
	uint64_t addr, len;          /* the whole registered buffer */
	uint16_t qps;
	uint32_t qpn[PERF_MAX_QPS];
	uint32_t psn[PERF_MAX_QPS];
};

/*
 * The buffer has the same layout on both sides, in slots of slot_size bytes:
 *   slot 0: what we send in every iteration but the last (the "bulk" pattern)
 *   slot 1: what we send in the last iteration (the pattern the receiver checks)
 *   slot 2+i: where queue pair i receives (written into, read into, or receive buffers)
 */
#define PERF_SLOT_BULK 0
#define PERF_SLOT_FINAL 1
#define PERF_SLOTS(qps) (2 + (size_t)(qps))

struct perf_config {
	const char *device;
	unsigned port;
	int gid_index;
	unsigned qps;
	unsigned tx_depth;           /* send queue entries per QP */
	unsigned rx_depth;           /* receive queue entries per QP; 0: no receives (write, read) */
	unsigned inline_size;        /* asked for; perf_inline_granted() says what the QP took */
	size_t slot_size;
	enum perf_wait wait;         /* for perf_bw */
};

struct perf_ctx;

/* Opens the device and sets up PD, buffer, MR, CQs and QPs in INIT. 0 or -errno, with err naming the step. */
int perf_open(const struct perf_config *cfg, struct perf_ctx **out, char *err, size_t err_size);
/* Releases everything perf_open and perf_connect acquired; NULL is fine. */
void perf_close(struct perf_ctx *ctx);

void perf_local_endpoint(const struct perf_ctx *ctx, struct perf_endpoint *ep);
/* INIT -> RTR -> RTS against remote, at path_mtu (IBV_MTU_*). 0 or -errno with err. */
int perf_connect(struct perf_ctx *ctx, const struct perf_endpoint *remote, int path_mtu, char *err,
		 size_t err_size);

/* Tops every QP's receive queue up to rx_depth; before the peer may send. 0 or -errno with err. */
int perf_post_receives(struct perf_ctx *ctx, char *err, size_t err_size);

uint8_t *perf_slot(struct perf_ctx *ctx, size_t slot);
size_t perf_slot_size(const struct perf_ctx *ctx);
unsigned perf_inline_granted(const struct perf_ctx *ctx);
/* The port's active MTU as IBV_MTU_* */
int perf_active_mtu(const struct perf_ctx *ctx);

/* A failed work completion, as the engine saw it first. */
struct perf_wc_error {
	int status;                  /* enum ibv_wc_status */
	int opcode;                  /* enum ibv_wc_opcode */
	unsigned qp;                 /* our QP index */
	uint32_t vendor_err;
	bool receive;                /* from the receive queue */
};

/* What the loops report while they run, and what a tick may change. */
struct perf_progress {
	bool tx_done;                /* this side posted and completed everything it sends */
	uint64_t rx_expected;        /* messages each QP must receive (op send); UINT64_MAX while unknown */
	uint64_t rx_min;             /* the fewest messages received on any QP so far */
	uint64_t tx_iters;           /* per QP, once tx_done */
	uint64_t iter;               /* lat: iterations done */
};

/* Called about once a millisecond and when tx finishes. A negative return aborts the loop with it
 * (the tick explains itself); a positive one counts as progress for the stall timeout. */
typedef int (*perf_tick_fn)(void *arg, struct perf_progress *p);

struct perf_bw_run {
	enum perf_op op;
	size_t size;
	uint64_t iters;              /* per QP; 0: run for duration_ns */
	uint64_t duration_ns;
	bool initiate;               /* this side posts the writes/reads/sends */
	bool receive;                /* this side takes the peer's sends (op send) */
	uint64_t stall_ns;           /* no completion and no tick progress for this long: -ETIMEDOUT */
	perf_tick_fn tick;
	void *arg;
};

struct perf_bw_result {
	uint64_t iters;              /* per QP, every one completed */
	uint64_t bytes;              /* all QPs */
	uint64_t ns;                 /* first post to last completion */
	double peak_bytes_per_s;
	uint64_t received;           /* per QP (op send) */
	struct perf_wc_error wc;     /* when -EIO */
};

/* Bandwidth run. 0; -EIO on a failed completion (result->wc); -ETIMEDOUT on a stall; a tick's error;
 * other -errno from posting, with err filled. */
int perf_bw(struct perf_ctx *ctx, const struct perf_bw_run *run, struct perf_bw_result *result, char *err,
	    size_t err_size);

struct perf_lat_run {
	size_t size;                 /* >= 1: the last byte carries the iteration mark */
	uint64_t iters;
	bool initiate;               /* ping (measures) or pong */
	uint64_t stall_ns;
	uint64_t *rtt_ns;            /* iters entries, filled by the initiator */
	perf_tick_fn tick;
	void *arg;
};

/* RDMA-write ping-pong on QP 0: slot FINAL goes out, slot 2 comes in. Same returns as perf_bw. */
int perf_lat(struct perf_ctx *ctx, const struct perf_lat_run *run, struct perf_wc_error *wc, char *err,
	     size_t err_size);

/* The rail probe on QP 0 (after perf_connect): an RDMA WRITE of size bytes from slot FINAL into the peer's QP 0
 * slot, then an RDMA READ of them back into our QP 0 slot; the caller fills and compares. 0; -EIO with wc;
 * -ETIMEDOUT when a completion did not come within timeout_ns; other -errno from posting, with err. */
int perf_write_read(struct perf_ctx *ctx, size_t size, uint64_t timeout_ns, struct perf_wc_error *wc, char *err,
		    size_t err_size);

/* ibv_wc_status_str, and what the status usually means between two RoCE nodes. */
const char *perf_wc_status_name(int status);
const char *perf_wc_explain(int status);
/* What a software RDMA device (rxe, siw) adds to that, or NULL. */
const char *perf_wc_explain_software(int status);
const char *perf_op_name(enum perf_op op);
const char *perf_wait_name(enum perf_wait wait);   /* "poll", "event", "adaptive" */

/* Path MTU bytes -> IBV_MTU_* (0 when not one of 256..4096), and back. */
int perf_mtu_enum(int bytes);
int perf_mtu_bytes(int mtu_enum);

/* Monotonic nanoseconds. */
uint64_t perf_now_ns(void);

#endif
