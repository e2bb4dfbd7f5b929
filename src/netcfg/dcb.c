// SPDX-License-Identifier: GPL-2.0-only
/* One request builder and one reply callback for dcbnl's IEEE_GET; nested attributes checked against the size
 * of the kernel structure they carry before any field is read. */
#include "netcfg/dcb.h"
#include "netcfg/nl_reply.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/dcbnl.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <string.h>
#include <time.h>

/* Newer than Debian 12's kernel headers (6.1): the apptrust table of kernel 6.2, whose entries carry the
 * selector in an attribute of type IEEE_APP, or DCB_APP for the PCP selector (255). */
#define DCB_ATTR_DCB_APP_TRUST_TABLE_ 11
#define DCB_ATTR_DCB_APP_ 2
#define DCB_APP_SEL_PCP_ 255
#define DCB_APPS_MAX 1024   /* a table longer than this is not a real NIC's (mlx5 lists 64 DSCP entries) */

struct dcb_reply {
	struct qos_dcb *dcb;
	int error;          /* first malformed attribute: -EBADMSG */
	bool seen;          /* a DCB message came */
};

static int attr_needs(const struct nlattr *attr, size_t size)
{
	return mnl_attr_get_payload_len(attr) >= size ? 0 : -EBADMSG;
}

static int on_app(const struct nlattr *attr, void *data)
{
	struct dcb_reply *r = data;
	const struct dcb_app *app;

	if (mnl_attr_get_type(attr) != DCB_ATTR_IEEE_APP)
		return MNL_CB_OK;
	if (attr_needs(attr, sizeof(*app)) < 0) {
		r->error = -EBADMSG;
		return MNL_CB_ERROR;
	}
	if (++r->dcb->app_entries > DCB_APPS_MAX) {
		r->error = -EBADMSG;
		return MNL_CB_ERROR;
	}
	app = mnl_attr_get_payload(attr);
	if (app->selector == IEEE_8021QAZ_APP_SEL_DSCP && app->protocol < QOS_DSCPS && app->priority < QOS_PRIOS) {
		r->dcb->dscp_mapped |= UINT64_C(1) << app->protocol;
		r->dcb->dscp_prio[app->protocol] = app->priority;
	}
	return MNL_CB_OK;
}

/* The first trusted selector decides how a RoCE packet is classified: dscp or pcp; any other first selector
 * (ethertype, ports) leaves the trust unknown for RoCE's purpose. */
static int on_trust(const struct nlattr *attr, void *data)
{
	struct dcb_reply *r = data;
	int type = mnl_attr_get_type(attr);
	uint8_t sel;

	if (type != DCB_ATTR_IEEE_APP && type != DCB_ATTR_DCB_APP_)
		return MNL_CB_OK;
	if (attr_needs(attr, 1) < 0) {
		r->error = -EBADMSG;
		return MNL_CB_ERROR;
	}
	if (r->dcb->trust_source == QOS_TRUST_FROM_APPTRUST)
		return MNL_CB_OK;   /* later selectors rank below the first */
	sel = mnl_attr_get_u8(attr);
	r->dcb->trust_known = true;
	r->dcb->trust_source = QOS_TRUST_FROM_APPTRUST;
	r->dcb->trust = sel == IEEE_8021QAZ_APP_SEL_DSCP ? QOS_TRUST_DSCP
		      : sel == DCB_APP_SEL_PCP_ ? QOS_TRUST_PCP : QOS_TRUST_UNKNOWN;
	return MNL_CB_OK;
}

static int on_ieee(const struct nlattr *attr, void *data)
{
	struct dcb_reply *r = data;
	struct qos_dcb *dcb = r->dcb;

	switch (mnl_attr_get_type(attr)) {
	case DCB_ATTR_IEEE_PFC: {
		/* a copy: netlink aligns payloads to 4 bytes and ieee_pfc's counters are 8-byte words (fuzz_netlink) */
		struct ieee_pfc pfc;
		if (attr_needs(attr, sizeof(pfc)) < 0)
			goto bad;
		memcpy(&pfc, mnl_attr_get_payload(attr), sizeof(pfc));
		dcb->pfc_known = true;
		dcb->pfc_enabled = pfc.pfc_en;
		dcb->pfc_cap = pfc.pfc_cap;
		memcpy(dcb->pfc_requests, pfc.requests, sizeof(dcb->pfc_requests));
		memcpy(dcb->pfc_indications, pfc.indications, sizeof(dcb->pfc_indications));
		break;
	}
	case DCB_ATTR_IEEE_ETS: {
		const struct ieee_ets *ets;
		if (attr_needs(attr, sizeof(*ets)) < 0)
			goto bad;
		ets = mnl_attr_get_payload(attr);
		dcb->ets_known = true;
		memcpy(dcb->prio_tc, ets->prio_tc, QOS_PRIOS);
		memcpy(dcb->tc_bw, ets->tc_tx_bw, QOS_PRIOS);
		memcpy(dcb->tc_tsa, ets->tc_tsa, QOS_PRIOS);
		break;
	}
	case DCB_ATTR_IEEE_APP_TABLE:
		dcb->app_known = true;
		if (mnl_attr_parse_nested(attr, on_app, r) != MNL_CB_OK)
			goto bad;
		break;
	case DCB_ATTR_DCB_BUFFER: {
		const struct dcbnl_buffer *b;
		if (attr_needs(attr, sizeof(*b)) < 0)
			goto bad;
		b = mnl_attr_get_payload(attr);
		dcb->buffer_known = true;
		memcpy(dcb->prio_buffer, b->prio2buffer, QOS_PRIOS);
		/* the sizes too (no thresholds: those are MLNX_OFED's qos/buffer_size only); all zero is a driver that
		 * fills the map but not the sizes, not eight empty buffers */
		for (unsigned i = 0; i < QOS_PRIOS; i++) {
			dcb->buffer_size[i] = b->buffer_size[i];
			dcb->buffer_size_known |= b->buffer_size[i] > 0;
		}
		dcb->port_buffer_size = b->total_size;
		break;
	}
	case DCB_ATTR_DCB_APP_TRUST_TABLE_:
		if (mnl_attr_parse_nested(attr, on_trust, r) != MNL_CB_OK)
			goto bad;
		break;
	default:
		break;   /* peer settings, maxrate, QCN: not part of the chain */
	}
	return MNL_CB_OK;
bad:
	r->error = -EBADMSG;
	return MNL_CB_ERROR;
}

static int on_top(const struct nlattr *attr, void *data)
{
	struct dcb_reply *r = data;

	switch (mnl_attr_get_type(attr)) {
	case DCB_ATTR_IEEE:
		if (mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0 || mnl_attr_parse_nested(attr, on_ieee, r) != MNL_CB_OK) {
			r->error = -EBADMSG;
			return MNL_CB_ERROR;
		}
		break;
	case DCB_ATTR_DCBX:
		if (mnl_attr_validate(attr, MNL_TYPE_U8) < 0) {
			r->error = -EBADMSG;
			return MNL_CB_ERROR;
		}
		r->dcb->dcbx_known = true;
		r->dcb->dcbx = mnl_attr_get_u8(attr);
		break;
	default:
		break;
	}
	return MNL_CB_OK;
}

static int on_reply(const struct nlmsghdr *nlh, void *data)
{
	struct dcb_reply *r = data;

	if (nlh->nlmsg_type != RTM_GETDCB || nlh->nlmsg_len < NLMSG_LENGTH(sizeof(struct dcbmsg)))
		return MNL_CB_OK;
	r->seen = true;
	if (mnl_attr_parse(nlh, sizeof(struct dcbmsg), on_top, r) != MNL_CB_OK) {
		if (!r->error)
			r->error = -EBADMSG;
		return MNL_CB_ERROR;
	}
	return MNL_CB_STOP;   /* IEEE_GET answers with one message and no NLMSG_DONE */
}

/* mlx5 (upstream) keeps no apptrust: it turns trust dscp on with the first DSCP APP entry and off with the
 * last, so DSCP entries in the table are how it says "trust dscp". */
static void trust_from_app_table(struct qos_dcb *dcb)
{
	if (dcb->trust_known || !dcb->app_known)
		return;
	dcb->trust_known = true;
	dcb->trust_source = QOS_TRUST_FROM_APP_TABLE;
	dcb->trust = dcb->dscp_mapped ? QOS_TRUST_DSCP : QOS_TRUST_PCP;
}

int dcb_parse_ieee(const void *buf, size_t len, struct qos_dcb *dcb)
{
	struct dcb_reply r = { .dcb = dcb };
	int ret;

	memset(dcb, 0, sizeof(*dcb));
	if (len >= sizeof(struct nlmsghdr)) {
		struct nlmsghdr first;
		memcpy(&first, buf, sizeof(first));
		if (first.nlmsg_len > len) {   /* the kernel's message did not all arrive */
			dcb->error = -EBADMSG;
			return -EBADMSG;
		}
	}
	errno = 0;
	ret = nl_reply_run(buf, len, 0, 0, on_reply, &r);
	if (ret < 0 || r.error) {
		int err = r.error ? r.error : errno ? -errno : -EPROTO;
		memset(dcb, 0, sizeof(*dcb));
		dcb->error = err;
		return err;
	}
	if (!r.seen) {
		memset(dcb, 0, sizeof(*dcb));
		dcb->error = -ENODATA;
		return -ENODATA;
	}
	dcb->known = true;
	trust_from_app_table(dcb);
	return 0;
}

int dcb_query(const char *ifname, struct qos_dcb *dcb)
{
	/* IEEE_GET's reply is one message of a few hundred bytes (64 APP entries are 512); a fixed size, since
	 * MNL_SOCKET_BUFFER_SIZE is a sysconf() call and cannot size a union member */
	union {
		char bytes[16384];
		struct nlmsghdr align;
	} buf;
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	struct dcbmsg *dm;
	ssize_t n;
	int ret;

	memset(dcb, 0, sizeof(*dcb));
	if (strlen(ifname) >= IF_NAMESIZE)
		return dcb->error = -EINVAL;
	nl = mnl_socket_open(NETLINK_ROUTE);
	if (!nl)
		return dcb->error = -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		ret = -errno;
		goto out;
	}
	nlh = mnl_nlmsg_put_header(buf.bytes);
	nlh->nlmsg_type = RTM_GETDCB;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = 0;   /* the parser checks sequence 0, as for a captured reply */
	dm = mnl_nlmsg_put_extra_header(nlh, sizeof(*dm));
	dm->dcb_family = AF_UNSPEC;
	dm->cmd = DCB_CMD_IEEE_GET;
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, ifname);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		ret = -errno;
		goto out;
	}
	n = mnl_socket_recvfrom(nl, buf.bytes, sizeof(buf.bytes));
	if (n < 0) {
		ret = -errno;
		goto out;
	}
	ret = dcb_parse_ieee(buf.bytes, (size_t)n, dcb);
out:
	mnl_socket_close(nl);
	if (ret < 0)
		dcb->error = ret;
	return ret;
}
