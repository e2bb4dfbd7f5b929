// SPDX-License-Identifier: GPL-2.0-only
/* One request builder and one reply callback for RDMA_NLDEV_CMD_PORT_GET, attributes checked by type. */
#include "netcfg/rdma_netlink.h"
#include "netcfg/nl_reply.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <rdma/rdma_netlink.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NL_PORTS_MAX 1024

struct port_dump {
	struct rdma_nl_port *ports;
	size_t count;
};

static const enum mnl_attr_data_type port_attr_types[RDMA_NLDEV_ATTR_MAX] = {
	[RDMA_NLDEV_ATTR_DEV_NAME] = MNL_TYPE_NUL_STRING,
	[RDMA_NLDEV_ATTR_PORT_INDEX] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_NDEV_INDEX] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_NDEV_NAME] = MNL_TYPE_NUL_STRING,
};

static int collect_attr(const struct nlattr *attr, void *data)
{
	const struct nlattr **table = data;
	int type = mnl_attr_get_type(attr);

	if (type <= 0 || type >= RDMA_NLDEV_ATTR_MAX || port_attr_types[type] == MNL_TYPE_UNSPEC)
		return MNL_CB_OK;   /* attributes we do not use, including ones newer than our headers */
	if (mnl_attr_validate(attr, port_attr_types[type]) < 0)
		return MNL_CB_ERROR;
	table[type] = attr;
	return MNL_CB_OK;
}

static int on_port_reply(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *table[RDMA_NLDEV_ATTR_MAX] = { 0 };
	struct port_dump *dump = data;
	struct rdma_nl_port *p;
	const char *name;

	if (mnl_attr_parse(nlh, 0, collect_attr, table) != MNL_CB_OK)
		return MNL_CB_ERROR;
	if (!table[RDMA_NLDEV_ATTR_DEV_NAME] || !table[RDMA_NLDEV_ATTR_PORT_INDEX] || dump->count >= NL_PORTS_MAX)
		return MNL_CB_OK;
	name = mnl_attr_get_str(table[RDMA_NLDEV_ATTR_DEV_NAME]);
	if (strlen(name) >= sizeof(p->dev))
		return MNL_CB_OK;
	p = &dump->ports[dump->count++];
	memset(p, 0, sizeof(*p));
	strcpy(p->dev, name);
	p->port = mnl_attr_get_u32(table[RDMA_NLDEV_ATTR_PORT_INDEX]);
	if (table[RDMA_NLDEV_ATTR_NDEV_INDEX] && table[RDMA_NLDEV_ATTR_NDEV_NAME]) {
		const char *ndev = mnl_attr_get_str(table[RDMA_NLDEV_ATTR_NDEV_NAME]);
		if (strlen(ndev) < sizeof(p->netdev_name)) {
			p->has_netdev = true;
			p->netdev_index = mnl_attr_get_u32(table[RDMA_NLDEV_ATTR_NDEV_INDEX]);
			strcpy(p->netdev_name, ndev);
		}
	}
	return MNL_CB_OK;
}

int rdma_netlink_parse_ports(const void *buf, size_t len, struct rdma_nl_port **ports, size_t *count)
{
	struct port_dump dump = { 0 };
	int ret;

	*ports = NULL;
	*count = 0;
	dump.ports = calloc(NL_PORTS_MAX, sizeof(*dump.ports));
	if (!dump.ports)
		return -ENOMEM;
	errno = 0;
	ret = nl_reply_run(buf, len, 0, 0, on_port_reply, &dump);
	if (ret < 0) {
		free(dump.ports);
		return errno ? -errno : -EPROTO;
	}
	*ports = dump.ports;
	*count = dump.count;
	return 0;
}

int rdma_netlink_ports(struct rdma_nl_port **ports, size_t *count)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct port_dump dump = { 0 };
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	unsigned seq, portid;
	int ret;

	*ports = NULL;
	*count = 0;
	nl = mnl_socket_open(NETLINK_RDMA);
	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		ret = -errno;
		goto out_close;
	}
	dump.ports = calloc(NL_PORTS_MAX, sizeof(*dump.ports));
	if (!dump.ports) {
		ret = -ENOMEM;
		goto out_close;
	}
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_PORT_GET);
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP;
	nlh->nlmsg_seq = seq = (unsigned)time(NULL);
	portid = mnl_socket_get_portid(nl);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		ret = -errno;
		goto out_free;
	}
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0) {
			ret = -errno;
			goto out_free;
		}
		ret = nl_reply_run(buf, (size_t)n, seq, portid, on_port_reply, &dump);
		if (ret == MNL_CB_STOP)
			break;
		if (ret < 0) {
			ret = -errno;
			goto out_free;
		}
	}
	*ports = dump.ports;
	*count = dump.count;
	mnl_socket_close(nl);
	return 0;

out_free:
	free(dump.ports);
out_close:
	mnl_socket_close(nl);
	return ret;
}
