// SPDX-License-Identifier: GPL-2.0-only
/* NCCL's interface lists, matched the way NCCL matches them: pure functions of a variable's value
 * (src/misc/utils.cc parseStringList/matchIfList, as used for NCCL_IB_HCA and
 * NCCL_SOCKET_IFNAME): a leading '^' excludes, then a leading '=' asks for exact names; entries are
 * comma-separated, empty ones dropped, each "prefix[:port]" (the prefix cut at 63 bytes, port by atoi, absent
 * or empty = any port); a name matches an entry when the entry is a prefix of it (or equals it with '='), and
 * the ports agree when either is -1. An empty list selects everything ("^" alone: nothing). NCCL keeps at most
 * 32 entries for NCCL_IB_HCA and 16 for NCCL_SOCKET_IFNAME; the rest are ignored. That is the parser of NCCL
 * 2.30.7 and later ("prefix[:port[:rail[:plane]]]", commit 7ec092af); nccl_if_list_parse_legacy() is the one
 * every NCCL from 2.5 to 2.30.4 has. */
#ifndef ROCE_DOCTOR_MODEL_NCCL_MATCH_H
#define ROCE_DOCTOR_MODEL_NCCL_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#define NCCL_IB_HCA_ENTRIES_MAX 32
#define NCCL_SOCKET_IFNAME_ENTRIES_MAX 16

struct nccl_if_entry {
	char prefix[64];
	int port;                    /* -1: any */
	int rail, plane;             /* -1: unassigned (NCCL >= 2.30.7 reads them; older NCCL skips them) */
	bool extra_fields;           /* the entry has text after ":port" (":rail[:plane]", or more) */
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

/* NCCL_IB_HCA as NCCL 2.5 to 2.30.4 parse it (src/misc/utils.cc before commit 7ec092af): the port is
 * atoi() of everything after the first ':' ("mlx5_0:" and "mlx5_0::0:0" are port 0, which no HCA has; in
 * "mlx5_0:1:0:0" the ":0:0" is never read: port 1). Rail and plane stay -1; extra_fields is set as by the
 * current parser so a caller can say what was not read. */
void nccl_if_list_parse_legacy(const char *value, size_t max, struct nccl_if_list *out);

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
