// SPDX-License-Identifier: GPL-2.0-only
/* rdma.devices, port.*, netdev.*: is there a device, is each selected port up, on a netdev fit for RoCE. */
#include <stdio.h>
#include <string.h>

#include "core/checks.h"
#include "core/gid_suggest.h"
#include "core/nccl_env.h"
#include "core/nccl_setting_fix.h"
#include "core/port_down.h"
#include "core/rail_speeds.h"
#include "core/rdma_drivers.h"
#include "util/gidaddr.h"

bool input_port_selected(const struct check_input *in, const struct rdma_device *d, const struct rdma_port *p)
{
	return !in->port_selected || in->port_selected(in, d, p);
}

static const struct netdev *port_netdev(const struct host *h, const struct rdma_port *p)
{
	return p->netdev[0] ? host_find_netdev(h, p->netdev) : NULL;
}

/* Whether NCCL opens port p (it has a routable GID of some family). */
static bool port_in_use(const struct check_input *in, const struct rdma_port *p)
{
	char why[8];

	return gid_port_use(p, port_netdev(in->host, p), why, sizeof(why)) == PORT_IN_USE;
}

/* Whether some selected port of the host passes test: then a port that fails is a spare, not the job's only way
 * out. */
static bool any_selected_port(const struct check_input *in,
			      bool (*test)(const struct check_input *in, const struct rdma_port *p))
{
	const struct host *h = in->host;

	for (size_t i = 0; i < h->device_count; i++)
		for (size_t j = 0; j < h->devices[i].port_count; j++)
			if (input_port_selected(in, &h->devices[i], &h->devices[i].ports[j]) &&
			    test(in, &h->devices[i].ports[j]))
				return true;
	return false;
}

enum port_part input_port_part(const struct check_input *in, const struct rdma_device *d, const struct rdma_port *p)
{
	char why[8];

	if (!input_port_selected(in, d, p))
		return PORT_PART_EXCLUDED;
	if (p->link_layer != LINK_LAYER_ETHERNET || gid_port_use(p, port_netdev(in->host, p), why, sizeof(why)) != PORT_DOWN ||
	    nccl_hca_names_port(in, d, p) || !any_selected_port(in, port_in_use))
		return PORT_PART_USED;
	return PORT_PART_SPARE;
}

bool input_port_unaddressed_spare(const struct check_input *in, const struct rdma_device *d,
				  const struct rdma_port *p)
{
	char why[8];

	if (!input_port_selected(in, d, p) || p->link_layer != LINK_LAYER_ETHERNET ||
	    gid_port_use(p, port_netdev(in->host, p), why, sizeof(why)) != PORT_NO_ADDRESS || nccl_hca_names_port(in, d, p))
		return false;
	/* beside a port with a GID of the checked family: the job has a way out without this one */
	return any_selected_port(in, port_usable);
}

bool input_port_checked(const struct check_input *in, const struct rdma_device *d, const struct rdma_port *p)
{
	return input_port_part(in, d, p) == PORT_PART_USED;
}

bool port_usable(const struct check_input *in, const struct rdma_port *p)
{
	struct gid_choice c;

	if (p->link_layer != LINK_LAYER_ETHERNET || p->state != 4)
		return false;
	gid_choose_port(p, NULL, in->family, &c);
	return c.found;
}

/* Names of netdevs that are not a NIC's own (loopback, bridges, container and tunnel ends): Soft-RoCE on them
 * reaches nothing. */
static bool virtual_netdev(const char *name)
{
	static const char *const prefixes[] = { "lo", "docker", "veth", "virbr", "br-", "cni", "flannel", "cali",
						"tun", "tap", "wg", "vxlan", "kube" };

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

/* The interface to put Soft-RoCE on: the first real netdev that is up, else the first real one, else the
 * placeholder IFACE (a tree without sys/class/net). */
static const char *softroce_netdev(const struct host *h)
{
	const char *any = NULL;

	for (size_t i = 0; i < h->netdev_count; i++) {
		if (virtual_netdev(h->netdevs[i].name))
			continue;
		if (strcmp(h->netdevs[i].operstate, "up") == 0)
			return h->netdevs[i].name;
		any = any ? any : h->netdevs[i].name;
	}
	return any ? any : "IFACE";
}

/* No RDMA device. The loaded modules tell the cases apart (as kernel.modules does): a NIC driver loaded
 * without its RDMA module (mlx5_core without mlx5_ib) has a modprobe that creates the device; with no driver
 * of an RDMA NIC loaded (a GPU VM with virtio only) no modprobe does, and Soft-RoCE or a NIC is the answer.
 * Modules unknown (a tree without proc/modules): both. */
static void no_rdma_device(const struct check_input *in, struct findings *out)
{
	const struct module_list *m = in->modules && in->modules->proc_known ? in->modules : NULL;
	const char *iface = softroce_netdev(in->host);
	char fix[1024], drivers[160] = "";
	size_t len = 0, dlen = 0;
	bool nic_driver = false;

	/* One pass: whether any RDMA NIC's driver is loaded, and a modprobe for each one loaded without its
	 * RDMA module. */
	for (size_t i = 0; m && i < rdma_driver_count && len < sizeof(fix); i++) {
		const struct rdma_driver *r = &rdma_drivers[i];

		if (!r->pci_driver || !module_loaded(m, r->pci_driver))
			continue;
		nic_driver = true;
		if (module_loaded(m, r->module))
			continue;
		len += (size_t)snprintf(fix + len, sizeof(fix) - len, "%smodprobe %s   # %s is loaded: a%s %s NIC%s",
					len ? "\n" : "", r->module, r->pci_driver, r->nic[0] == 'A' || r->nic[0] == 'E' ||
					r->nic[0] == 'I' ? "n" : "", r->nic, r->every_nic ? "" : ", if it has an RDMA function");
		if (dlen < sizeof(drivers))
			dlen += (size_t)snprintf(drivers + dlen, sizeof(drivers) - dlen, "%s%s without %s",
						 dlen ? ", " : "", r->pci_driver, r->module);
	}
	if (len) {
		finding_add(out, "rdma.devices", SEVERITY_FAIL, "/sys/class/infiniband", fix,
			    "no RDMA device: %s (the NIC driver is loaded, the module that makes its RDMA device is not)",
			    drivers);
		return;
	}
	/* Unknown, or a NIC driver loaded with its RDMA module and still no device (RoCE disabled in the NIC's
	 * firmware, a part without RDMA): the general answer. */
	if (!m || nic_driver) {
		snprintf(fix, sizeof(fix), "modprobe mlx5_ib   # ConnectX; for another NIC load its RDMA provider "
			 "(irdma, bnxt_re, ...)\nrdma link add rxe0 type rxe netdev %s   # Soft-RoCE on a plain NIC, "
			 "for testing", iface);
		finding_add(out, "rdma.devices", SEVERITY_FAIL, "/sys/class/infiniband", fix,
			    "no RDMA device: the RDMA provider module is not loaded or the NIC has no RDMA function");
		return;
	}
	snprintf(fix, sizeof(fix), "rdma link add rxe0 type rxe netdev %s   # Soft-RoCE on %s, for testing (modprobe "
		 "rdma_rxe first)\n"
		 "# for production: attach an RDMA NIC (ConnectX, E810, ...; in a VM a passed-through function or an "
		 "SR-IOV VF): no modprobe creates one", iface, iface);
	finding_add(out, "rdma.devices", SEVERITY_FAIL, "/sys/class/infiniband", fix,
		    "no RDMA device and no RDMA-capable NIC: no driver of one (mlx5_core, ice, bnxt_en, ...) is loaded "
		    "(/proc/modules), so no modprobe of an RDMA module can create a device");
}

void check_rdma_devices(const struct check_input *in, struct findings *out)
{
	const struct host *h = in->host;
	char names[512] = "";

	if (h->device_count == 0) {
		no_rdma_device(in, out);
		return;
	}
	for (size_t i = 0; i < h->device_count; i++) {
		size_t len = strlen(names);
		snprintf(names + len, sizeof(names) - len, "%s%s", i ? ", " : "", h->devices[i].name);
	}
	finding_add(out, "rdma.devices", SEVERITY_OK, "/sys/class/infiniband", NULL, "%zu RDMA device(s): %s",
		    h->device_count, names);
}

static void check_port_state(const struct rdma_device *d, const struct rdma_port *p, const struct netdev *nd,
			     struct findings *out)
{
	char subject[96], fix[768], rate[80];

	snprintf(subject, sizeof(subject), "%s/%u", d->name, p->num);
	if (p->state == 4 && p->phys_state == 5) {
		port_rate_text(p, rate, sizeof(rate));
		finding_add(out, "port.state", SEVERITY_OK, subject, NULL, "ACTIVE, LinkUp, %s", rate);
		return;
	}
	port_down_fix(d, p, nd, fix, sizeof(fix));
	finding_add(out, "port.state", SEVERITY_FAIL, subject, fix, "port is %s, physical state %s%s%s",
		    p->state_name[0] ? p->state_name : "unknown", p->phys_state_name[0] ? p->phys_state_name : "unknown",
		    port_down_cause(p, nd) == PORT_DOWN_UNKNOWN ? "" : ": ", port_down_cause(p, nd) == PORT_DOWN_UNKNOWN ?
		    "" : port_down_cause_text(port_down_cause(p, nd)));
}

/* How to leave the ports NCCL cannot use (down, or ACTIVE with no routable GID: what gid --suggest and nccl-env
 * leave out) out of NCCL_IB_HCA explicitly, as one line for where the variable is set. Every such port is in it,
 * so the findings of two such ports give the same line, never two edits of one variable. "" when NCCL_IB_HCA
 * lists the ports to use (the list is the user's to narrow). */
static void spare_exclusion(const struct check_input *in, char *buf, size_t size)
{
	const struct host *h = in->host;
	const struct nccl_setting *s = in->nccl ? nccl_conf_get(in->nccl, "NCCL_IB_HCA") : NULL;
	struct nccl_port_ref refs[NCCL_LEFT_OUT_MAX];
	char value[sizeof(s->value) + 512], why[8];
	size_t n = 0, len;

	buf[0] = '\0';
	if (s && s->value[0] != '^')
		return;
	for (size_t i = 0; i < h->device_count; i++)
		for (size_t j = 0; j < h->devices[i].port_count && n < NCCL_LEFT_OUT_MAX; j++) {
			const struct rdma_port *p = &h->devices[i].ports[j];

			if (p->link_layer == LINK_LAYER_ETHERNET && input_port_selected(in, &h->devices[i], p) &&
			    gid_port_use(p, port_netdev(h, p), why, sizeof(why)) != PORT_IN_USE)
				refs[n++] = (struct nccl_port_ref){ h->devices[i].name, p->num };
		}
	if (n == 0)
		return;
	if (!s) {
		nccl_hca_value(h, refs, n, true, value, sizeof(value));
	} else {
		len = (size_t)snprintf(value, sizeof(value), "%s", s->value);
		for (size_t i = 0; i < n && len < sizeof(value); i++)
			len += (size_t)snprintf(value + len, sizeof(value) - len, ",%s:%u", refs[i].device, refs[i].port);
	}
	nccl_setting_fix(s ? s->source : NULL, "NCCL_IB_HCA", value, buf, size);
}

/* exclude (a line from spare_exclusion, or "") appended to fix as the alternative to fixing the port. */
static void append_exclusion(char *fix, size_t size, const char *exclude)
{
	size_t len = strlen(fix);

	if (exclude[0] && len + 1 < size)
		snprintf(fix + len, size - len, "\n%s   # or leave the port out of NCCL (a port for other traffic)",
			 exclude);
}

/* A down port NCCL will not open while other ports carry the job: what it is, how to bring it up, and how to
 * leave it out of NCCL_IB_HCA explicitly. Information, not a failure: the node runs the job without it. */
static void report_spare_port(const struct check_input *in, const struct rdma_device *d, const struct rdma_port *p,
			      struct findings *out)
{
	const struct netdev *nd = port_netdev(in->host, p);
	enum port_down_cause cause = port_down_cause(p, nd);
	char subject[96], fix[2600], exclude[1400];
	size_t len;

	snprintf(subject, sizeof(subject), "%s/%u", d->name, p->num);
	port_down_fix(d, p, nd, fix, sizeof(fix));
	spare_exclusion(in, exclude, sizeof(exclude));
	len = strlen(fix);
	if (exclude[0] && len + 1 < sizeof(fix))
		snprintf(fix + len, sizeof(fix) - len, "\n%.1300s   # or leave the ports NCCL cannot use out explicitly", exclude);
	finding_add(out, "port.state", SEVERITY_INFO, subject, fix, "%s%s%s%s is %s, physical state %s (%s): NCCL opens "
		    "only ACTIVE ports, so it leaves this one out and runs on the others, as gid --suggest and nccl-env "
		    "do; a spare port, not a fault of the node", subject, p->netdev[0] ? " (" : "",
		    p->netdev[0] ? p->netdev : "", p->netdev[0] ? ")" : "", p->state_name[0] ? p->state_name : "not ACTIVE",
		    p->phys_state_name[0] ? p->phys_state_name : "unknown", port_down_cause_text(cause));
}

/* Only where the kernel tells both: the speed now and the fastest mode the NIC supports (ethtool netlink). */
static void check_port_speed(const char *subject, const struct netdev *nd, struct findings *out)
{
	char fix[256];

	if (!nd || !nd->modes_known || nd->max_supported_mbps == 0 || nd->speed_mbps <= 0)
		return;
	if ((unsigned)nd->speed_mbps >= nd->max_supported_mbps) {
		finding_add(out, "port.speed", SEVERITY_OK, subject, NULL, "%s runs at %d Mb/s, its fastest mode", nd->name,
			    nd->speed_mbps);
		return;
	}
	snprintf(fix, sizeof(fix), "ethtool -s %s autoneg on   # then check cable, transceiver and the switch port; "
		 "ethtool %s lists what both ends advertise", nd->name, nd->name);
	finding_add(out, "port.speed", SEVERITY_WARN, subject, fix, "%s runs at %d Mb/s but supports %u (%s)", nd->name,
		    nd->speed_mbps, nd->max_supported_mbps, nd->max_supported_mode);
}

/* Whether any port of the host runs RoCE (Ethernet link layer), selected or not. */
static bool host_has_roce(const struct host *h)
{
	for (size_t i = 0; i < h->device_count; i++)
		for (size_t j = 0; j < h->devices[i].port_count; j++)
			if (h->devices[i].ports[j].link_layer == LINK_LAYER_ETHERNET)
				return true;
	return false;
}

/* An InfiniBand port. Beside RoCE ports (a VPI card with one port each way, an IB fabric next to a RoCE one)
 * it is a port NCCL uses natively, by LID: nothing is misconfigured. On a host whose every port is IB, a user
 * running a RoCE doctor may have expected RoCE: say how the port's protocol is changed. */
static void check_link_layer(const struct rdma_device *d, const struct rdma_port *p, const char *subject,
			     bool has_roce, struct findings *out)
{
	char fix[256], lid[32] = "its LID";

	if (has_roce) {
		if (p->lid_known)
			snprintf(lid, sizeof(lid), "LID 0x%x", p->lid);
		finding_add(out, "port.link_layer", SEVERITY_OK, subject, NULL,
			    "InfiniBand port beside this host's RoCE ports: NCCL uses it natively, by %s (not a RoCE "
			    "setting to fix)", lid);
		return;
	}
	snprintf(fix, sizeof(fix),
		 "# nothing to fix for InfiniBand (NCCL uses it by LID); to run RoCE on a VPI card:\n"
		 "mlxconfig -d %s set LINK_TYPE_P%u=2   # then reboot (ConnectX-6 Lx/Dx are Ethernet-only)",
		 d->pci_address[0] ? d->pci_address : d->name, p->num);
	finding_add(out, "port.link_layer", SEVERITY_INFO, subject, fix, "InfiniBand link layer where RoCE is expected");
}

/* A down port NCCL_IB_HCA leaves out: said (ok, with -v and in JSON), so that the port the exclusion was written
 * for is seen to be left out on purpose; nothing to fix. */
static void report_excluded_port(const struct check_input *in, const struct rdma_device *d, const struct rdma_port *p,
				 struct findings *out)
{
	const struct nccl_setting *s = in->nccl ? nccl_conf_get(in->nccl, "NCCL_IB_HCA") : NULL;
	char subject[96], why[8];

	if (p->link_layer != LINK_LAYER_ETHERNET || gid_port_use(p, port_netdev(in->host, p), why, sizeof(why)) != PORT_DOWN)
		return;
	snprintf(subject, sizeof(subject), "%s/%u", d->name, p->num);
	finding_add(out, "port.state", SEVERITY_OK, subject, NULL, "%s is %s, physical state %s, and left out by "
		    "NCCL_IB_HCA=%s (%s): NCCL does not use it", subject, p->state_name[0] ? p->state_name : "not ACTIVE",
		    p->phys_state_name[0] ? p->phys_state_name : "unknown", s ? s->value : "",
		    s ? s->source : "environment");
}

/* port.rail_speed: the ports NCCL will use (usable, as nccl-env chooses them) at different speeds, one finding per
 * slower port, by nccl-env's rule. */
static void check_rail_speeds(const struct check_input *in, struct findings *out)
{
	const struct host *h = in->host;
	const struct nccl_setting *s = in->nccl ? nccl_conf_get(in->nccl, "NCCL_IB_HCA") : NULL;
	struct nccl_port_ref ports[NCCL_LEFT_OUT_MAX];
	double gbps[NCCL_LEFT_OUT_MAX];
	struct rail_speeds r;
	char edit[700], fix[1100];
	size_t n = 0;

	if (!findings_wanted(out, "port.rail_speed"))
		return;
	for (size_t i = 0; i < h->device_count; i++)
		for (size_t j = 0; j < h->devices[i].port_count && n < NCCL_LEFT_OUT_MAX; j++) {
			const struct rdma_port *p = &h->devices[i].ports[j];

			if (input_port_checked(in, &h->devices[i], p) && port_usable(in, p)) {
				ports[n] = (struct nccl_port_ref){ h->devices[i].name, p->num };
				gbps[n++] = p->rate_gbps;
			}
		}
	rail_speeds_judge(h, ports, gbps, n, &r);
	if (!r.mixed) {
		if (n > 1 && gbps[0] > 0)
			finding_add(out, "port.rail_speed", SEVERITY_OK, "ports", NULL, "the %zu ports NCCL uses run at "
				    "one speed", n);
		return;
	}
	nccl_setting_fix(s ? s->source : NULL, "NCCL_IB_HCA", r.keep_fastest, edit, sizeof(edit));
	for (size_t i = 0; i < n; i++) {
		const struct rdma_port *p = NULL;
		const struct rdma_device *d = host_find_device(h, ports[i].device);
		char subject[96];

		if (gbps[i] == r.fastest)
			continue;
		for (size_t j = 0; d && j < d->port_count; j++)
			p = d->ports[j].num == ports[i].port ? &d->ports[j] : p;
		snprintf(subject, sizeof(subject), "%s/%u", ports[i].device, ports[i].port);
		snprintf(fix, sizeof(fix), "%s   # keep only the fastest rails; or bring %s to %g Gb/s (ethtool %s: "
			 "cable, transceiver, switch port)", edit, p && p->netdev[0] ? p->netdev : subject, r.fastest,
			 p && p->netdev[0] ? p->netdev : "IF");
		finding_add(out, "port.rail_speed", SEVERITY_INFO, subject, fix, "%s runs at %g Gb/s, below the "
			    "fastest rails' %g: NCCL spreads a job over every port it opens, and the slower rails hold the "
			    "faster back (the usable ports: %s)", subject, gbps[i], r.fastest, r.groups);
	}
}

void check_ports(const struct check_input *in, struct findings *out)
{
	const struct host *h = in->host;
	bool has_roce = host_has_roce(h);

	for (size_t i = 0; i < h->device_count; i++) {
		const struct rdma_device *d = &h->devices[i];

		for (size_t j = 0; j < d->port_count; j++) {
			const struct rdma_port *p = &d->ports[j];
			char subject[96], fix[256];

			switch (input_port_part(in, d, p)) {
			case PORT_PART_EXCLUDED:
				report_excluded_port(in, d, p, out);
				continue;
			case PORT_PART_SPARE:
				report_spare_port(in, d, p, out);
				continue;
			case PORT_PART_USED:
				break;
			}
			check_port_state(d, p, p->netdev[0] ? host_find_netdev(h, p->netdev) : NULL, out);
			snprintf(subject, sizeof(subject), "%s/%u", d->name, p->num);
			if (p->state == 4 && p->link_layer == LINK_LAYER_ETHERNET)
				check_port_speed(subject, p->netdev[0] ? host_find_netdev(h, p->netdev) : NULL, out);
			if (p->link_layer == LINK_LAYER_INFINIBAND)
				check_link_layer(d, p, subject, has_roce, out);
			if (p->active_mtu > 0 && p->link_layer == LINK_LAYER_ETHERNET) {
				if (p->active_mtu < 4096) {
					snprintf(fix, sizeof(fix), "ip link set %s mtu 9000   # the RoCE MTU follows the netdev "
						 "MTU (4096 needs >= %d); set it on both nodes", p->netdev, ROCE_MTU_4096_MIN_NETDEV_MTU);
					finding_add(out, "port.active_mtu", SEVERITY_WARN, subject, fix,
						    "active MTU %d below 4096 (max %d): every RDMA message is cut into small packets",
						    p->active_mtu, p->max_mtu);
				} else {
					finding_add(out, "port.active_mtu", SEVERITY_OK, subject, NULL, "active MTU %d",
						    p->active_mtu);
				}
			}
		}
	}
	check_rail_speeds(in, out);
}

/* An address NCCL can use over RoCE v2 in this family: IPv4, or a global IPv6 one (never fe80:: link-local,
 * which the GID choice rejects too). */
static bool usable_address(const struct in6_addr *a, int family)
{
	if (family == AF_INET)
		return gid_is_ipv4_mapped(a);
	return !gid_is_zero(a) && !gid_is_ipv4_mapped(a) && !gid_is_link_local(a);
}

static bool netdev_has_address(const struct rdma_port *p, const struct netdev *nd, int family)
{
	if (nd && nd->addrs_known) {
		for (size_t i = 0; i < nd->addr_count; i++)
			if (nd->addrs[i].family == family && usable_address(&nd->addrs[i].addr, family))
				return true;
		return false;
	}
	/* Without netlink (--root) the GID table is the witness: the kernel adds a GID for every address of the
	 * netdev, IPv4 ones as ::ffff:a.b.c.d. */
	for (size_t i = 0; i < p->gid_count; i++)
		if (usable_address(&p->gids[i].gid, family))
			return true;
	return false;
}

/* Why an unaddressed port beside working ones is a warning: appended to netdev.ipv4's and netdev.ipv6's text. */
#define UNADDRESSED_SPARE " (a port NCCL_IB_HCA does not name, beside ports that carry the job: gid --suggest and " \
	"nccl-env leave it out, but NCCL still opens it and would connect over a link-local GID; leave it out " \
	"explicitly, or give it its address if it is a rail)"

/* netdev.ipv4, or netdev.ipv6 under --family ipv6: the address the RoCE v2 GID NCCL uses is made of. */
static void check_netdev_address(const struct check_input *in, const struct rdma_device *d, const struct rdma_port *p,
				 const struct netdev *nd, struct findings *out)
{
	int family = in->family;
	char fix[512 + 1400], exclude[1400], why[8];
	bool spare = false;

	/* ACTIVE with no routable GID at all: NCCL still opens it (gid --suggest says the same); a management port
	 * is left out of NCCL rather than given an address */
	exclude[0] = '\0';
	if (gid_port_use(p, nd, why, sizeof(why)) == PORT_NO_ADDRESS) {
		spare_exclusion(in, exclude, sizeof(exclude));
		spare = input_port_unaddressed_spare(in, d, p);
	}

	if (family == AF_INET6) {
		if (netdev_has_address(p, nd, AF_INET6)) {
			finding_add(out, "netdev.ipv6", SEVERITY_OK, nd->name, NULL, "%s has a global IPv6 address",
				    nd->name);
			return;
		}
		snprintf(fix, sizeof(fix), "ip -6 addr add ADDR/64 dev %s   # a global address of the RoCE subnet, e.g. "
			 "2001:db8:88::1/64\nnmcli connection modify %s ipv6.method manual ipv6.addresses ADDR/64   "
			 "# persistent", nd->name, nd->name);
		append_exclusion(fix, sizeof(fix), exclude);
		finding_add(out, "netdev.ipv6", spare ? SEVERITY_WARN : SEVERITY_FAIL, nd->name, fix, "%s has no global "
			    "IPv6 address: no RoCE v2 IPv6 GID exists for %s/%u (fe80:: link-local ones do not route)%s",
			    nd->name, d->name, p->num, spare ? UNADDRESSED_SPARE : "");
		return;
	}
	if (netdev_has_address(p, nd, AF_INET)) {
		finding_add(out, "netdev.ipv4", SEVERITY_OK, nd->name, NULL, "%s has an IPv4 address", nd->name);
		return;
	}
	snprintf(fix, sizeof(fix), "ip addr add ADDR/PREFIX dev %s   # an address of the RoCE subnet, e.g. "
		 "192.168.88.1/24\nnmcli connection modify %s ipv4.method manual ipv4.addresses ADDR/PREFIX   "
		 "# persistent", nd->name, nd->name);
	append_exclusion(fix, sizeof(fix), exclude);
	finding_add(out, "netdev.ipv4", spare ? SEVERITY_WARN : SEVERITY_FAIL, nd->name, fix,
		    "%s has no IPv4 address: no RoCE v2 IPv4 GID exists for %s/%u%s", nd->name, d->name, p->num,
		    spare ? UNADDRESSED_SPARE : "");
}

static void check_one_netdev(const struct check_input *in, const struct rdma_device *d, const struct rdma_port *p,
			     const struct netdev *nd, struct findings *out)
{
	char fix[768];

	if (strcmp(nd->operstate, "up") != 0) {
		enum port_down_cause cause = port_down_cause(p, nd);

		port_down_fix(d, p, nd, fix, sizeof(fix));
		finding_add(out, "netdev.state", SEVERITY_FAIL, nd->name, fix, "%s (under %s/%u) is %s%s", nd->name,
			    d->name, p->num, nd->operstate[0] ? nd->operstate : "in an unknown state",
			    cause == PORT_DOWN_NO_CARRIER ? ": no carrier, nothing answers on the wire" : "");
	} else {
		finding_add(out, "netdev.state", SEVERITY_OK, nd->name, NULL, "%s is up", nd->name);
	}
	check_netdev_address(in, d, p, nd, out);
	if (nd->mtu > 0 && nd->mtu < ROCE_MTU_4096_MIN_NETDEV_MTU) {
		snprintf(fix, sizeof(fix), "ip link set %s mtu 9000\nnmcli connection modify %s 802-3-ethernet.mtu 9000"
			 "   # persistent; same MTU on both nodes and the switch", nd->name, nd->name);
		finding_add(out, "netdev.mtu", SEVERITY_WARN, nd->name, fix,
			    "MTU %d is too small for a 4096-byte RoCE MTU (needs >= %d; 9000 is usual)", nd->mtu,
			    ROCE_MTU_4096_MIN_NETDEV_MTU);
	} else if (nd->mtu > 0) {
		finding_add(out, "netdev.mtu", SEVERITY_OK, nd->name, NULL, "MTU %d", nd->mtu);
	}
}

void check_netdevs(const struct check_input *in, struct findings *out)
{
	const struct host *h = in->host;

	for (size_t i = 0; i < h->device_count; i++) {
		const struct rdma_device *d = &h->devices[i];

		for (size_t j = 0; j < d->port_count; j++) {
			const struct rdma_port *p = &d->ports[j];
			const struct netdev *nd = p->netdev[0] ? host_find_netdev(h, p->netdev) : NULL;

			if (!input_port_checked(in, d, p) || p->link_layer != LINK_LAYER_ETHERNET)
				continue;
			if (!nd) {
				char subject[96];
				snprintf(subject, sizeof(subject), "%s/%u", d->name, p->num);
				finding_add(out, "netdev.state", SEVERITY_FAIL, subject,
					    "rdma link show   # then bind the port to its NIC, e.g. for Soft-RoCE: "
					    "rdma link add NAME type rxe netdev IFACE",
					    "no netdev found under %s/%u", d->name, p->num);
				continue;
			}
			check_one_netdev(in, d, p, nd, out);
		}
	}
}
