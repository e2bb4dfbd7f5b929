// SPDX-License-Identifier: GPL-2.0-only
/* The straight line of a test's resources: device, port, PD, buffer, MR, CQs, QPs; INIT -> RTR -> RTS. */
#include "verbs/perf_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <time.h>

uint64_t perf_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int perf_mtu_enum(int bytes)
{
	for (int e = IBV_MTU_256; e <= IBV_MTU_4096; e++)
		if (128 << e == bytes)
			return e;
	return 0;
}

int perf_mtu_bytes(int mtu_enum)
{
	return mtu_enum >= IBV_MTU_256 && mtu_enum <= IBV_MTU_4096 ? 128 << mtu_enum : 0;
}

static int fail(char *err, size_t size, int ret, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Fills err with "<what>: <strerror>" and returns ret (a -errno). */
static int fail(char *err, size_t size, int ret, const char *fmt, ...)
{
	va_list ap;
	size_t len;

	va_start(ap, fmt);
	vsnprintf(err, size, fmt, ap);
	va_end(ap);
	len = strlen(err);
	snprintf(err + len, size - len, ": %s", strerror(-ret));
	return ret;
}

static int errno_or(int fallback)
{
	return errno > 0 ? -errno : -fallback;
}

static struct ibv_context *open_device(const char *name, char *err, size_t size, int *ret)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	int n = 0;

	list = ibv_get_device_list(&n);
	if (!list) {
		*ret = fail(err, size, errno_or(ENODEV), "cannot list RDMA devices");
		return NULL;
	}
	*ret = -ENODEV;
	for (int i = 0; i < n; i++) {
		if (name && strcmp(ibv_get_device_name(list[i]), name) != 0)
			continue;
		ctx = ibv_open_device(list[i]);
		if (!ctx)
			*ret = errno_or(ENODEV);
		break;
	}
	if (!ctx)
		fail(err, size, *ret, "cannot open RDMA device %s", name ? name : "(any)");
	ibv_free_device_list(list);
	return ctx;
}

static int query_port(struct perf_ctx *c, const struct perf_config *cfg, char *err, size_t size)
{
	struct ibv_device_attr dev;
	const char *name = ibv_get_device_name(c->ctx->device);
	static const uint8_t zero[16];

	if (ibv_query_device(c->ctx, &dev))
		return fail(err, size, errno_or(EIO), "ibv_query_device(%s)", name);
	if (ibv_query_port(c->ctx, (uint8_t)c->port, &c->port_attr))
		return fail(err, size, errno_or(EINVAL), "ibv_query_port(%s/%u)", name, c->port);
	if (c->port_attr.state != IBV_PORT_ACTIVE) {
		snprintf(err, size, "port %s/%u is %s, not ACTIVE: the link is down or the port is not configured "
			 "(see 'roce-doctor devices')", name, c->port, ibv_port_state_str(c->port_attr.state));
		return -ENETDOWN;
	}
	if (ibv_query_gid(c->ctx, (uint8_t)c->port, cfg->gid_index, &c->gid))
		return fail(err, size, errno_or(EINVAL), "ibv_query_gid(%s/%u index %d)", name, c->port,
			    cfg->gid_index);
	if (c->port_attr.link_layer != IBV_LINK_LAYER_INFINIBAND && memcmp(c->gid.raw, zero, 16) == 0) {
		snprintf(err, size, "GID index %d of %s/%u is empty (see 'roce-doctor gid %s')", cfg->gid_index, name,
			 c->port, name);
		return -EADDRNOTAVAIL;
	}
	if ((int)c->tx_depth > dev.max_qp_wr)
		c->tx_depth = (unsigned)dev.max_qp_wr;
	if ((int)c->rx_depth > dev.max_qp_wr)
		c->rx_depth = (unsigned)dev.max_qp_wr;
	c->max_cqe = dev.max_cqe;
	c->rd_atomic_init = (uint8_t)(dev.max_qp_init_rd_atom < 16 ? dev.max_qp_init_rd_atom : 16);
	c->rd_atomic_resp = (uint8_t)(dev.max_qp_rd_atom < 16 ? dev.max_qp_rd_atom : 16);
	return 0;
}

static int alloc_buffer(struct perf_ctx *c, char *err, size_t size)
{
	c->buf_len = PERF_SLOTS(c->qps) * c->slot_size;
	c->buf = mmap(NULL, c->buf_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c->buf == MAP_FAILED) {
		c->buf = NULL;
		return fail(err, size, errno_or(ENOMEM), "cannot allocate %zu bytes", c->buf_len);
	}
	return 0;
}

static int register_buffer(struct perf_ctx *c, char *err, size_t size)
{
	struct rlimit rl;
	int ret;

	c->mr = ibv_reg_mr(c->pd, c->buf, c->buf_len,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	if (c->mr)
		return 0;
	ret = errno_or(ENOMEM);
	if ((ret == -ENOMEM || ret == -EPERM) && getrlimit(RLIMIT_MEMLOCK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
		snprintf(err, size, "ibv_reg_mr of %zu KiB: %s (RLIMIT_MEMLOCK is %llu KiB: raise it, see "
			 "'roce-doctor check --only memlock')", c->buf_len >> 10, strerror(-ret),
			 (unsigned long long)rl.rlim_cur >> 10);
		return ret;
	}
	return fail(err, size, ret, "ibv_reg_mr of %zu KiB", c->buf_len >> 10);
}

/* PERF_ADAPTIVE_SPIN_NS, or ROCE_DOCTOR_TEST_SPIN_US: a measurement hook, how the bound was chosen (docs/bw.md). */
static uint64_t adaptive_spin_ns(void)
{
	const char *v = getenv("ROCE_DOCTOR_TEST_SPIN_US");
	char *end;
	unsigned long us = v ? strtoul(v, &end, 10) : 0;

	if (!v || end == v || *end || us > 1000000)
		return PERF_ADAPTIVE_SPIN_NS;
	return (uint64_t)us * 1000;
}

static int create_cqs(struct perf_ctx *c, enum perf_wait wait, char *err, size_t size)
{
	int send_cqe = (int)(c->qps * c->tx_depth), recv_cqe = (int)(c->qps * (c->rx_depth ? c->rx_depth : 1));

	if (wait != PERF_WAIT_POLL) {
		c->spin_ns = wait == PERF_WAIT_ADAPTIVE ? adaptive_spin_ns() : 0;
		c->channel = ibv_create_comp_channel(c->ctx);
		if (!c->channel)
			return fail(err, size, errno_or(ENOMEM), "ibv_create_comp_channel");
	}
	if (send_cqe > c->max_cqe)
		send_cqe = c->max_cqe;
	if (recv_cqe > c->max_cqe)
		recv_cqe = c->max_cqe;
	c->send_cq = ibv_create_cq(c->ctx, send_cqe, NULL, c->channel, 0);
	if (!c->send_cq)
		return fail(err, size, errno_or(ENOMEM), "ibv_create_cq(%d entries)", send_cqe);
	c->recv_cq = ibv_create_cq(c->ctx, recv_cqe, NULL, c->channel, 0);
	if (!c->recv_cq)
		return fail(err, size, errno_or(ENOMEM), "ibv_create_cq(%d entries)", recv_cqe);
	return 0;
}

/* Asks for the inline size wanted; a provider that cannot give it refuses the QP, so try again without. */
static struct ibv_qp *create_qp(struct perf_ctx *c, unsigned inline_size)
{
	struct ibv_qp_init_attr attr = {
		.send_cq = c->send_cq,
		.recv_cq = c->recv_cq,
		.cap = {
			.max_send_wr = c->tx_depth,
			.max_recv_wr = c->rx_depth ? c->rx_depth : 1,
			.max_send_sge = 1,
			.max_recv_sge = 1,
			.max_inline_data = inline_size,
		},
		.qp_type = IBV_QPT_RC,
		.sq_sig_all = 0,
	};
	struct ibv_qp *qp = ibv_create_qp(c->pd, &attr);

	if (qp && (c->inline_granted == UINT32_MAX || attr.cap.max_inline_data < c->inline_granted))
		c->inline_granted = attr.cap.max_inline_data < inline_size ? attr.cap.max_inline_data : inline_size;
	return qp;
}

static int create_qps(struct perf_ctx *c, unsigned inline_size, char *err, size_t size)
{
	c->inline_granted = UINT32_MAX;
	for (unsigned i = 0; i < c->qps; i++) {
		c->qp[i] = create_qp(c, inline_size);
		if (!c->qp[i] && inline_size) {
			inline_size = 0;
			c->qp[i] = create_qp(c, 0);
		}
		if (!c->qp[i])
			return fail(err, size, errno_or(ENOMEM), "ibv_create_qp(RC, %u send, %u receive entries)",
				    c->tx_depth, c->rx_depth);
	}
	/* One inline size for all: the first QPs may have taken more than the later ones. */
	if (c->inline_granted > inline_size)
		c->inline_granted = inline_size;
	if (getrandom(c->psn, sizeof(c->psn[0]) * c->qps, 0) != (ssize_t)(sizeof(c->psn[0]) * c->qps))
		for (unsigned i = 0; i < c->qps; i++)
			c->psn[i] = (uint32_t)perf_now_ns() * 2654435761u + i;
	for (unsigned i = 0; i < c->qps; i++)
		c->psn[i] &= 0xffffff;
	return 0;
}

static int qp_to_init(struct perf_ctx *c, unsigned i, char *err, size_t size)
{
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_INIT,
		.pkey_index = 0,
		.port_num = (uint8_t)c->port,
		.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ,
	};
	int ret = ibv_modify_qp(c->qp[i], &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);

	return ret ? fail(err, size, -ret, "QP %u to INIT", i) : 0;
}

int perf_open(const struct perf_config *cfg, struct perf_ctx **out, char *err, size_t err_size)
{
	struct perf_ctx *c;
	int ret;

	*out = NULL;
	if (cfg->qps < 1 || cfg->qps > PERF_MAX_QPS || cfg->slot_size == 0) {
		snprintf(err, err_size, "bad test resources (%u QPs)", cfg->qps);
		return -EINVAL;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	c->qps = cfg->qps;
	c->port = cfg->port ? cfg->port : 1;
	c->tx_depth = cfg->tx_depth ? cfg->tx_depth : 1;
	c->rx_depth = cfg->rx_depth;
	c->slot_size = cfg->slot_size;
	c->gid_index = cfg->gid_index;

	c->ctx = open_device(cfg->device, err, err_size, &ret);
	if (!c->ctx)
		goto out_free;
	ret = query_port(c, cfg, err, err_size);
	if (ret)
		goto out_close;
	c->pd = ibv_alloc_pd(c->ctx);
	if (!c->pd) {
		ret = fail(err, err_size, errno_or(ENOMEM), "ibv_alloc_pd");
		goto out_close;
	}
	ret = alloc_buffer(c, err, err_size);
	if (ret)
		goto out_pd;
	ret = register_buffer(c, err, err_size);
	if (ret)
		goto out_buf;
	ret = create_cqs(c, cfg->wait, err, err_size);
	if (ret)
		goto out_cqs;
	ret = create_qps(c, cfg->inline_size, err, err_size);
	if (ret)
		goto out_qps;
	for (unsigned i = 0; i < c->qps && !ret; i++)
		ret = qp_to_init(c, i, err, err_size);
	if (ret)
		goto out_qps;
	*out = c;
	return 0;

out_qps:
	for (unsigned i = 0; i < c->qps; i++)
		if (c->qp[i])
			ibv_destroy_qp(c->qp[i]);
out_cqs:
	if (c->recv_cq)
		ibv_destroy_cq(c->recv_cq);
	if (c->send_cq)
		ibv_destroy_cq(c->send_cq);
	if (c->channel)
		ibv_destroy_comp_channel(c->channel);
	ibv_dereg_mr(c->mr);
out_buf:
	munmap(c->buf, c->buf_len);
out_pd:
	ibv_dealloc_pd(c->pd);
out_close:
	ibv_close_device(c->ctx);
out_free:
	free(c);
	return ret;
}

void perf_close(struct perf_ctx *c)
{
	if (!c)
		return;
	for (unsigned i = 0; i < c->qps; i++)
		ibv_destroy_qp(c->qp[i]);
	ibv_destroy_cq(c->recv_cq);
	ibv_destroy_cq(c->send_cq);
	if (c->channel)
		ibv_destroy_comp_channel(c->channel);
	ibv_dereg_mr(c->mr);
	munmap(c->buf, c->buf_len);
	ibv_dealloc_pd(c->pd);
	ibv_close_device(c->ctx);
	free(c);
}

void perf_local_endpoint(const struct perf_ctx *c, struct perf_endpoint *ep)
{
	memset(ep, 0, sizeof(*ep));
	ep->link_layer = c->port_attr.link_layer == IBV_LINK_LAYER_INFINIBAND ? PERF_LINK_INFINIBAND
									   : PERF_LINK_ETHERNET;
	ep->mtu = (uint8_t)c->port_attr.active_mtu;
	ep->lid = c->port_attr.lid;
	ep->rd_atomic = c->rd_atomic_resp;
	memcpy(ep->gid, c->gid.raw, sizeof(ep->gid));
	ep->rkey = c->mr->rkey;
	ep->addr = (uint64_t)(uintptr_t)c->buf;
	ep->len = c->buf_len;
	ep->qps = (uint16_t)c->qps;
	for (unsigned i = 0; i < c->qps; i++) {
		ep->qpn[i] = c->qp[i]->qp_num;
		ep->psn[i] = c->psn[i];
	}
}

static int qp_to_rtr(struct perf_ctx *c, unsigned i, const struct perf_endpoint *r, int path_mtu, char *err,
		     size_t size)
{
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = (enum ibv_mtu)path_mtu,
		.dest_qp_num = r->qpn[i],
		.rq_psn = r->psn[i],
		.max_dest_rd_atomic = c->rd_atomic_resp,
		/* 0.64 ms: short, so a sender that outruns our receives loses little time (op send) */
		.min_rnr_timer = 12,
		.ah_attr = {
			.dlid = r->lid,
			.sl = 0,
			.port_num = (uint8_t)c->port,
		},
	};
	int ret;

	if (c->port_attr.link_layer != IBV_LINK_LAYER_INFINIBAND || r->lid == 0) {
		attr.ah_attr.is_global = 1;
		memcpy(attr.ah_attr.grh.dgid.raw, r->gid, sizeof(r->gid));
		attr.ah_attr.grh.sgid_index = (uint8_t)c->gid_index;
		attr.ah_attr.grh.hop_limit = 64;
	}
	ret = ibv_modify_qp(c->qp[i], &attr, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
						     IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
	return ret ? fail(err, size, -ret, "QP %u to RTR (remote QPN %u, GID index %d)", i, r->qpn[i], c->gid_index)
		   : 0;
}

static int qp_to_rts(struct perf_ctx *c, unsigned i, const struct perf_endpoint *r, char *err, size_t size)
{
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_RTS,
		.sq_psn = c->psn[i],
		/* 4.096 us * 2^14 = 67 ms per try, 7 tries: a dead peer shows as retry exceeded within a second */
		.timeout = 14,
		.retry_cnt = 7,
		.rnr_retry = 7,
		.max_rd_atomic = c->rd_atomic_init < r->rd_atomic ? c->rd_atomic_init : r->rd_atomic,
	};
	int ret = ibv_modify_qp(c->qp[i], &attr, IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
							 IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC);

	return ret ? fail(err, size, -ret, "QP %u to RTS", i) : 0;
}

int perf_connect(struct perf_ctx *c, const struct perf_endpoint *remote, int path_mtu, char *err, size_t err_size)
{
	int ret = 0;

	if (remote->qps != c->qps) {
		snprintf(err, err_size, "the peer has %u QPs, we have %u", remote->qps, c->qps);
		return -EINVAL;
	}
	c->remote = *remote;
	for (unsigned i = 0; i < c->qps && !ret; i++) {
		ret = qp_to_rtr(c, i, remote, path_mtu, err, err_size);
		if (!ret)
			ret = qp_to_rts(c, i, remote, err, err_size);
	}
	return ret;
}

uint8_t *perf_slot(struct perf_ctx *c, size_t slot)
{
	return c->buf + slot * c->slot_size;
}

size_t perf_slot_size(const struct perf_ctx *c)
{
	return c->slot_size;
}

unsigned perf_inline_granted(const struct perf_ctx *c)
{
	return c->inline_granted;
}

int perf_active_mtu(const struct perf_ctx *c)
{
	return c->port_attr.active_mtu;
}
