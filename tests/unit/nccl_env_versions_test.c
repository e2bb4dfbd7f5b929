// SPDX-License-Identifier: GPL-2.0-only
/* gid --suggest's and nccl-env's GID advice by NCCL version, on the eight-hca fixture (index 3 on every HCA;
 * 0 and 1 link-local): the line per version, and NCCL_IB_GID_INDEX kept or left out of nccl-env. */
#include <string.h>
#include <sys/socket.h>

#include "core/nccl_env_versions.h"
#include "fixture_host.h"
#include "tap.h"

static struct host host;
static const struct nccl_gid_env unset_env = { NULL, NULL, NULL, NULL };

static void advise(const char *version, struct nccl_advice *a)
{
	static const struct nccl_libs none;

	if (nccl_advice_build(&host, &none, &unset_env, version, a) < 0)
		memset(a, 0, sizeof(*a));
}

static void old_nccl_is_told_the_index_and_why(void)
{
	struct nccl_advice a;
	char line[768];
	int pin;

	advise("2.18.3", &a);
	CHECK(a.count == 1);
	nccl_advice_line(&a.versions[0], line, sizeof(line), &pin);
	CHECK(pin == 3);
	CHECK_STR(line, "set NCCL_IB_GID_INDEX=3 (it would use 0 on every HCA, link-local: before 2.21 NCCL does not choose)");
	nccl_advice_name(&a.versions[0], line, sizeof(line));
	CHECK_STR(line, "NCCL 2.18.3 (--nccl-version)");
	nccl_advice_free(&a);
}

static void new_nccl_is_told_to_leave_it_unset(void)
{
	struct nccl_advice a;
	char line[768];
	int pin;

	advise("2.21.5", &a);
	nccl_advice_line(&a.versions[0], line, sizeof(line), &pin);
	CHECK(pin == -1);
	CHECK_STR(line, "leave it unset; it will pick 3 on every HCA");
	nccl_advice_free(&a);
}

static void nccl_env_keeps_the_index_only_for_an_old_nccl(void)
{
	struct nccl_env env;
	struct nccl_advice a;
	char why[256];
	bool has_index = false;

	CHECK(nccl_env_build(&host, AF_INET, NULL, &env, why, sizeof(why)) == 0);
	advise("2.18", &a);
	nccl_env_follow_versions(&env, &a);
	nccl_advice_free(&a);
	for (size_t i = 0; i < env.count; i++)
		if (strcmp(env.vars[i].name, "NCCL_IB_GID_INDEX") == 0) {
			has_index = strcmp(env.vars[i].value, "3") == 0 && strstr(env.vars[i].comment, "NCCL 2.18 would use 0");
		}
	CHECK(has_index);

	CHECK(nccl_env_build(&host, AF_INET, NULL, &env, why, sizeof(why)) == 0);
	advise("2.28.9", &a);
	nccl_env_follow_versions(&env, &a);
	nccl_advice_free(&a);
	for (size_t i = 0; i < env.count; i++)
		CHECK(strcmp(env.vars[i].name, "NCCL_IB_GID_INDEX") != 0);
	CHECK(strstr(env.summary, "NCCL_IB_GID_INDEX left to NCCL") != NULL);
	CHECK(strcmp(env.vars[env.count - 1].name, "NCCL_IB_DISABLE") == 0);
}

static void no_version_leaves_nccl_env_as_it_was(void)
{
	struct nccl_env env, before;
	struct nccl_advice a = { 0 };
	char why[256];

	CHECK(nccl_env_build(&host, AF_INET, NULL, &env, why, sizeof(why)) == 0);
	before = env;
	nccl_env_follow_versions(&env, &a);
	CHECK(memcmp(&env, &before, sizeof(env)) == 0);
}

/* ib-roce-mixed: mlx5_0 InfiniBand (LID 0x5), mlx5_1 RoCE (3 the routable v2 GID). The IB port is predicted
 * by LID, never counts in "every HCA", and the RoCE advice is what it would be alone. */
static void mixed_host_advice_keeps_the_roce_answer_and_names_the_ib_port(void)
{
	static const struct nccl_libs none;
	struct nccl_advice a;
	struct host mixed;
	char line[768];
	int pin;

	CHECK(probe_fixture("ib-roce-mixed", &mixed) == 0);
	CHECK(nccl_advice_build(&mixed, &none, &unset_env, "2.18.3", &a) == 0 && a.count == 1);
	CHECK(a.versions[0].port_count == 1 && a.versions[0].ib_port_count == 1);
	CHECK(!a.versions[0].ok);
	CHECK_STR(a.versions[0].fix, "export NCCL_IB_GID_INDEX=3");
	CHECK(strstr(a.versions[0].advice, "uses 0 on every RoCE HCA") &&
	      strstr(a.versions[0].advice, "; InfiniBand mlx5_0/1: by LID, no GID index to set"));
	CHECK(a.versions[0].ports[1].gid.verdict == NCCL_GID_INFINIBAND && a.versions[0].ports[1].suggested == -1);
	CHECK(a.versions[0].ports[0].order == 1 && a.versions[0].ports[1].order == 0);   /* host order kept */
	nccl_advice_line(&a.versions[0], line, sizeof(line), &pin);
	CHECK(pin == 3);
	CHECK_STR(line, "set NCCL_IB_GID_INDEX=3 (it would use 0 on every RoCE HCA, link-local: before 2.21 NCCL does "
		  "not choose); InfiniBand mlx5_0/1: by LID, no GID index to set");
	nccl_advice_free(&a);
	CHECK(nccl_advice_build(&mixed, &none, &unset_env, "2.28.9", &a) == 0);
	nccl_advice_line(&a.versions[0], line, sizeof(line), &pin);
	CHECK(a.versions[0].ok && pin == -1);
	CHECK_STR(line, "leave it unset; it will pick 3 on every RoCE HCA; InfiniBand mlx5_0/1: by LID, no GID index to set");
	nccl_advice_free(&a);
	host_free(&mixed);
}

/* infiniband: no RoCE port. Nothing to set; a pinned index is named as useless, with the unset. */
static void ib_only_host_has_nothing_to_set(void)
{
	static const struct nccl_libs none;
	const struct nccl_gid_env pinned = { "3", NULL, NULL, NULL };
	struct nccl_advice a;
	struct host ib;
	char line[768];
	int pin;

	CHECK(probe_fixture("infiniband", &ib) == 0);
	CHECK(nccl_advice_build(&ib, &none, &unset_env, "2.23", &a) == 0);
	CHECK(a.versions[0].ok && a.versions[0].port_count == 0 && a.versions[0].ib_port_count == 1);
	CHECK(!a.versions[0].fix[0] && !strstr(a.versions[0].advice, "every HCA"));
	nccl_advice_line(&a.versions[0], line, sizeof(line), &pin);
	CHECK(pin == -1);
	CHECK_STR(line, "no RoCE port: InfiniBand mlx5_0/1 is addressed by LID, no GID index to set");
	nccl_advice_free(&a);
	CHECK(nccl_advice_build(&ib, &none, &pinned, "2.18", &a) == 0);
	CHECK(a.versions[0].ok && strstr(a.versions[0].advice, "NCCL_IB_GID_INDEX=3 has nothing to do here"));
	CHECK_STR(a.versions[0].fix, "unset NCCL_IB_GID_INDEX");
	nccl_advice_free(&a);
	host_free(&ib);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		fixtures_dir = argv[1];
	if (probe_fixture("eight-hca", &host) < 0)
		return 1;
	RUN(old_nccl_is_told_the_index_and_why);
	RUN(new_nccl_is_told_to_leave_it_unset);
	RUN(nccl_env_keeps_the_index_only_for_an_old_nccl);
	RUN(no_version_leaves_nccl_env_as_it_was);
	RUN(mixed_host_advice_keeps_the_roce_answer_and_names_the_ib_port);
	RUN(ib_only_host_has_nothing_to_set);
	host_free(&host);
	TAP_DONE();
}
