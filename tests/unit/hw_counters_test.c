// SPDX-License-Identifier: GPL-2.0-only
/* hw_counters: reading rxe's and mlx5's counter directories from a tree, and which counters moved. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/hw_counters.h"
#include "probe/hw_counters.h"
#include "tap.h"

static char tree[] = "/tmp/hw_counters_test.XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[512], dir[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tree, rel);
	/* mkdir -p of the parent */
	for (char *p = strchr(path + strlen(tree) + 1, '/'); p; p = strchr(p + 1, '/')) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(p - path), path);
		mkdir(dir, 0755);
	}
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static const struct hw_counter *find(const struct hw_counter_set *s, const char *name)
{
	for (size_t i = 0; i < s->count; i++)
		if (strcmp(s->items[i].name, name) == 0)
			return &s->items[i];
	return NULL;
}

/* rxe keeps its counters per port; values end in a newline as sysfs writes them. */
static void test_rxe_port_counters(void)
{
	struct rootfs root;
	struct hw_counter_set s;

	put("sys/class/infiniband/rxe0/ports/1/hw_counters/sent_pkts", "1200\n");
	put("sys/class/infiniband/rxe0/ports/1/hw_counters/rcvd_seq_err", "0\n");
	put("sys/class/infiniband/rxe0/ports/1/hw_counters/ack_deferred", "7\n");
	put("sys/class/infiniband/rxe0/ports/1/hw_counters/garbage", "12abc\n");
	put("sys/class/infiniband/rxe0/ports/1/hw_counters/negative", "-4\n");
	CHECK(rootfs_open(&root, tree) == 0);
	CHECK(hw_counters_read(&root, "rxe0", 1, &s) == 0);
	CHECK(s.count == 3);
	CHECK_STR(s.items[0].name, "ack_deferred");    /* sorted */
	CHECK_STR(s.items[2].name, "sent_pkts");
	CHECK(find(&s, "sent_pkts") && find(&s, "sent_pkts")->value == 1200);
	CHECK(!find(&s, "garbage") && !find(&s, "negative"));
	CHECK(hw_counters_read(&root, "rxe9", 1, &s) == -ENOENT);
	CHECK(s.count == 0);
	rootfs_close(&root);
}

/* mlx5 adds device-wide counters and a 'lifespan' setting that is not a count. */
static void test_device_counters_and_lifespan(void)
{
	struct rootfs root;
	struct hw_counter_set s;

	put("sys/class/infiniband/mlx5_0/ports/1/hw_counters/out_of_sequence", "3\n");
	put("sys/class/infiniband/mlx5_0/ports/1/hw_counters/lifespan", "10\n");
	put("sys/class/infiniband/mlx5_0/hw_counters/req_cqe_error", "1\n");
	CHECK(rootfs_open(&root, tree) == 0);
	CHECK(hw_counters_read(&root, "mlx5_0", 1, &s) == 0);
	CHECK(s.count == 2);
	CHECK(find(&s, "device/req_cqe_error") != NULL);
	CHECK(find(&s, "out_of_sequence") != NULL);
	CHECK(find(&s, "lifespan") == NULL);
	rootfs_close(&root);
}

static void set(struct hw_counter_set *s, const char *const *names, const uint64_t *values, size_t n)
{
	s->count = n;
	for (size_t i = 0; i < n; i++) {
		snprintf(s->items[i].name, sizeof(s->items[i].name), "%s", names[i]);
		s->items[i].value = values[i];
	}
}

static void test_moved(void)
{
	static struct hw_counter_set before, after;
	struct hw_counter_move m[8];
	const char *const b_names[] = { "ack_deferred", "out_of_seq_request", "rcvd_pkts", "sent_pkts" };
	const char *const a_names[] = { "ack_deferred", "new_one", "out_of_seq_request", "rcvd_pkts", "sent_pkts" };
	size_t n;

	set(&before, b_names, (const uint64_t[]){ 5, 2, 100, 10 }, 4);
	set(&after, a_names, (const uint64_t[]){ 5, 9, 14, 90, 250 }, 5);
	n = hw_counters_moved(&before, &after, m, 8);
	/* ack_deferred did not move, new_one has no 'before', rcvd_pkts went backwards (a reset). */
	CHECK(n == 2);
	CHECK_STR(m[0].name, "out_of_seq_request");
	CHECK(m[0].delta == 12 && m[0].trouble);
	CHECK_STR(m[1].name, "sent_pkts");
	CHECK(m[1].delta == 240 && !m[1].trouble);
	CHECK(hw_counters_moved(&before, &after, m, 1) == 1);
}

static void test_trouble_names(void)
{
	const char *const trouble[] = { "retry_exceeded_err", "rcvd_rnr_err", "out_of_buffer", "np_cnp_sent",
					"roce_adp_retrans", "local_ack_timeout_err", "duplicate_request",
					"implied_nak_seq_err", "link_downed", "np_ecn_marked_roce_packets" };
	const char *const traffic[] = { "sent_pkts", "rcvd_pkts", "rdma_sends", "rdma_recvs", "ack_deferred",
					"rx_write_requests" };

	for (size_t i = 0; i < sizeof(trouble) / sizeof(trouble[0]); i++)
		CHECK(hw_counter_is_trouble(trouble[i]));
	for (size_t i = 0; i < sizeof(traffic) / sizeof(traffic[0]); i++)
		CHECK(!hw_counter_is_trouble(traffic[i]));
}

int main(void)
{
	char cmd[600];

	if (!mkdtemp(tree))
		return 1;
	RUN(test_rxe_port_counters);
	RUN(test_device_counters_and_lifespan);
	RUN(test_moved);
	RUN(test_trouble_names);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tree);
	TAP_DONE();
}
