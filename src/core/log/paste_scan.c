// SPDX-License-Identifier: GPL-2.0-only
/* The paste reader. A line is tried, in order, as: the rest of a dcb -j document being gathered; a command
 * line (a shell prompt, or a known command at the start of the line) that names the port and says what
 * comes next; NCCL_IB_TC as NCCL logs it or as `env` shows it; the value a `cat` announced; a sysfs or
 * configfs `path:value` (grep's form); ibdev2netdev's and rdma link's port names; rdma statistic's counters;
 * /proc/net/vlan's config rows and a VLAN's lines (its egress QoS map goes to its parent's port); mlnx_qos's
 * text; dcb's text; the start of a dcb -j document; ethtool's "name: value". What a line states goes to the
 * port the last command line named (or the one before any was named). */
#include "core/log/paste_scan.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/qos/checks_qos.h"
#include "model/ethtool_text.h"
#include "model/qos_dcb_json.h"
#include "model/qos_dcb_text.h"

static void port_reset(struct paste_port *p)
{
	memset(p, 0, sizeof(*p));
	mlnx_qos_begin(&p->mlnx);
	p->forced_tc = -1;
	p->default_roce_tos = -1;
	for (unsigned i = 0; i < QOS_PRIOS; i++)
		p->ecn[i] = QOS_UNKNOWN;
}

int paste_scan_init(struct paste_scan **out)
{
	struct paste_scan *ps = calloc(1, sizeof(*ps));

	*out = ps;
	if (!ps)
		return -ENOMEM;
	port_reset(&ps->ports[0]);
	ps->port_count = 1;
	ps->stat_port = -1;
	return 0;
}

void paste_scan_free(struct paste_scan *ps)
{
	if (!ps)
		return;
	free(ps->json);
	free(ps);
}

const char *paste_kind_name(enum paste_kind kind)
{
	static const char *const names[PASTE_KINDS] = {
		"mlnx_qos -i", "dcb", "dcb -j", "ethtool -S", "rdma statistic", "sysfs", "port names", "NCCL_IB_TC",
		"/proc/net/vlan",
	};
	return kind < PASTE_KINDS ? names[kind] : "?";
}

static void note(struct paste_scan *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct paste_scan *ps, const char *fmt, ...)
{
	va_list ap;

	if (ps->note_count == PASTE_NOTES_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(ps->notes[ps->note_count++], sizeof(ps->notes[0]), fmt, ap);
	va_end(ap);
}

static const char *skip_space(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* A name as a netdev or RDMA device has: letters, digits and ._-, within size; copied into out. */
static bool copy_name(char *out, size_t size, const char *s, size_t len)
{
	if (len == 0 || len >= size)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-' && s[i] != '.' && s[i] != '@')
			return false;
	memcpy(out, s, len);
	out[len] = '\0';
	return true;
}

/* The port pasted for netdev (or device/port when netdev is NULL), made when new; the unnamed one when the
 * bound is reached. */
static int port_find(struct paste_scan *ps, const char *netdev, const char *device, unsigned port)
{
	struct paste_port *p;

	for (size_t i = 1; i < ps->port_count; i++) {
		p = &ps->ports[i];
		if (netdev ? strcmp(p->netdev, netdev) == 0
			   : strcmp(p->device, device) == 0 && (p->port == port || p->port == 0 || port == 0)) {
			if (!netdev && p->port == 0)
				p->port = port;
			return (int)i;
		}
	}
	if (ps->port_count == PASTE_PORTS_MAX)
		return 0;
	p = &ps->ports[ps->port_count];
	port_reset(p);
	if (netdev)
		snprintf(p->netdev, sizeof(p->netdev), "%s", netdev);
	else {
		snprintf(p->device, sizeof(p->device), "%s", device);
		p->port = port;
	}
	return (int)ps->port_count++;
}

/* device/port and netdev are one port (ibdev2netdev, rdma link): the entries made for each become one. */
static int port_join(struct paste_scan *ps, const char *device, unsigned port, const char *netdev)
{
	int by_dev = -1, by_net = -1;

	for (size_t i = 1; i < ps->port_count; i++) {
		if (by_net < 0 && strcmp(ps->ports[i].netdev, netdev) == 0)
			by_net = (int)i;
		else if (by_dev < 0 && !ps->ports[i].netdev[0] && strcmp(ps->ports[i].device, device) == 0 &&
			 (ps->ports[i].port == port || ps->ports[i].port == 0))
			by_dev = (int)i;
	}
	if (by_net < 0 && by_dev >= 0) {
		snprintf(ps->ports[by_dev].netdev, sizeof(ps->ports[by_dev].netdev), "%s", netdev);
		by_net = by_dev;
		by_dev = -1;
	}
	if (by_net < 0)
		by_net = port_find(ps, netdev, NULL, 0);
	if (by_net == 0)
		return 0;
	snprintf(ps->ports[by_net].device, sizeof(ps->ports[by_net].device), "%s", device);
	ps->ports[by_net].port = port;
	if (by_dev > 0) {
		/* what was pasted under the device's name (its configfs tos, forced class, counters) moves over */
		struct paste_port *from = &ps->ports[by_dev], *to = &ps->ports[by_net];
		if (to->forced_tc < 0)
			to->forced_tc = from->forced_tc;
		if (to->default_roce_tos < 0)
			to->default_roce_tos = from->default_roce_tos;
		for (size_t i = 0; i < ps->counters.count; i++)
			if (ps->counters.items[i].port == by_dev)
				ps->counters.items[i].port = by_net;
		from->device[0] = '\0';
		from->port = 0;
		from->forced_tc = from->default_roce_tos = -1;
	}
	return by_net;
}

static void block(struct paste_scan *ps, enum paste_kind kind, unsigned long number)
{
	struct paste_block *b = ps->block_count ? &ps->blocks[ps->block_count - 1] : NULL;

	ps->lines++;
	if (b && ps->block_open && b->kind == kind && (b->port == ps->current || kind == PASTE_PORT_MAP)) {
		b->lines++;
		return;
	}
	ps->block_open = true;
	if (ps->block_count == PASTE_BLOCKS_MAX) {
		ps->blocks_more++;
		return;
	}
	b = &ps->blocks[ps->block_count++];
	b->kind = kind;
	b->port = ps->current;
	b->line = number;
	b->lines = 1;
}

/* ---- values ---- */

static bool parse_u64(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;

	if (len == 0 || len > 20)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]) || v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return true;
}

/* "106", or "Global tclass=106" as some MLNX_OFED releases print traffic_class: 0..255, else -1. */
static int class_value(const char *s)
{
	const char *eq = strchr(s, '=');
	uint64_t v;

	s = skip_space(eq ? eq + 1 : s);
	return parse_u64(s, strcspn(s, " \t"), &v) && v <= 255 ? (int)v : -1;
}

static bool is_counter_name(const char *s, size_t len)
{
	if (len == 0 || len >= PASTE_COUNTER_NAME)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-' && s[i] != '.')
			return false;
	return isalpha((unsigned char)s[0]);
}

/* One counter of port; pause counters also become PFC's per-priority requests and indications. */
static void counter(struct paste_scan *ps, int port, const char *name, size_t len, uint64_t v, unsigned long number)
{
	unsigned prio;
	char dir;

	paste_counter_add(&ps->counters, port, name, len, v, number);
	if (len == 14 && sscanf(name, "%cx_prio%1u", &dir, &prio) == 2 && strncmp(name + 8, "_pause", 6) == 0 &&
	    prio < QOS_PRIOS && (dir == 'r' || dir == 't') && name[1] == 'x') {
		if (dir == 't')
			ps->ports[port].dcb.pfc_requests[prio] = v;
		else
			ps->ports[port].dcb.pfc_indications[prio] = v;
	}
}

/* A sysfs or configfs file and its value: what the lossless chain reads there, or a counter. */
static bool sysfs_value(struct paste_scan *ps, const char *path, size_t plen, const char *value, unsigned long number)
{
	char dev[64], rest[128], copy[256];
	unsigned port, prio;
	uint64_t v;
	int n = 0, at;
	size_t vlen;

	if (plen >= sizeof(copy))
		return false;
	memcpy(copy, path, plen);
	copy[plen] = '\0';
	value = skip_space(value);
	vlen = strcspn(value, " \t");
	if (sscanf(copy, "/sys/kernel/config/rdma_cm/%63[^/]/ports/%u/default_roce_tos%n", dev, &port, &n) == 2 &&
	    !copy[n]) {
		at = port_find(ps, NULL, dev, port);
		if (parse_u64(value, vlen, &v) && v <= 255)
			ps->ports[at].default_roce_tos = (int)v;
		ps->current = at;
		return true;
	}
	if (sscanf(copy, "/sys/class/infiniband/%63[^/]/tc/%u/traffic_class%n", dev, &port, &n) == 2 && !copy[n]) {
		at = port_find(ps, NULL, dev, port);
		ps->ports[at].forced_tc = class_value(value);
		ps->current = at;
		return true;
	}
	if (sscanf(copy, "/sys/class/net/%15[^/]/ecn/roce_rp/enable/%u%n", dev, &prio, &n) == 2 && !copy[n] &&
	    prio < QOS_PRIOS) {
		at = port_find(ps, dev, NULL, 0);
		ps->ports[at].ecn[prio] = vlen == 1 && *value == '1' ? QOS_ON : vlen == 1 && *value == '0' ? QOS_OFF
												 : QOS_UNKNOWN;
		ps->current = at;
		return true;
	}
	if ((sscanf(copy, "/sys/class/infiniband/%63[^/]/ports/%u/hw_counters/%127[^/]%n", dev, &port, rest, &n) == 3 ||
	     sscanf(copy, "/sys/class/infiniband/%63[^/]/ports/%u/counters/%127[^/]%n", dev, &port, rest, &n) == 3) &&
	    !copy[n] && parse_u64(value, vlen, &v)) {
		at = port_find(ps, NULL, dev, port);
		counter(ps, at, rest, strlen(rest), v, number);
		return true;
	}
	if (sscanf(copy, "/sys/class/net/%15[^/]/statistics/%127[^/]%n", dev, rest, &n) == 2 && !copy[n] &&
	    parse_u64(value, vlen, &v)) {
		at = port_find(ps, dev, NULL, 0);
		counter(ps, at, rest, strlen(rest), v, number);
		return true;
	}
	return false;
}

/* ---- command lines ---- */

/* Where the command starts on a line with a shell prompt ("$ ", "# ", "[root@node ~]# ", "user@host:~$ "),
 * else NULL. */
static const char *after_prompt(const char *s)
{
	const char *p;

	s = skip_space(s);
	if ((s[0] == '$' || s[0] == '#' || s[0] == '>') && s[1] == ' ')
		return skip_space(s + 2);
	for (p = s; *p && p - s < 120; p++) {
		if ((p[0] == '#' || p[0] == '$') && p[1] == ' ' && p > s && (p[-1] == ']' || p[-1] == '~' || memchr(s, '@', (size_t)(p - s))))
			return skip_space(p + 2);
		if (*p == ' ' && !memchr(s, '[', (size_t)(p - s)))
			return NULL;   /* a prompt has no space outside its [user@host dir] */
	}
	return NULL;
}

/* The word after option (a separate word) in cmd, into out. */
static bool option(const char *cmd, const char *opt, char *out, size_t size)
{
	size_t n = strlen(opt);

	for (const char *s = cmd; (s = strstr(s, opt)); s += n) {
		if ((s == cmd || s[-1] == ' ') && (s[n] == ' ' || s[n] == '\t')) {
			const char *v = skip_space(s + n);
			return copy_name(out, size, v, strcspn(v, " \t|;"));
		}
	}
	return false;
}

static bool starts(const char *s, const char *word)
{
	size_t n = strlen(word);

	return strncmp(s, word, n) == 0 && (s[n] == ' ' || s[n] == '\t' || s[n] == '\0');
}

/* A command whose output people paste: names the port (current) and what comes next. bare: the line had no
 * prompt, so only an exact command at its start counts. */
static bool command(struct paste_scan *ps, const char *cmd, bool bare)
{
	char name[64], port[16];
	unsigned long p = 1;

	if (starts(cmd, "sudo"))
		cmd = skip_space(cmd + 4);
	if (starts(cmd, "mlnx_qos")) {
		if (option(cmd, "-i", name, IF_NAMESIZE) || option(cmd, "--interface", name, IF_NAMESIZE))
			ps->current = port_find(ps, name, NULL, 0);
		ps->expect = EXPECT_NONE;
		return true;
	}
	if (starts(cmd, "dcb") && strstr(cmd, " show")) {
		if (option(cmd, "dev", name, IF_NAMESIZE))
			ps->current = port_find(ps, name, NULL, 0);
		ps->expect = EXPECT_NONE;
		return true;
	}
	if (starts(cmd, "ethtool") && (strstr(cmd, " -S ") || strstr(cmd, " --statistics "))) {
		if (option(cmd, "-S", name, IF_NAMESIZE) || option(cmd, "--statistics", name, IF_NAMESIZE))
			ps->current = port_find(ps, name, NULL, 0);
		ps->expect = EXPECT_ETHTOOL;
		return true;
	}
	if (starts(cmd, "show_counters")) {
		const char *v = skip_space(cmd + 13);
		if (copy_name(name, sizeof(name), v, strcspn(v, " \t|")))
			ps->current = port_find(ps, NULL, name, 1);
		ps->expect = EXPECT_ETHTOOL;
		return true;
	}
	if (starts(cmd, "cma_roce_tos")) {
		if (!option(cmd, "-d", name, sizeof(name)))
			snprintf(name, sizeof(name), "mlx5_0");   /* the script's default device */
		if (option(cmd, "-p", port, sizeof(port)))
			p = strtoul(port, NULL, 10);
		snprintf(ps->value_path, sizeof(ps->value_path), "/sys/kernel/config/rdma_cm/%s/ports/%lu/default_roce_tos",
			 name, p);
		ps->current = port_find(ps, NULL, name, (unsigned)p);
		if (option(cmd, "-t", port, sizeof(port))) {
			/* the command sets it: that is the value from now on */
			sysfs_value(ps, ps->value_path, strlen(ps->value_path), port, 0);
			ps->expect = EXPECT_NONE;
		} else
			ps->expect = EXPECT_VALUE;
		return true;
	}
	if (starts(cmd, "cat") || starts(cmd, "more") || starts(cmd, "head")) {
		const char *path = strstr(cmd, "/sys/"), *vlan = strstr(cmd, "/proc/net/vlan/");
		if (vlan) {
			/* /proc/net/vlan/IF: its lines name the VLAN themselves; config lists them all */
			vlan += strlen("/proc/net/vlan/");
			ps->vlan_block[0] = ps->vlan_parent[0] = '\0';
			if (!starts(vlan, "config"))
				copy_name(ps->vlan_block, sizeof(ps->vlan_block), vlan, strcspn(vlan, " \t|;"));
			ps->expect = EXPECT_NONE;
			return true;
		}
		if (!path)
			return !bare;
		snprintf(ps->value_path, sizeof(ps->value_path), "%.*s", (int)strcspn(path, " \t|;"), path);
		ps->expect = strchr(ps->value_path, '*') ? EXPECT_NONE : EXPECT_VALUE;
		return true;
	}
	if (starts(cmd, "rdma") || starts(cmd, "ibdev2netdev") || starts(cmd, "grep") || starts(cmd, "show_gids")) {
		ps->expect = EXPECT_NONE;
		return true;
	}
	return false;
}

/* ---- one-line shapes ---- */

/* "NCCL_IB_TC set by environment to 106." (NCCL's param.cc) or "export NCCL_IB_TC=106" / "NCCL_IB_TC=106". */
static bool nccl_env(struct paste_scan *ps, const char *s, unsigned long number)
{
	static const char *const names[] = { "NCCL_IB_TC", "NCCL_IB_SL" };

	for (size_t i = 0; i < 2; i++) {
		char *to = i == 0 ? ps->nccl_tc : ps->nccl_sl;
		const char *v = NULL, *at = strstr(s, names[i]);
		size_t n;

		if (!at)
			continue;
		if (!strncmp(at + 10, " set by environment to ", 23))
			v = at + 33;
		else if (at[10] == '=' && (at == s || (at - s == 7 && !strncmp(s, "export ", 7))))
			v = at + 11;
		if (!v)
			continue;
		n = strcspn(v, " \t\"'");
		while (n && v[n - 1] == '.')
			n--;
		if (n == 0 || n >= sizeof(ps->nccl_tc))
			continue;
		memcpy(to, v, n);
		to[n] = '\0';
		if (i == 0)
			ps->nccl_tc_line = number;
		return true;
	}
	return false;
}

/* "mlx5_0 port 1 ==> eth2 (Up)" */
static bool ibdev2netdev(struct paste_scan *ps, const char *s)
{
	char dev[64], net[IF_NAMESIZE + 8];
	unsigned port;
	int at;

	if (sscanf(s, "%63s port %u ==> %23s", dev, &port, net) != 3 || strlen(net) >= IF_NAMESIZE)
		return false;
	at = port_join(ps, dev, port, net);
	if (at > 0)
		ps->current = at;
	return true;
}

/* name value name value ... to the end of the line, each value a number: how many pairs, or -1. With qp
 * show's "pid 3 comm client.1", pairs whose value is not a number are passed over. */
static int stat_pairs(struct paste_scan *ps, int port, const char *s, unsigned long number, bool store)
{
	int pairs = 0;

	for (s = skip_space(s); *s;) {
		size_t nl = strcspn(s, " \t"), vl;
		const char *v = skip_space(s + nl);
		uint64_t x;

		vl = strcspn(v, " \t");
		if (!*v || !is_counter_name(s, nl))
			return -1;
		if (parse_u64(v, vl, &x)) {
			if (store)
				counter(ps, port, s, nl, x, number);
			pairs++;
		} else if (nl != 4 || strncmp(s, "comm", 4) != 0) {
			return -1;
		}
		s = skip_space(v + vl);
	}
	return pairs;
}

/* rdma link show ("link mlx5_0/1 state ACTIVE ... netdev eth2") and rdma statistic show ("link mlx5_0/1
 * rx_write_requests 0 ..."; wrapped, or one pair a line with -p). */
static bool rdma_link(struct paste_scan *ps, const char *s, unsigned long number, enum paste_kind *kind)
{
	char dev[64];
	unsigned port;
	int n = 0, at;
	const char *rest, *nd;

	if (sscanf(s, "link %63[^/ ]/%u%n", dev, &port, &n) != 2 || (s[n] && s[n] != ' ' && s[n] != '\t'))
		return false;
	rest = skip_space(s + n);
	if ((nd = strstr(rest, "netdev ")) && (nd == rest || nd[-1] == ' ')) {
		char net[IF_NAMESIZE];
		nd += 7;
		if (copy_name(net, sizeof(net), nd, strcspn(nd, " \t")) && (at = port_join(ps, dev, port, net)) > 0)
			ps->current = at;
		*kind = PASTE_PORT_MAP;
		return true;
	}
	if (starts(rest, "state") || starts(rest, "subnet_prefix"))
		return *kind = PASTE_PORT_MAP, true;
	at = port_find(ps, NULL, dev, port);
	if (stat_pairs(ps, at, rest, number, false) < 0)
		return false;
	stat_pairs(ps, at, rest, number, true);
	ps->stat_port = at;
	ps->current = at;
	*kind = PASTE_RDMA_STATISTIC;
	return true;
}

/* ethtool -S's "     rx_prio3_pause: 12" (and show_counters' "out_of_sequence: 5"), read by the one reader of that
 * text (model/ethtool_text). */
static bool ethtool_stat(struct paste_scan *ps, const char *line, unsigned long number)
{
	struct ethtool_text_stat st;

	if (!ethtool_text_stat(line, &st))
		return false;
	/* outside a block a command line announced, only the shape ethtool prints and a statistic's name */
	if (ps->expect != EXPECT_ETHTOOL && (!st.indented || !paste_counter_name_likely(st.name, st.len)))
		return false;
	counter(ps, ps->current, st.name, st.len, st.value, number);
	return true;
}

/* ---- /proc/net/vlan (net/8021q/vlanproc.c) ---- */

/* The VLAN name belongs to the port of its parent (the RoCE netdev, as mlnx_qos -i and ethtool -S name it), or, with
 * no parent pasted, to a port of its own name. map: its egress QoS map, NULL when not pasted. */
static void vlan_attach(struct paste_scan *ps, const char *name, const char *parent, const uint8_t *map)
{
	int at = port_find(ps, parent[0] ? parent : name, NULL, 0);
	struct paste_port *p = &ps->ports[at];

	snprintf(p->vlan_netdev, sizeof(p->vlan_netdev), "%s", name);
	if (map) {
		memcpy(p->vlan_egress, map, sizeof(p->vlan_egress));
		p->vlan_egress_known = true;
	}
	ps->current = at;
}

/* "eth1.100       | 100  | eth1": config's row (the "%-15s| %d  | %s" of vlan_seq_show). */
static bool vlan_config_row(struct paste_scan *ps, const char *s)
{
	char name[IF_NAMESIZE], parent[IF_NAMESIZE];
	size_t n = strcspn(s, " \t|");
	const char *v;
	uint64_t vid;

	if (!copy_name(name, sizeof(name), s, n) || *(v = skip_space(s + n)) != '|')
		return false;
	v = skip_space(v + 1);
	n = strcspn(v, " \t|");
	if (!parse_u64(v, n, &vid) || vid > 4095 || *(v = skip_space(v + n)) != '|')
		return false;
	v = skip_space(v + 1);
	n = strcspn(v, " \t");
	if (!copy_name(parent, sizeof(parent), v, n) || *skip_space(v + n))
		return false;
	if (ps->vlan_count < PASTE_VLANS_MAX) {
		snprintf(ps->vlans[ps->vlan_count].name, sizeof(ps->vlans[0].name), "%s", name);
		snprintf(ps->vlans[ps->vlan_count++].parent, sizeof(ps->vlans[0].parent), "%s", parent);
	}
	vlan_attach(ps, name, parent, NULL);
	return true;
}

/* " EGRESS priority mappings: 0:3 1:3 ": skb priority -> PCP, one pair per mapping, none when the map is empty;
 * skb priorities above 7 are no ToS's. False when a pair is malformed. */
static bool vlan_egress(const char *s, uint8_t map[QOS_PRIOS])
{
	memset(map, 0, QOS_PRIOS);
	for (s = skip_space(s); *s; s = skip_space(s)) {
		size_t n = strcspn(s, " \t"), colon = strcspn(s, ":");
		uint64_t prio, pcp;

		if (colon >= n || !parse_u64(s, colon, &prio) || !parse_u64(s + colon + 1, n - colon - 1, &pcp) || pcp > 7)
			return false;
		if (prio < QOS_PRIOS)
			map[prio] = (uint8_t)pcp;
		s += n;
	}
	return true;
}

/* A line of /proc/net/vlan/config or /proc/net/vlan/IF. */
static bool vlan_line(struct paste_scan *ps, const char *s)
{
	static const char *const stats[] = { "total frames received", "total bytes received", "Broadcast/Multicast Rcvd",
					     "total frames transmitted", "total bytes transmitted",
					     "INGRESS priority mappings:" };
	char name[IF_NAMESIZE];
	uint8_t map[QOS_PRIOS];
	size_t n;

	if (!strncmp(s, "VLAN Dev name", 13) || !strncmp(s, "Name-Type: VLAN_NAME_TYPE", 25))
		return true;
	n = strcspn(s, " \t");
	if (copy_name(name, sizeof(name), s, n) && !strncmp(skip_space(s + n), "VID: ", 5) && strstr(s, "REORDER_HDR:")) {
		snprintf(ps->vlan_block, sizeof(ps->vlan_block), "%s", name);
		ps->vlan_parent[0] = '\0';
		for (size_t i = 0; i < ps->vlan_count; i++)
			if (!strcmp(ps->vlans[i].name, name))
				snprintf(ps->vlan_parent, sizeof(ps->vlan_parent), "%s", ps->vlans[i].parent);
		return true;
	}
	if (vlan_config_row(ps, s))
		return true;
	if (!ps->vlan_block[0])
		return false;
	for (size_t i = 0; i < sizeof(stats) / sizeof(stats[0]); i++)
		if (!strncmp(s, stats[i], strlen(stats[i])))
			return true;
	if (!strncmp(s, "Device: ", 8)) {
		const char *d = skip_space(s + 8);
		return copy_name(ps->vlan_parent, sizeof(ps->vlan_parent), d, strcspn(d, " \t"));
	}
	if (!strncmp(s, "EGRESS priority mappings:", 25) && vlan_egress(s + 25, map)) {
		vlan_attach(ps, ps->vlan_block, ps->vlan_parent, map);
		ps->vlan_block[0] = '\0';
		return true;
	}
	return false;
}

/* mlnx_qos's lines the reader does not store, once a paste of it began. */
static bool mlnx_header(const struct paste_port *p, const char *s)
{
	static const char *const heads[] = { "dscp2prio mapping:", "Cable len:", "Receive buffer size", "default priority:",
					     "tc_wrap", "Trust state", "ECN" };

	if (!p->mlnx.any)
		return false;
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
		if (!strncmp(s, heads[i], strlen(heads[i])))
			return true;
	return false;
}

/* ---- dcb -j ---- */

static bool looks_dcb_json(const char *text)
{
	static const char *const keys[] = { "\"prio_pfc\"", "\"pfc_cap\"", "\"prio_tc\"", "\"tc_bw\"", "\"tc_tsa\"",
					    "\"dscp_prio\"", "\"order\"", "\"prio_buffer\"", "\"willing\"" };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strstr(text, keys[i]))
			return true;
	return false;
}

static void json_end(struct paste_scan *ps)
{
	struct paste_port *p = &ps->ports[ps->current];
	json_error_t err;
	char why[160];
	json_t *doc;
	int rc;

	ps->json[ps->json_len] = '\0';
	doc = json_loadb(ps->json, ps->json_len, JSON_DISABLE_EOF_CHECK, &err);
	if (!doc) {
		if (looks_dcb_json(ps->json)) {
			note(ps, "the dcb -j output at line %lu is not JSON (%s): its settings are not used", ps->json_line,
			     err.text);
			p->json_bad = true;
		}
	} else if ((rc = dcb_json_read(doc, &p->dcb, why, sizeof(why))) == 0) {
		unsigned long lines = 0;
		for (size_t i = 0; i < ps->json_len; i++)
			lines += ps->json[i] == '\n';
		block(ps, PASTE_DCB_JSON, ps->json_line);
		ps->blocks[ps->block_count ? ps->block_count - 1 : 0].lines += lines ? lines - 1 : 0;
		ps->lines += lines ? lines - 1 : 0;
	} else if (rc == -EBADMSG) {
		note(ps, "the dcb -j output at line %lu has %s: its settings are not used", ps->json_line, why);
		p->json_bad = true;
	}
	json_decref(doc);
	free(ps->json);
	ps->json = NULL;
}

/* Gathers a document line by line until its braces close (strings and escapes followed). */
static void json_feed(struct paste_scan *ps, const char *s, size_t len)
{
	if (ps->json_len + len + 1 >= PASTE_JSON_MAX) {
		note(ps, "the JSON at line %lu is longer than %d bytes: not read", ps->json_line, PASTE_JSON_MAX);
		free(ps->json);
		ps->json = NULL;
		return;
	}
	memcpy(ps->json + ps->json_len, s, len);
	ps->json_len += len;
	ps->json[ps->json_len++] = '\n';
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (ps->json_escape)
			ps->json_escape = false;
		else if (ps->json_string) {
			if (c == '\\')
				ps->json_escape = true;
			else if (c == '"')
				ps->json_string = false;
		}
		else if (c == '"')
			ps->json_string = true;
		else if (c == '{')
			ps->json_depth++;
		else if (c == '}' && --ps->json_depth == 0) {
			json_end(ps);
			return;
		}
	}
}

/* Whether a line can be inside a document dcb -j or -jp prints: a member, a value, a bracket. */
static bool json_continues(const char *s)
{
	return *s == '"' || *s == '{' || *s == '}' || *s == '[' || *s == ']' || *s == ',' || *s == '-' ||
	       isdigit((unsigned char)*s) || !strncmp(s, "true", 4) || !strncmp(s, "false", 5) || !strncmp(s, "null", 4);
}

/* The document being gathered will not close: said when it was dcb's. */
static void json_cut(struct paste_scan *ps)
{
	ps->json[ps->json_len] = '\0';
	if (looks_dcb_json(ps->json)) {
		note(ps, "the dcb -j output at line %lu is cut short (it ends before its braces close): its settings "
		     "are not used", ps->json_line);
		ps->ports[ps->current].json_bad = true;
	}
	free(ps->json);
	ps->json = NULL;
}

static bool json_start(struct paste_scan *ps, const char *s, size_t len, unsigned long number)
{
	if (*s != '{')
		return false;
	ps->json = malloc(PASTE_JSON_MAX);
	if (!ps->json)
		return false;
	ps->json_len = 0;
	ps->json_depth = 0;
	ps->json_string = ps->json_escape = false;
	ps->json_line = number;
	json_feed(ps, s, len);
	return true;
}

/* ---- the line ---- */

bool paste_scan_line(struct paste_scan *ps, const char *line, size_t len, unsigned long number)
{
	const char *s = skip_space(line), *cmd;
	enum paste_kind kind = PASTE_SYSFS;
	struct paste_port *p;
	int stat_port = ps->stat_port;

	/* A document being gathered is offered to the log's patterns too: a '{' in a log that is no dcb -j
	 * output must not hide the lines after it. */
	if (ps->json && json_continues(s)) {
		json_feed(ps, line, len);
		return false;
	}
	if (ps->json)
		json_cut(ps);   /* a line no JSON document has: the one gathered ended before its braces closed */
	ps->stat_port = -1;
	if (*s == '`')   /* a command quoted in markdown: `ethtool -S eth2 | grep prio` */
		s = skip_space(s + 1);
	if ((cmd = after_prompt(s)) ? command(ps, cmd, false) : command(ps, s, true)) {
		ps->block_open = false;
		return true;
	}
	if (cmd)
		ps->expect = EXPECT_NONE;   /* a command we do not read: what follows is not ours */
	if (nccl_env(ps, s, number))
		return false;   /* the job's own line: the log's patterns read it too */
	if (ps->expect == EXPECT_VALUE) {
		ps->expect = EXPECT_NONE;
		if (sysfs_value(ps, ps->value_path, strlen(ps->value_path), s, number)) {
			block(ps, PASTE_SYSFS, number);
			return true;
		}
	}
	if (!strncmp(s, "/sys/", 5)) {
		size_t at = strcspn(s, ":");
		if (s[at] == ':' && sysfs_value(ps, s, at, s + at + 1, number)) {
			block(ps, PASTE_SYSFS, number);
			return true;
		}
	}
	if (ibdev2netdev(ps, s)) {
		block(ps, PASTE_PORT_MAP, number);
		return true;
	}
	if (rdma_link(ps, s, number, &kind)) {
		block(ps, kind, number);
		return true;
	}
	if (stat_port >= 0 && stat_pairs(ps, stat_port, s, number, false) > 0) {
		stat_pairs(ps, stat_port, s, number, true);
		ps->stat_port = stat_port;
		block(ps, PASTE_RDMA_STATISTIC, number);
		return true;
	}
	if (vlan_line(ps, s)) {
		block(ps, PASTE_VLAN, number);
		return true;
	}
	p = &ps->ports[ps->current];
	/* a second mlnx_qos paste with no command line between: another port, not the same one again */
	if ((!strncmp(s, "DCBX mode:", 10) || !strncmp(s, "Priority trust state:", 21)) && p->mlnx.dcb.trust_known &&
	    p->mlnx.dcb.pfc_known && ps->port_count < PASTE_PORTS_MAX) {
		port_reset(&ps->ports[ps->port_count]);
		ps->current = (int)ps->port_count++;
		p = &ps->ports[ps->current];
	}
	if (mlnx_qos_line(&p->mlnx, line) || mlnx_header(p, s)) {
		if (!p->mlnx_line)
			p->mlnx_line = number;
		block(ps, PASTE_MLNX_QOS, number);
		return true;
	}
	if (dcb_text_line(&p->dcb, s)) {
		block(ps, PASTE_DCB, number);
		return true;
	}
	if (json_start(ps, s, len - (size_t)(s - line), number))
		return false;
	/* ethtool -S's header, and show_counters' "Port 1 hw counters:" */
	if (!strncmp(s, "NIC statistics:", 15) || (!strncmp(s, "Port ", 5) && strstr(s, " hw counters:"))) {
		ps->expect = EXPECT_ETHTOOL;
		block(ps, PASTE_ETHTOOL, number);
		return true;
	}
	if (ethtool_stat(ps, line, number)) {
		block(ps, PASTE_ETHTOOL, number);
		return true;
	}
	ps->block_open = false;
	if (ps->expect == EXPECT_ETHTOOL)
		ps->expect = EXPECT_NONE;
	return false;
}

void paste_scan_end_file(struct paste_scan *ps)
{
	if (ps->json)
		json_cut(ps);
	for (size_t i = 0; i < ps->port_count; i++) {
		struct paste_port *p = &ps->ports[i];
		if (p->mlnx.any && !(p->mlnx.dcb.trust_known && p->mlnx.dcb.pfc_known) && p->mlnx_line)
			note(ps, "the mlnx_qos -i paste at line %lu ends before its %s: its settings are not used",
			     p->mlnx_line, p->mlnx.dcb.trust_known ? "PFC table" : "trust state");
	}
	ps->expect = EXPECT_NONE;
	ps->stat_port = -1;
	ps->block_open = false;
	ps->current = 0;
	ps->vlan_block[0] = ps->vlan_parent[0] = '\0';
}

bool paste_scan_any(const struct paste_scan *ps)
{
	return ps && (ps->block_count > 0 || ps->note_count > 0);
}

/* mlnx_qos's settings over dcb's, section by section; the pause counters stay dcb's. */
static void merge_mlnx(struct qos_dcb *d, const struct qos_dcb *m)
{
	if (m->trust_known) {
		d->trust_known = true;
		d->trust = m->trust;
		d->trust_source = m->trust_source;
	}
	if (m->pfc_known) {
		d->pfc_known = true;
		d->pfc_enabled = m->pfc_enabled;
	}
	if (m->app_known) {
		d->app_known = true;
		d->dscp_mapped = m->dscp_mapped;
		memcpy(d->dscp_prio, m->dscp_prio, sizeof(d->dscp_prio));
	}
	if (m->ets_known) {
		d->ets_known = true;
		memcpy(d->prio_tc, m->prio_tc, sizeof(d->prio_tc));
		memcpy(d->tc_bw, m->tc_bw, sizeof(d->tc_bw));
		memcpy(d->tc_tsa, m->tc_tsa, sizeof(d->tc_tsa));
	}
	if (m->dcbx_known) {
		d->dcbx_known = true;
		d->dcbx = m->dcbx;
	}
	if (m->buffer_known) {
		d->buffer_known = true;
		memcpy(d->prio_buffer, m->prio_buffer, sizeof(d->prio_buffer));
	}
}

int paste_scan_model(const struct paste_scan *ps, struct qos_host *q, const char **tc, const char **sl)
{
	q->ports = calloc(PASTE_PORTS_MAX, sizeof(*q->ports));
	q->count = 0;
	*tc = ps->nccl_tc[0] ? ps->nccl_tc : NULL;
	*sl = ps->nccl_sl[0] ? ps->nccl_sl : NULL;
	if (!q->ports)
		return -ENOMEM;
	for (size_t i = 0; i < ps->port_count; i++) {
		const struct paste_port *p = &ps->ports[i];
		struct qos_port *out = &q->ports[q->count];
		struct mlnx_qos_reader r = p->mlnx;
		struct qos_dcb m;
		bool cut = false, ecn = false;

		memset(out, 0, sizeof(*out));
		out->dcb = p->dcb;
		if (p->mlnx.any) {
			if (mlnx_qos_finish(&r, &m))
				merge_mlnx(&out->dcb, &m);
			else
				cut = true;
		}
		dcb_settings_finish(&out->dcb);
		if (cut || p->json_bad) {
			/* a paste of this port was cut short: what it lacks may be what decides, so nothing is judged */
			memset(&out->dcb, 0, sizeof(out->dcb));
			out->dcb.error = -EBADMSG;
		} else if (!out->dcb.known)
			out->dcb.error = -ENOENT;
		for (unsigned prio = 0; prio < QOS_PRIOS; prio++)
			ecn = ecn || p->ecn[prio] != QOS_UNKNOWN;
		if (!out->dcb.known && out->dcb.error != -EBADMSG && p->forced_tc < 0 && p->default_roce_tos < 0 && !ecn)
			continue;
		/* Pasted settings without PFC's say nothing of lossless: the rules would take "not pasted" for "off".
		 * paste_scan_missing says what to paste. */
		if (out->dcb.known && !out->dcb.pfc_known)
			continue;
		/* a port no command line named: placeholders the fix lines show as such */
		snprintf(out->device, sizeof(out->device), "%s", p->device[0] ? p->device : "<device>");
		out->port = p->port ? p->port : 1;
		snprintf(out->netdev, sizeof(out->netdev), "%s", p->netdev[0] ? p->netdev : "<netdev>");
		out->forced_tc = p->forced_tc;
		out->default_roce_tos = p->default_roce_tos;
		/* a VLAN pasted on it (/proc/net/vlan): RoCE frames carry its PCP */
		out->vlan = p->vlan_netdev[0] != '\0';
		snprintf(out->vlan_netdev, sizeof(out->vlan_netdev), "%s", p->vlan_netdev);
		out->vlan_egress_known = p->vlan_egress_known;
		memcpy(out->vlan_egress, p->vlan_egress, sizeof(out->vlan_egress));
		memcpy(out->ecn, p->ecn, sizeof(out->ecn));
		q->count++;
	}
	return 0;
}

void paste_scan_missing(const struct paste_scan *ps, struct notes *out)
{
	for (size_t i = 0; i < ps->port_count; i++) {
		const struct paste_port *p = &ps->ports[i];
		struct mlnx_qos_reader r = p->mlnx;
		struct qos_dcb d = p->dcb, m;
		const char *name = p->netdev[0] ? p->netdev : "IF";

		if (p->mlnx.any && mlnx_qos_finish(&r, &m))
			merge_mlnx(&d, &m);
		dcb_settings_finish(&d);
		if (!d.known)
			continue;
		if (!d.pfc_known)
			notes_add(out, "%s: its PFC settings are not pasted, so the lossless chain is not judged: paste "
				  "`dcb pfc show dev %s` (or `mlnx_qos -i %s`) too", name, name, name);
		else if (!d.trust_known)
			notes_add(out, "%s: its trust mode is not pasted, so the priority of NCCL's traffic is not known: "
				  "paste `dcb app show dev %s` and `dcb apptrust show dev %s` (or `mlnx_qos -i %s`) too",
				  name, name, name, name);
	}
}

int paste_scan_judge(const struct paste_scan *ps, struct findings *out)
{
	struct qos_host q;
	struct qos_job job = { 0 };

	if (paste_scan_model(ps, &q, &job.tc, &job.sl) < 0)
		return -ENOMEM;
	job.tc_source = "environment";
	check_qos(&q, &job, out);
	qos_host_free(&q);
	return 0;
}
