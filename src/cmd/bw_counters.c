// SPDX-License-Identifier: GPL-2.0-only
/* What the local port's hw_counters did during each bw size: a slow run with rxe retransmits or mlx5
 * out_of_sequence beside it explains itself. */
#include "cmd/bw_counters.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probe/hw_counters.h"

int bw_counters_init(struct bw_counters *c, const char *device, unsigned port)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->device, sizeof(c->device), "%s", device);
	c->port = port;
	c->before = malloc(sizeof(*c->before));
	c->after = malloc(sizeof(*c->after));
	c->sizes = json_array();
	if (!c->before || !c->after || !c->sizes) {
		bw_counters_free(c);
		return -ENOMEM;
	}
	/* bw runs on the live host only: the counters are this host's sysfs. */
	c->root_open = rootfs_open(&c->root, NULL) == 0;
	c->lifespan_ms = 10;
	if (c->root_open) {
		char text[32];

		/* The kernel answers hw_counters reads from a copy at most 'lifespan' ms old (10 by default). */
		if (rootfs_read(&c->root, text, sizeof(text), "sys/class/infiniband/%s/ports/%u/hw_counters/lifespan",
				device, port) > 0 ||
		    rootfs_read(&c->root, text, sizeof(text), "sys/class/infiniband/%s/hw_counters/lifespan", device) > 0)
			c->lifespan_ms = (unsigned)strtoul(text, NULL, 10);
		/* bw sleeps this long after every size: a value over 10 s is read as 10 s, not waited out. */
		if (c->lifespan_ms > 10000)
			c->lifespan_ms = 10000;
	}
	return 0;
}

void bw_counters_before(struct bw_counters *c)
{
	c->have_before = c->root_open && hw_counters_read(&c->root, c->device, c->port, c->before) == 0;
}

void bw_counters_after(struct bw_counters *c)
{
	struct hw_counter_move moved[HW_COUNTERS_MAX];
	json_t *obj;
	size_t n;

	/* Past the kernel's cached copy, so a short size's packets land in its own reading, not the next's. */
	if (c->have_before)
		nanosleep(&(struct timespec){ .tv_sec = (c->lifespan_ms + 1) / 1000,
					      .tv_nsec = (long)((c->lifespan_ms + 1) % 1000) * 1000000L }, NULL);
	if (!c->have_before || hw_counters_read(&c->root, c->device, c->port, c->after) != 0) {
		json_array_append_new(c->sizes, json_null());
		return;
	}
	n = hw_counters_moved(c->before, c->after, moved, HW_COUNTERS_MAX);
	obj = json_object();
	for (size_t i = 0; i < n; i++)
		json_object_set_new(obj, moved[i].name, json_integer((json_int_t)moved[i].delta));
	json_array_append_new(c->sizes, obj);
}

json_t *bw_counters_json(const struct bw_counters *c, size_t index)
{
	json_t *v = c->sizes ? json_array_get(c->sizes, index) : NULL;

	return v ? json_incref(v) : json_null();
}

void bw_counters_free(struct bw_counters *c)
{
	free(c->before);
	free(c->after);
	json_decref(c->sizes);
	if (c->root_open)
		rootfs_close(&c->root);
	memset(c, 0, sizeof(*c));
}
