/* NCCL's settings as NCCL itself will see them, and NCCL's own matching of NCCL_IB_HCA / NCCL_SOCKET_IFNAME.
 *
 * Where NCCL reads settings (src/misc/param.cc, initEnv): the process environment always wins; then ONE user
 * file — $NCCL_CONF_FILE if that variable is set and non-empty in the environment, otherwise $HOME/.nccl.conf;
 * then /etc/nccl.conf. Files only fill in names still unset (setenv without overwrite), so within a file the
 * FIRST line for a name wins. File syntax is literal: a line is NAME=VALUE split at the first '=', lines
 * starting with '#' are skipped, a trailing "\n" and then "\r" are removed, and nothing else — no trimming,
 * no quotes, no "export" — so `NCCL_IB_HCA = mlx5_0` sets a variable named "NCCL_IB_HCA " that NCCL never
 * reads. Lines are read 4095 bytes at a time (fgets into 4096), names and values cut at 1023 bytes. */
#ifndef ROCE_DOCTOR_NCCL_CONF_H
#define ROCE_DOCTOR_NCCL_CONF_H

#include <stdbool.h>
#include <stddef.h>

#include "model/nccl.h"
#include "util/notes.h"
#include "util/rootfs.h"

/* envp: the job's environment (NULL: none); home: the user's home directory for ~/.nccl.conf when envp has
 * no HOME, or always when home_wins (the job of another user than the caller: its HOME is that user's), NULL:
 * none. Files are read under root. Only NCCL_* names are kept; file lines that look meant
 * for NCCL but will not reach it (blanks around '=', "export", quotes) become notes. 0 or -errno. */
int nccl_conf_read(const struct rootfs *root, char *const *envp, const char *home, bool home_wins,
		   struct nccl_conf *out, struct notes *notes);
void nccl_conf_free(struct nccl_conf *conf);

/* The effective setting for name, or NULL when NCCL would see it unset. */
const struct nccl_setting *nccl_conf_get(const struct nccl_conf *conf, const char *name);

/* --- NCCL's interface lists (src/misc/utils.cc parseStringList/matchIfList, as used for NCCL_IB_HCA and
 * NCCL_SOCKET_IFNAME): a leading '^' excludes, then a leading '=' asks for exact names; entries are
 * comma-separated, empty ones dropped, each "prefix[:port]" (the prefix cut at 63 bytes, port by atoi, absent
 * or empty = any port); a name matches an entry when the entry is a prefix of it (or equals it with '='), and
 * the ports agree when either is -1. An empty list selects everything ("^" alone: nothing). NCCL keeps at most
 * 32 entries for NCCL_IB_HCA and 16 for NCCL_SOCKET_IFNAME; the rest are ignored. */

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
