// SPDX-License-Identifier: GPL-2.0-only
/* Whether the ports a job runs on differ in speed, and the NCCL_IB_HCA of the fastest: the speeds grouped in the
 * ports' order, each speed once. */
#include "core/rail_speeds.h"

#include <stdio.h>
#include <string.h>

#include "util/text_append.h"

void rail_speeds_judge(const struct host *host, const struct nccl_port_ref *ports, const double *gbps, size_t n,
		       struct rail_speeds *out)
{
	struct nccl_port_ref fastest[NCCL_LEFT_OUT_MAX];
	double max = 0, min = 0;
	size_t n_fast = 0, groups = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		if (gbps[i] <= 0)
			return;
		max = i == 0 || gbps[i] > max ? gbps[i] : max;
		min = i == 0 || gbps[i] < min ? gbps[i] : min;
	}
	if (n < 2 || max == min)
		return;
	out->mixed = true;
	out->fastest = max;
	for (size_t i = 0; i < n; i++) {
		bool first_of_speed = true;

		for (size_t j = 0; j < i; j++)
			first_of_speed &= gbps[j] != gbps[i];
		if (!first_of_speed)
			continue;
		text_append(out->groups, sizeof(out->groups), "%s", groups++ ? "; " : "");
		for (size_t j = i, k = 0; j < n; j++)
			if (gbps[j] == gbps[i])
				text_append(out->groups, sizeof(out->groups), "%s%s/%u", k++ ? ", " : "", ports[j].device,
					    ports[j].port);
		text_append(out->groups, sizeof(out->groups), " at %g Gb/s", gbps[i]);
	}
	for (size_t i = 0; i < n && n_fast < NCCL_LEFT_OUT_MAX; i++)
		if (gbps[i] == max)
			fastest[n_fast++] = ports[i];
	nccl_hca_value(host, fastest, n_fast, false, out->keep_fastest, sizeof(out->keep_fastest));
}

void rail_speeds_warning(const struct rail_speeds *r, const char *ports_word, char *buf, size_t size)
{
	buf[0] = '\0';
	if (!r->mixed)
		return;
	snprintf(buf, size, "the %s ports differ in speed: %s. NCCL spreads a job over all of them and the slower rails "
		 "hold the faster back; to keep only the fastest (%g Gb/s) rails: export NCCL_IB_HCA=%s", ports_word,
		 r->groups, r->fastest, r->keep_fastest);
}
