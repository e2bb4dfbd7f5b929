// SPDX-License-Identifier: GPL-2.0-only
/* nccl-env's choices: usable RoCE ports for NCCL_IB_HCA, a socket interface, the GID index when all agree. */
#include "core/nccl_env.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/gid_suggest.h"
#include "core/rail_speeds.h"

static void add_var(struct nccl_env *env, const char *name, const char *value, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void add_var(struct nccl_env *env, const char *name, const char *value, const char *fmt, ...)
{
	struct nccl_var *v;
	va_list ap;

	if (env->count >= NCCL_VARS_MAX)
		return;
	v = &env->vars[env->count++];
	snprintf(v->name, sizeof(v->name), "%s", name);
	snprintf(v->value, sizeof(v->value), "%s", value);
	va_start(ap, fmt);
	vsnprintf(v->comment, sizeof(v->comment), fmt, ap);
	va_end(ap);
}

/* NCCL matches list entries as prefixes: "mlx5_1" also takes mlx5_10. The '=' form is exact. */
static bool name_is_prefix_of_another(const char *name, const char *const *others, size_t count)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < count; i++)
		if (strcmp(others[i], name) != 0 && strncmp(others[i], name, len) == 0)
			return true;
	return false;
}

static bool device_name_is_ambiguous(const struct host *host, const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < host->device_count; i++)
		if (strcmp(host->devices[i].name, name) != 0 && strncmp(host->devices[i].name, name, len) == 0)
			return true;
	return false;
}

void nccl_hca_value(const struct host *host, const struct nccl_port_ref *ports, size_t n, bool exclude, char *buf,
		    size_t size)
{
	bool exact = false;
	size_t len;

	for (size_t i = 0; i < n; i++)
		exact |= device_name_is_ambiguous(host, ports[i].device);
	len = (size_t)snprintf(buf, size, "%s%s", exclude ? "^" : "", exact ? "=" : "");
	for (size_t i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s:%u", i ? "," : "", ports[i].device, ports[i].port);
}

/* An address of family on the port's netdev: from rtnetlink, or under --root witnessed by the port's RoCE v2
 * GID of that family (chosen, the port's gid_suggest_port answer for it). */
static bool netdev_has_family(const struct netdev *nd, int family, const struct gid_choice *chosen)
{
	if (nd && nd->addrs_known) {
		for (size_t i = 0; i < nd->addr_count; i++)
			if (nd->addrs[i].family == family)
				return true;
		return false;
	}
	return chosen->found;
}

static int choose_socket_if(const struct host *host, const char *socket_if, const char *first_netdev,
			    char *out, size_t size, char *why, size_t why_size)
{
	const struct netdev *nd;
	const char *names[1024];
	size_t n = 0;

	for (size_t i = 0; i < host->netdev_count && n < 1024; i++)
		names[n++] = host->netdevs[i].name;
	if (socket_if) {
		nd = host_find_netdev(host, socket_if);
		if (!nd) {
			snprintf(why, why_size, "--socket-if %s: no such interface", socket_if);
			return -ENODEV;
		}
		if (strcmp(nd->operstate, "up") != 0 && strcmp(nd->operstate, "unknown") != 0) {
			snprintf(why, why_size, "--socket-if %s: the interface is %s", socket_if, nd->operstate);
			return -ENODEV;
		}
	} else {
		socket_if = first_netdev;
	}
	snprintf(out, size, "%s%s", name_is_prefix_of_another(socket_if, names, n) ? "=" : "", socket_if);
	return 0;
}

static bool infiniband_only(const struct host *host)
{
	size_t ib = 0, other = 0;

	for (size_t i = 0; i < host->device_count; i++)
		for (size_t j = 0; j < host->devices[i].port_count; j++) {
			ib += host->devices[i].ports[j].link_layer == LINK_LAYER_INFINIBAND;
			other += host->devices[i].ports[j].link_layer != LINK_LAYER_INFINIBAND;
		}
	return ib && !other;
}

static void leave_out(struct nccl_env *env, const struct rdma_device *d, const struct rdma_port *p, const char *fmt,
		      ...) __attribute__((format(printf, 4, 5)));

static void leave_out(struct nccl_env *env, const struct rdma_device *d, const struct rdma_port *p, const char *fmt,
		      ...)
{
	struct nccl_left_out *lo;
	va_list ap;

	if (env->left_out_count >= NCCL_LEFT_OUT_MAX) {
		env->left_out_dropped++;
		return;
	}
	lo = &env->left_out[env->left_out_count++];
	snprintf(lo->device, sizeof(lo->device), "%s", d->name);
	lo->port = p->num;
	snprintf(lo->netdev, sizeof(lo->netdev), "%s", p->netdev);
	va_start(ap, fmt);
	vsnprintf(lo->reason, sizeof(lo->reason), fmt, ap);
	va_end(ap);
}

int nccl_env_build(const struct host *host, int family, const char *socket_if, struct nccl_env *env, char *why,
		   size_t why_size)
{
	char hca[512] = "", sock[64], first_netdev[IF_NAMESIZE] = "";
	const char *devnames[256];
	size_t ndev = 0, len = 0;
	struct nccl_port_ref chosen[NCCL_LEFT_OUT_MAX];
	double gbps[NCCL_LEFT_OUT_MAX];
	int common = -1, ret;
	bool agree = true, exact = false;
	struct rail_speeds speeds;

	memset(env, 0, sizeof(*env));
	for (size_t i = 0; i < host->device_count && ndev < 256; i++)
		devnames[ndev++] = host->devices[i].name;
	for (size_t i = 0; i < host->device_count; i++) {
		const struct rdma_device *d = &host->devices[i];

		for (size_t j = 0; j < d->port_count; j++) {
			const struct rdma_port *p = &d->ports[j];
			const struct netdev *nd = p->netdev[0] ? host_find_netdev(host, p->netdev) : NULL;
			struct gid_choice c;
			char why[256];

			if (p->link_layer == LINK_LAYER_INFINIBAND) {
				/* NCCL_IB_HCA selects IB and RoCE ports alike: the list below drops this one */
				leave_out(env, d, p, "InfiniBand link layer: nccl-env sets up RoCE ports only (NCCL "
					  "addresses this one by LID, with no GID index to set); NCCL_IB_HCA selects IB "
					  "ports too, so add %s:%u to it to keep NCCL using the port", d->name, p->num);
				continue;
			}
			if (p->link_layer != LINK_LAYER_ETHERNET) {
				leave_out(env, d, p, "%s link layer: nccl-env sets up RoCE ports only",
					  link_layer_name(p->link_layer));
				continue;
			}
			if (gid_port_use(p, nd, why, sizeof(why)) != PORT_IN_USE) {
				leave_out(env, d, p, "%s", why);
				continue;
			}
			gid_suggest_port(p, nd, family, NULL, &c);
			if (!c.found) {
				leave_out(env, d, p, "no RoCE v2 %s GID: %s", family == AF_INET ? "IPv4" : "IPv6", c.reason);
				continue;
			}
			exact |= name_is_prefix_of_another(d->name, devnames, ndev);
			len += (size_t)snprintf(hca + len, sizeof(hca) - len, "%s%s:%u", env->port_count ? "," : "",
						d->name, p->num);
			if (len >= sizeof(hca))
				break;
			if (!first_netdev[0] && netdev_has_family(nd, family, &c))
				snprintf(first_netdev, sizeof(first_netdev), "%s", p->netdev);
			if (common >= 0 && common != (int)c.entry->index)
				agree = false;
			common = (int)c.entry->index;
			if (env->port_count < NCCL_LEFT_OUT_MAX) {
				chosen[env->port_count] = (struct nccl_port_ref){ d->name, p->num };
				gbps[env->port_count] = p->rate_gbps;
				snprintf(env->used[env->port_count].device, sizeof(env->used[0].device), "%s", d->name);
				env->used[env->port_count].port = p->num;
				env->used_count = env->port_count + 1;
			}
			env->port_count++;
		}
	}
	if (env->port_count == 0 && infiniband_only(host)) {
		snprintf(why, why_size, "no usable RoCE port: only InfiniBand, where NCCL needs no GID setting (it addresses "
			 "IB ports by LID); nccl-env sets up RoCE ports only");
		return -ENODEV;
	}
	if (env->port_count == 0) {
		snprintf(why, why_size, host->device_count == 0 ? "no RDMA device on this host" :
			 "no usable RoCE port: none is Ethernet, ACTIVE and has a RoCE v2 %s GID (run 'roce-doctor check')",
			 family == AF_INET ? "IPv4" : "IPv6");
		return -ENODEV;
	}
	rail_speeds_judge(host, chosen, gbps, env->port_count < NCCL_LEFT_OUT_MAX ? env->port_count : NCCL_LEFT_OUT_MAX,
			  &speeds);
	rail_speeds_warning(&speeds, "chosen", env->speed_warning, sizeof(env->speed_warning));
	if (!first_netdev[0] && !socket_if) {
		snprintf(why, why_size, "no RoCE netdev has an %s address for NCCL's bootstrap socket; name one with "
			 "--socket-if IFACE", family == AF_INET ? "IPv4" : "IPv6");
		return -ENODEV;
	}
	ret = choose_socket_if(host, socket_if, first_netdev, sock, sizeof(sock), why, why_size);
	if (ret < 0)
		return ret;

	if (exact) {
		char tmp[sizeof(hca)];
		snprintf(tmp, sizeof(tmp), "=%s", hca);
		memcpy(hca, tmp, sizeof(hca));
	}
	add_var(env, "NCCL_IB_HCA", hca, "%zu usable RoCE port(s)%s", env->port_count,
		exact ? "; '=' makes NCCL match these names exactly (a prefix would take more HCAs)" : "");
	add_var(env, "NCCL_SOCKET_IFNAME", sock, "bootstrap TCP over %s", sock[0] == '=' ? sock + 1 : sock);
	if (agree) {
		char idx[16];
		snprintf(idx, sizeof(idx), "%d", common);
		add_var(env, "NCCL_IB_GID_INDEX", idx, "RoCE v2 %s GID on every chosen port",
			family == AF_INET ? "IPv4" : "IPv6");
		/* NCCL >= 2.21 looks for AF_INET GIDs unless told: said here too, as check and nccl say it */
		if (family == AF_INET6)
			add_var(env, "NCCL_IB_ADDR_FAMILY", "AF_INET6", "NCCL >= 2.21 picks IPv6 GIDs itself only when told");
	} else {
		add_var(env, "NCCL_IB_ADDR_FAMILY", family == AF_INET ? "AF_INET" : "AF_INET6",
			"the ports disagree on the GID index: NCCL >= 2.21 picks per HCA by family and version");
		add_var(env, "NCCL_IB_ROCE_VERSION_NUM", "2", "RoCE v2 (routable, UDP 4791)");
	}
	add_var(env, "NCCL_IB_DISABLE", "0", "use RDMA, not the TCP fallback");
	snprintf(env->summary, sizeof(env->summary), "%zu RoCE port(s), %s", env->port_count,
		 agree ? "one GID index" : "per-HCA GID choice");
	return 0;
}

void nccl_env_follow_qos(struct nccl_env *env, const struct qos_host *q)
{
	struct qos_port_ref refs[NCCL_LEFT_OUT_MAX];
	struct qos_tc_advice a;

	for (size_t i = 0; i < env->used_count; i++)
		refs[i] = (struct qos_port_ref){ env->used[i].device, env->used[i].port };
	qos_advise_tc(q, refs, env->used_count, &a);
	if (a.tc >= 0) {
		char value[16];

		snprintf(value, sizeof(value), "%d", a.tc);
		add_var(env, "NCCL_IB_TC", value, "%s", a.chain);
	}
	for (size_t i = 0; i < a.note_count && env->note_count < QOS_TC_NOTES_MAX; i++)
		snprintf(env->notes[env->note_count++], sizeof(env->notes[0]), "%s", a.notes[i]);
}
