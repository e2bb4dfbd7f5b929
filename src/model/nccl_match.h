/* NCCL's interface lists, matched the way NCCL matches them: pure functions of a variable's value
 * (src/misc/utils.cc parseStringList/matchIfList, as used for NCCL_IB_HCA and
 * NCCL_SOCKET_IFNAME): a leading '^' excludes, then a leading '=' asks for exact names; entries are
 * comma-separated, empty ones dropped, each "prefix[:port]" (the prefix cut at 63 bytes, port by atoi, absent
 * or empty = any port); a name matches an entry when the entry is a prefix of it (or equals it with '='), and
 * the ports agree when either is -1. An empty list selects everything ("^" alone: nothing). NCCL keeps at most
 * 32 entries for NCCL_IB_HCA and 16 for NCCL_SOCKET_IFNAME; the rest are ignored. */
#ifndef ROCE_DOCTOR_MODEL_NCCL_MATCH_H
#define ROCE_DOCTOR_MODEL_NCCL_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#define NCCL_IB_HCA_ENTRIES_MAX 32
#define NCCL_SOCKET_IFNAME_ENTRIES_MAX 16

struct nccl_if_entry {
	char prefix[64];
	int port;                    /* -1: any */
};

struct nccl_if_list {
	bool exclude;                /* '^' */
	bool exact;                  /* '=' */
	struct nccl_if_entry entries[NCCL_IB_HCA_ENTRIES_MAX];
	size_t count;
	size_t ignored;              /* entries past max, which NCCL drops */
};

/* max: NCCL_IB_HCA_ENTRIES_MAX or NCCL_SOCKET_IFNAME_ENTRIES_MAX. value NULL is the unset variable. */
void nccl_if_list_parse(const char *value, size_t max, struct nccl_if_list *out);

/* Whether NCCL would use name (port: the RDMA port, or -1 for a netdev). */
bool nccl_if_list_selects(const struct nccl_if_list *list, const char *name, int port);

struct nccl_if_candidate {
	const char *name;
	int port;                    /* -1 for netdevs */
};

/* For n candidates: selected[i] as nccl_if_list_selects(); entry_hits[j] (list->count of them) counts the
 * candidates entry j matches before any '^' inversion — 0 names an entry that matches nothing (a typo
 * such as "mlx_1"). Either output may be NULL. */
void nccl_if_list_match(const struct nccl_if_list *list, const struct nccl_if_candidate *candidates, size_t n,
			bool *selected, unsigned *entry_hits);

#endif
