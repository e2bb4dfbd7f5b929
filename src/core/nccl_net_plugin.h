// SPDX-License-Identifier: GPL-2.0-only
/* NCCL_NET_PLUGIN against the net plugins found on the node, with NCCL's own naming rules
 * (src/plugin/plugin_open.cc, openPluginLib; src/plugin/net.cc, initPluginLibsOnceFunc): the value is a comma list;
 * "none" (any case) loads no plugin; each entry is dlopen()ed as given (a path, or a library name the loader
 * searches), then, unless it holds a '/' or already reads libXXX.so, as libnccl-net-ENTRY.so; an entry that
 * prefixes "STATIC_PLUGIN" means the program itself. NCCL before 2.19 tried libnccl-net-ENTRY.so alone. A plugin
 * that cannot be opened is only logged (NET/Plugin: Could not find: ...): NCCL goes on with its own IB and
 * socket transports. */
#ifndef ROCE_DOCTOR_NCCL_NET_PLUGIN_H
#define ROCE_DOCTOR_NCCL_NET_PLUGIN_H

#include <stddef.h>

#include "model/nccl_libs.h"

/* How many entries of value name no library in libs (its net plugins, by the names they were found under). The
 * first one missing goes to entry[] and the names NCCL tries for it, space-separated, to tried[]; the first one
 * found (its real path) to found[] (empty when none). */
size_t nccl_net_plugin_missing(const char *value, const struct nccl_libs *libs, char *entry, size_t entry_size,
			       char *tried, size_t tried_size, char *found, size_t found_size);

#endif
