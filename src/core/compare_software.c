// SPDX-License-Identifier: GPL-2.0-only
/* compare's node-wide software rules: kernel, rdma-core, providers, memlock and firewall (NCCL versions:
 * compare_nccl_libs.c). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/compare_group.h"

static void fix_kernel(const struct compare_ctx *c, const void *arg, const char *want, const struct value_group *odd,
		       const char *nodes, char *buf, size_t size)
{
	(void)c, (void)arg, (void)odd;
	snprintf(buf, size,
		 "on %s: install kernel %s and boot it (`apt install linux-image-%s` or `dnf install kernel-%s`, "
		 "then `reboot`)", nodes, want, want, want);
}

static void fix_rdma_core(const struct compare_ctx *c, const void *arg, const char *want,
			  const struct value_group *odd, const char *nodes, char *buf, size_t size)
{
	(void)c, (void)arg, (void)odd;
	snprintf(buf, size,
		 "on %s: install rdma-core %s (`apt install rdma-core=%s ibverbs-providers=%s libibverbs1=%s` or "
		 "`dnf install rdma-core-%s libibverbs-%s`)", nodes, want, want, want, want, want, want);
}

static void fix_providers(const struct compare_ctx *c, const void *arg, const char *want,
			  const struct value_group *odd, const char *nodes, char *buf, size_t size)
{
	(void)c, (void)arg, (void)odd;
	snprintf(buf, size,
		 "on %s: install the providers the others have (%s): the libibverbs provider package of the same "
		 "rdma-core release (`apt install ibverbs-providers` or `dnf install libibverbs`), and remove stray "
		 "ones from /etc/libibverbs.d", nodes, want);
}

static void fix_memlock(const struct compare_ctx *c, const void *arg, const char *want, const struct value_group *odd,
			const char *nodes, char *buf, size_t size)
{
	(void)c, (void)arg;
	if (strcmp(odd->value, "unlimited") == 0) {
		/* the odd node is the right one: the majority's limit is what needs raising */
		snprintf(buf, size,
			 "on %s the limit is unlimited, as NCCL needs; the %s on the other nodes is what to raise "
			 "(`roce-doctor check --only memlock` there prints the files)", nodes, want);
		return;
	}
	snprintf(buf, size,
		 "on %s: raise the locked-memory limit to unlimited (the others have %s): "
		 "/etc/security/limits.d/99-nccl.conf with\n"
		 "* soft memlock unlimited\n* hard memlock unlimited\n"
		 "and /etc/systemd/system.conf.d/90-memlock.conf with\n[Manager]\nDefaultLimitMEMLOCK=infinity\n"
		 "then `systemctl daemon-reexec` and log in again (containers: `--ulimit memlock=-1:-1`)",
		 nodes, want);
}

static void fix_firewall(const struct compare_ctx *c, const void *arg, const char *want, const struct value_group *odd,
			 const char *nodes, char *buf, size_t size)
{
	(void)c, (void)arg;
	snprintf(buf, size,
		 "on %s (firewall %s, the others %s): let RoCE v2 and NCCL's sockets through as the others do: "
		 "`firewall-cmd --permanent --add-port=4791/udp --add-port=1024-65535/tcp && firewall-cmd --reload` "
		 "with firewalld, `nft add rule inet filter input udp dport 4791 accept` with nftables; "
		 "`roce-doctor check --only firewall` on them says which rule drops", nodes, odd->value, want);
}

/* "mlx5=58.0,rxe=58.0" sorted by name, so the order a snapshot lists them in does not matter */
static int provider_key(const struct compare_node *node, char **key)
{
	const struct compare_setting **sorted;
	size_t len = 1;
	char *text;

	*key = NULL;
	if (!node->providers_known)
		return 0;
	sorted = malloc((node->provider_count ? node->provider_count : 1) * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	for (size_t i = 0; i < node->provider_count; i++) {
		sorted[i] = &node->providers[i];
		len += strlen(node->providers[i].name) + strlen(node->providers[i].value ? node->providers[i].value : "?") + 2;
	}
	/* insertion sort: a node has a handful of providers */
	for (size_t i = 1; i < node->provider_count; i++)
		for (size_t j = i; j > 0 && strcmp(sorted[j - 1]->name, sorted[j]->name) > 0; j--) {
			const struct compare_setting *t = sorted[j];

			sorted[j] = sorted[j - 1];
			sorted[j - 1] = t;
		}
	text = calloc(1, len + 8);
	if (!text) {
		free(sorted);
		return -ENOMEM;
	}
	for (size_t i = 0; i < node->provider_count; i++)
		text_append(text, len + 8, "%s%s=%s", i ? "," : "", sorted[i]->name, sorted[i]->value ? sorted[i]->value : "?");
	if (!node->provider_count)
		strcpy(text, "none");
	free(sorted);
	*key = text;
	return 0;
}

int compare_software(const struct compare_ctx *c)
{
	const char **keys = calloc(c->n ? c->n : 1, sizeof(*keys));
	char **owned = calloc(c->n ? c->n : 1, sizeof(*owned));
	char (*memlock)[32] = calloc(c->n ? c->n : 1, sizeof(*memlock));
	size_t finite = 0;
	int ret = -ENOMEM;
	const struct {
		struct attribute_rule rule;
		size_t offset;
	} plain[] = {
		{ { "compare.kernel", "kernel", "kernel", SEVERITY_WARN, fix_kernel, NULL, false },
		  offsetof(struct compare_node, kernel) },
		{ { "compare.rdma_core", "rdma-core", "rdma-core", SEVERITY_WARN, fix_rdma_core, NULL, false },
		  offsetof(struct compare_node, rdma_core) },
		{ { "compare.firewall", "firewall", "firewall", SEVERITY_WARN, fix_firewall, NULL, false },
		  offsetof(struct compare_node, firewall) },
	};
	const struct attribute_rule providers = { "compare.providers", "libibverbs providers", "providers", SEVERITY_WARN,
						  fix_providers, NULL, false };
	struct attribute_rule memlock_rule = { "compare.memlock", "memlock limit", "memlock", SEVERITY_WARN,
						     fix_memlock, NULL, false };

	if (!keys || !owned || !memlock)
		goto out;
	for (size_t r = 0; r < sizeof(plain) / sizeof(plain[0]); r++) {
		for (size_t i = 0; i < c->n; i++)
			keys[i] = *(const char *const *)((const char *)&c->nodes[i] + plain[r].offset);
		ret = compare_keys(c, &plain[r].rule, keys, true);
		if (ret >= 0 && strcmp(plain[r].rule.id, "compare.rdma_core") == 0)
			ret = compare_nccl_libs(c);   /* in compare_ids' order */
		if (ret < 0)
			goto out;
	}
	for (size_t i = 0; i < c->n; i++) {
		ret = provider_key(&c->nodes[i], &owned[i]);
		if (ret < 0)
			goto out;
		keys[i] = owned[i];
	}
	ret = compare_keys(c, &providers, keys, true);
	if (ret < 0)
		goto out;
	for (size_t i = 0; i < c->n; i++) {
		const struct compare_node *node = &c->nodes[i];

		keys[i] = memlock[i];
		if (node->memlock_kind == COMPARE_MEMLOCK_UNLIMITED)
			snprintf(memlock[i], sizeof(memlock[i]), "unlimited");
		else if (node->memlock_kind == COMPARE_MEMLOCK_BYTES && ++finite)
			snprintf(memlock[i], sizeof(memlock[i]), "%llu bytes", node->memlock_bytes);
		else
			keys[i] = NULL;
	}
	/* a finite limit makes NCCL's registrations fail under load: the nodes that differ fail */
	memlock_rule.severity = finite ? SEVERITY_FAIL : SEVERITY_WARN;
	ret = compare_keys(c, &memlock_rule, keys, true);
out:
	for (size_t i = 0; owned && i < c->n; i++)
		free(owned[i]);
	free(owned);
	free(keys);
	free(memlock);
	return ret < 0 ? ret : 0;
}
