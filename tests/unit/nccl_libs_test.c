// SPDX-License-Identifier: GPL-2.0-only
/* The NCCL finder's parsers on real and hostile input: ld.so.cache (the surveyed Ubuntu 24.04 GPU node's real
 * cache, every truncation of it, forged headers and offsets, the old and compat formats), the ELF .rodata
 * banner reader (the fixtures' libraries, every truncation, forged headers, a banner across a chunk edge),
 * the ELF .dynamic reader (torch-host's libtorch_cuda.so and libnccl, every truncation, forged headers),
 * version texts, and NCCL's GID choice on hand-built tables.
 * usage: nccl_libs_test FIXTURES_DIR DATA_DIR */
#include <arpa/inet.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/nccl_gid_choice.h"
#include "probe/elf_nccl_version.h"
#include "probe/ld_cache.h"
#include "probe/nccl_lib_info.h"
#include "tap.h"

static const char *fixtures_dir, *data_dir;

static unsigned char *slurp(const char *dir, const char *name, size_t *len)
{
	char path[4096];
	unsigned char *buf;
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0) {
		printf("# cannot open %s\n", path);
		exit(1);
	}
	buf = malloc((size_t)st.st_size + 1);
	*len = (size_t)read(fd, buf, (size_t)st.st_size);
	close(fd);
	return buf;
}

/* A file descriptor holding exactly buf[0..len). */
static int memfile(const void *buf, size_t len)
{
	int fd = memfd_create("lib", 0);

	if (fd < 0 || write(fd, buf, len) != (ssize_t)len)
		exit(1);
	return fd;
}

struct entries {
	size_t count;
	char nccl[256];
	char first_name[256], first_path[256];
	size_t stop_after;   /* 0: never stop */
};

static int collect(const char *name, const char *path, void *ctx)
{
	struct entries *e = ctx;

	if (e->count == 0) {
		snprintf(e->first_name, sizeof(e->first_name), "%s", name);
		snprintf(e->first_path, sizeof(e->first_path), "%s", path);
	}
	e->count++;
	if (strcmp(name, "libnccl.so.2") == 0)
		snprintf(e->nccl, sizeof(e->nccl), "%s", path);
	return e->stop_after && e->count == e->stop_after;
}

static void ld_cache_real_ubuntu_cache_names_libnccl(void)
{
	size_t len;
	unsigned char *buf = slurp(data_dir, "ld.so.cache-ubuntu24.04-h100", &len);
	struct entries e = { 0 };

	CHECK(ld_cache_parse(buf, len, collect, &e) == 0);
	CHECK_STR(e.nccl, "/lib/x86_64-linux-gnu/libnccl.so.2");
	CHECK(e.count > 100);
	e = (struct entries){ .stop_after = 3 };
	CHECK(ld_cache_parse(buf, len, collect, &e) == 0 && e.count == 3);
	free(buf);
}

static void ld_cache_every_truncation_is_refused_whole(void)
{
	size_t len, bad = 0;
	unsigned char *buf = slurp(data_dir, "ld.so.cache-ubuntu24.04-h100", &len);
	struct entries full = { 0 };

	ld_cache_parse(buf, len, collect, &full);
	for (size_t cut = 0; cut < len; cut++) {
		unsigned char *copy = malloc(cut ? cut : 1);   /* exactly cut bytes: ASan sees any over-read */
		struct entries e = { 0 };
		int ret;

		memcpy(copy, buf, cut);
		ret = ld_cache_parse(copy, cut, collect, &e);
		/* Either refused (nothing reported), or every entry was whole before the cut. */
		if (!((ret == -EBADMSG && e.count == 0) || (ret == 0 && e.count == full.count)))
			bad++;
		free(copy);
	}
	CHECK(bad == 0);
	free(buf);
}

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* A new-format cache of one entry, "libnccl.so.2" -> "/x/libnccl.so.2", strings after the entry. */
static size_t forge_new(unsigned char *b)
{
	const size_t header = 48, entry = 24;
	size_t s = header + entry;

	memset(b, 0, 256);
	memcpy(b, "glibc-ld.so.cache1.1", 20);
	put32(b + 20, 1);
	put32(b + header + 0, 0x303);
	put32(b + header + 4, (uint32_t)s);
	memcpy(b + s, "libnccl.so.2", 13);
	put32(b + header + 8, (uint32_t)(s + 13));
	memcpy(b + s + 13, "/x/libnccl.so.2", 16);
	return s + 13 + 16;
}

static void ld_cache_forged_headers_and_offsets_are_refused(void)
{
	unsigned char b[256];
	struct entries e = { 0 };
	size_t len = forge_new(b);

	CHECK(ld_cache_parse(b, len, collect, &e) == 0 && e.count == 1);
	CHECK_STR(e.nccl, "/x/libnccl.so.2");
	put32(b + 20, 0xffffffffu);                           /* nlibs far past the file */
	e = (struct entries){ 0 };
	CHECK(ld_cache_parse(b, len, collect, &e) == -EBADMSG && e.count == 0);
	len = forge_new(b);
	put32(b + 48 + 8, 100000);                            /* a path offset outside the file */
	CHECK(ld_cache_parse(b, len, collect, &e) == -EBADMSG);
	len = forge_new(b);
	CHECK(ld_cache_parse(b, len - 1, collect, &e) == -EBADMSG);   /* the last string loses its NUL */
	memcpy(b, "glibc-ld.so.cache1.2", 20);                          /* an unknown version */
	CHECK(ld_cache_parse(b, len, collect, &e) == -EBADMSG);
	CHECK(ld_cache_parse((const unsigned char *)"ld.so-1.7.0", 11, collect, &e) == -EBADMSG);
	CHECK(ld_cache_parse(b, 0, collect, &e) == -EBADMSG);
}

static void ld_cache_old_format_and_compat_format(void)
{
	unsigned char b[512];
	struct entries e = { 0 };
	const size_t strings = 16 + 12;
	size_t at;

	/* libc5's format alone: offsets count from the end of the entries. */
	memset(b, 0, sizeof(b));
	memcpy(b, "ld.so-1.7.0", 11);
	put32(b + 12, 1);
	put32(b + 16, 1);
	put32(b + 20, 0);
	memcpy(b + strings, "libnccl.so.2", 13);
	put32(b + 24, 13);
	memcpy(b + strings + 13, "/old/libnccl.so.2", 18);
	CHECK(ld_cache_parse(b, strings + 31, collect, &e) == 0 && e.count == 1);
	CHECK_STR(e.nccl, "/old/libnccl.so.2");
	/* glibc 2.x's compat: the new format follows the old entries, 8-byte aligned; its entries win. */
	at = (strings + 7) & ~(size_t)7;
	forge_new(b + at);
	e = (struct entries){ 0 };
	CHECK(ld_cache_parse(b, at + 256, collect, &e) == 0 && e.count == 1);
	CHECK_STR(e.nccl, "/x/libnccl.so.2");
}

static void elf_reads_the_fixture_libraries(void)
{
	static const struct { const char *path, *version, *cuda; } libs[] = {
		{ "nccl-libs/usr/lib/x86_64-linux-gnu/libnccl.so.2.28.3", "2.28.3", "13.0" },
		{ "nccl-libs/opt/conda/envs/train/lib/libnccl.so.2.18.3", "2.18.3", "12.1" },
		{ "nccl-libs/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nccl/lib/libnccl.so.2", "2.28.9", "13.0" },
	};

	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++) {
		size_t len;
		unsigned char *buf = slurp(fixtures_dir, libs[i].path, &len);
		struct elf_nccl_version v;
		int fd = memfile(buf, len);

		CHECK(elf_nccl_version_read(fd, len, &v) == 0);
		CHECK_STR(v.version, libs[i].version);
		CHECK_STR(v.cuda, libs[i].cuda);
		close(fd);
		free(buf);
	}
}

static void elf_refuses_other_files(void)
{
	size_t len;
	unsigned char *plugin = slurp(fixtures_dir, "nccl-libs/opt/conda/envs/train/lib/libnccl-net.so", &len);
	struct elf_nccl_version v;
	int fd = memfile(plugin, len);

	CHECK(elf_nccl_version_read(fd, len, &v) == -ENOENT);   /* ELF, no banner */
	close(fd);
	fd = memfile("not a library\n", 14);
	CHECK(elf_nccl_version_read(fd, 14, &v) == -ENOEXEC);
	close(fd);
	fd = memfile("", 0);
	CHECK(elf_nccl_version_read(fd, 0, &v) == -ENOEXEC);
	close(fd);
	free(plugin);
}

static void elf_every_truncation_never_gives_a_wrong_version(void)
{
	size_t len, wrong = 0, found = 0;
	unsigned char *buf = slurp(fixtures_dir, "nccl-libs/usr/lib/x86_64-linux-gnu/libnccl.so.2.28.3", &len);

	for (size_t cut = 0; cut < len; cut += 7) {
		struct elf_nccl_version v;
		int fd = memfile(buf, cut);
		int ret = elf_nccl_version_read(fd, cut, &v);

		if (ret == 0 && strcmp(v.version, "2.28.3") != 0)
			wrong++;
		found += ret == 0;
		close(fd);
	}
	CHECK(wrong == 0);
	CHECK(found == 0);   /* the section table is at the end: every cut loses it */
	free(buf);
}

static void elf_forged_headers_are_refused(void)
{
	size_t len;
	unsigned char *buf = slurp(fixtures_dir, "nccl-libs/usr/lib/x86_64-linux-gnu/libnccl.so.2.28.3", &len);
	unsigned char *copy = malloc(len);
	Elf64_Ehdr *h = (Elf64_Ehdr *)copy;
	struct elf_nccl_version v;
	int fd;

	memcpy(copy, buf, len);
	h->e_shnum = 0xffff;                                  /* more sections than the file holds */
	fd = memfile(copy, len);
	CHECK(elf_nccl_version_read(fd, len, &v) == -EBADMSG);
	close(fd);
	memcpy(copy, buf, len);
	h->e_shoff = (Elf64_Off)len - 8;                      /* a table that runs past the end */
	fd = memfile(copy, len);
	CHECK(elf_nccl_version_read(fd, len, &v) == -EBADMSG);
	close(fd);
	memcpy(copy, buf, len);
	h->e_shstrndx = h->e_shnum;                           /* names table outside the table */
	fd = memfile(copy, len);
	CHECK(elf_nccl_version_read(fd, len, &v) == -EBADMSG);
	close(fd);
	memcpy(copy, buf, len);
	for (size_t i = 0; i < h->e_shnum; i++)               /* every section 1 TiB long */
		((Elf64_Shdr *)(copy + h->e_shoff))[i].sh_size = 1ull << 40;
	fd = memfile(copy, len);
	CHECK(elf_nccl_version_read(fd, len, &v) == -EBADMSG);
	close(fd);
	free(copy);
	free(buf);
}

#define TORCH_CUDA "torch-host/opt/torch/.venv/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so"

static void elf_dynamic_of_torch_and_nccl(void)
{
	static struct elf_dynamic d;
	size_t len;
	unsigned char *buf = slurp(fixtures_dir, TORCH_CUDA, &len);
	int fd = memfile(buf, len);

	CHECK(elf_dynamic_read(fd, len, &d) == 0);
	CHECK(d.needed_count == 2);
	CHECK_STR(d.needed[0], "libnccl.so.2");
	CHECK_STR(d.soname, "libtorch_cuda.so");
	CHECK(d.has_rpath && !d.has_runpath);
	CHECK_STR(d.rpath, "$ORIGIN/../../nvidia/cudnn/lib:$ORIGIN/../../nvidia/nvshmem/lib:$ORIGIN/../../nvidia/nccl/lib:"
		  "$ORIGIN/../../nvidia/cusparselt/lib:$ORIGIN/../../nvidia/cu13/lib:$ORIGIN");
	close(fd);
	free(buf);
	buf = slurp(fixtures_dir, "torch-host/usr/lib/x86_64-linux-gnu/libnccl.so.2.28.3", &len);
	fd = memfile(buf, len);
	CHECK(elf_dynamic_read(fd, len, &d) == 0);
	CHECK_STR(d.soname, "libnccl.so.2");
	CHECK(!d.has_rpath && !d.has_runpath);
	close(fd);
	free(buf);
	fd = memfile("not a library\n", 14);
	CHECK(elf_dynamic_read(fd, 14, &d) == -ENOEXEC);
	close(fd);
}

static void elf_dynamic_every_truncation_is_refused(void)
{
	static struct elf_dynamic d;
	size_t len, read = 0;
	unsigned char *buf = slurp(fixtures_dir, TORCH_CUDA, &len);

	for (size_t cut = 0; cut < len; cut++) {
		int fd = memfile(buf, cut);
		int ret = elf_dynamic_read(fd, cut, &d);

		read += ret == 0;
		CHECK(ret == 0 || ret == -ENOEXEC || ret == -EBADMSG || ret == -ENOENT);
		close(fd);
	}
	CHECK(read == 0);   /* the section table is at the end: every cut loses it */
	free(buf);
}

/* The section header of .dynamic (by type) in a copy of an ELF64. */
static Elf64_Shdr *dynamic_header(unsigned char *b)
{
	Elf64_Ehdr *h = (Elf64_Ehdr *)b;
	Elf64_Shdr *s = (Elf64_Shdr *)(b + h->e_shoff);

	for (size_t i = 0; i < h->e_shnum; i++)
		if (s[i].sh_type == SHT_DYNAMIC)
			return &s[i];
	return NULL;
}

static void elf_dynamic_forged_headers_are_refused(void)
{
	static struct elf_dynamic d;
	size_t len;
	unsigned char *buf = slurp(fixtures_dir, TORCH_CUDA, &len);
	unsigned char *copy = malloc(len);
	Elf64_Ehdr *h = (Elf64_Ehdr *)copy;
	Elf64_Shdr *dyn;
	Elf64_Dyn *e;
	int fd;

	memcpy(copy, buf, len);
	dyn = dynamic_header(copy);
	CHECK(dyn != NULL);
	dyn->sh_link = h->e_shnum;                            /* its string table outside the table */
	fd = memfile(copy, len);
	CHECK(elf_dynamic_read(fd, len, &d) == -EBADMSG);
	close(fd);
	memcpy(copy, buf, len);
	dyn = dynamic_header(copy);
	dyn->sh_link = 0;                                     /* a string table that is not one */
	fd = memfile(copy, len);
	CHECK(elf_dynamic_read(fd, len, &d) == -EBADMSG);
	close(fd);
	memcpy(copy, buf, len);
	dyn = dynamic_header(copy);
	dyn->sh_size = 1ull << 40;                            /* entries past the end */
	fd = memfile(copy, len);
	CHECK(elf_dynamic_read(fd, len, &d) == -EBADMSG);
	close(fd);
	memcpy(copy, buf, len);
	dyn = dynamic_header(copy);
	e = (Elf64_Dyn *)(copy + dyn->sh_offset);
	for (size_t i = 0; e[i].d_tag != DT_NULL; i++)       /* each name's offset outside .dynstr */
		if (e[i].d_tag == DT_NEEDED || e[i].d_tag == DT_RPATH)
			e[i].d_un.d_val = 0xffffffff;
	fd = memfile(copy, len);
	CHECK(elf_dynamic_read(fd, len, &d) == -EBADMSG);
	close(fd);
	memcpy(copy, buf, len);
	dyn = dynamic_header(copy);
	dyn->sh_type = SHT_PROGBITS;                          /* no .dynamic: a static object */
	fd = memfile(copy, len);
	CHECK(elf_dynamic_read(fd, len, &d) == -ENOENT);
	close(fd);
	free(copy);
	free(buf);
}

/* An ELF64 of two sections (.shstrtab, .rodata) whose .rodata holds banner at offset at. */
static unsigned char *forge_elf(size_t rodata_size, size_t at, const char *banner, size_t *len)
{
	static const char names[] = "\0.shstrtab\0.rodata";
	size_t strtab = sizeof(Elf64_Ehdr), rodata = 4096, shoff = rodata + rodata_size;
	unsigned char *b;
	Elf64_Ehdr *h;
	Elf64_Shdr *s;

	*len = shoff + 3 * sizeof(Elf64_Shdr);
	b = calloc(1, *len);
	h = (Elf64_Ehdr *)b;
	memcpy(h->e_ident, ELFMAG, SELFMAG);
	h->e_ident[EI_CLASS] = ELFCLASS64;
	h->e_ident[EI_DATA] = ELFDATA2LSB;
	h->e_shoff = shoff;
	h->e_shentsize = sizeof(Elf64_Shdr);
	h->e_shnum = 3;
	h->e_shstrndx = 1;
	memcpy(b + strtab, names, sizeof(names));
	memcpy(b + rodata + at, banner, strlen(banner) + 1);
	s = (Elf64_Shdr *)(b + shoff);
	s[1].sh_name = 1, s[1].sh_offset = strtab, s[1].sh_size = sizeof(names);
	s[2].sh_name = 11, s[2].sh_offset = rodata, s[2].sh_size = rodata_size;
	return b;
}

static void elf_banner_across_a_chunk_edge_is_found(void)
{
	/* The reader takes .rodata 1 MiB + 64 bytes at a time, the next read starting 64 bytes before the last
	 * one ended: a banner cut by that edge, at every byte of the cut. */
	const size_t edge = (1u << 20) + 64;
	size_t misses = 0;

	for (size_t back = 1; back < 40; back++) {
		size_t len;
		unsigned char *b = forge_elf(edge + 4096, edge - back, "NCCL version 2.21.5+cuda12.4", &len);
		struct elf_nccl_version v;
		int fd = memfile(b, len);

		if (elf_nccl_version_read(fd, len, &v) != 0 || strcmp(v.version, "2.21.5") != 0 || strcmp(v.cuda, "12.4"))
			misses++;
		close(fd);
		free(b);
	}
	CHECK(misses == 0);
}

static void banner_and_name_versions(void)
{
	struct elf_nccl_version v;
	char out[32];

	CHECK(nccl_banner_parse("NCCL version 2.28.9+cuda13.0", 28, &v) == 0);
	CHECK_STR(v.version, "2.28.9");
	CHECK_STR(v.cuda, "13.0");
	CHECK(nccl_banner_parse("NCCL version 2.28.9", 19, &v) == 0 && v.cuda[0] == '\0');
	CHECK(nccl_banner_parse("NCCL version 2.28.9+cuda", 24, &v) == 0 && v.cuda[0] == '\0');
	CHECK(nccl_banner_parse("NCCL version 2.28", 17, &v) == -EINVAL);
	CHECK(nccl_banner_parse("NCCL version %s", 15, &v) == -EINVAL);   /* the format string beside it */
	nccl_name_version("/usr/lib/libnccl.so.2.28.3", out, sizeof(out));
	CHECK_STR(out, "2.28.3");
	nccl_name_version("/usr/lib/libnccl.so.2", out, sizeof(out));
	CHECK_STR(out, "");
	nccl_name_version("/usr/lib/libnccl.so.2.28.3.bak", out, sizeof(out));
	CHECK_STR(out, "");
}

static void version_texts(void)
{
	struct nccl_version v;
	char buf[32];

	CHECK(nccl_version_parse("2.18", &v) == 0 && v.major == 2 && v.minor == 18 && !v.has_patch);
	CHECK(nccl_version_parse("2.21.5", &v) == 0 && v.patch == 5 && v.has_patch && nccl_version_chooses_gid(&v));
	nccl_version_format(&v, buf, sizeof(buf));
	CHECK_STR(buf, "2.21.5");
	CHECK(nccl_version_parse("2.20.3", &v) == 0 && !nccl_version_chooses_gid(&v));
	CHECK(nccl_version_parse("3.0", &v) == 0 && nccl_version_chooses_gid(&v));
	CHECK(nccl_version_parse("2", &v) == -EINVAL);
	CHECK(nccl_version_parse("2.x", &v) == -EINVAL);
	CHECK(nccl_version_parse("2.18.3.1", &v) == -EINVAL);
	CHECK(nccl_version_parse("", &v) == -EINVAL);
	CHECK(nccl_version_parse("2.18.", &v) == -EINVAL);
}

/* cx6lx-2port's mlx5_0: fe80 EUI-64 at 0/1 (v1/v2), fe80 stable-privacy 2/3, 192.168.88.1 at 4/5. */
static struct gid_entry table[6];
static struct rdma_port port = { .num = 1, .link_layer = LINK_LAYER_ETHERNET, .gids = table, .gid_count = 6 };

static void set_gid(size_t i, const char *text, enum gid_type type)
{
	table[i].index = (unsigned)i;
	inet_pton(AF_INET6, text, &table[i].gid);
	table[i].type = type;
}

static void build_table(void)
{
	set_gid(0, "fe80::5aa2:e1ff:feb0:3772", GID_TYPE_IB_ROCE_V1);
	set_gid(1, "fe80::5aa2:e1ff:feb0:3772", GID_TYPE_ROCE_V2);
	set_gid(2, "fe80::a789:516a:e270:5b33", GID_TYPE_IB_ROCE_V1);
	set_gid(3, "fe80::a789:516a:e270:5b33", GID_TYPE_ROCE_V2);
	set_gid(4, "::ffff:192.168.88.1", GID_TYPE_IB_ROCE_V1);
	set_gid(5, "::ffff:192.168.88.1", GID_TYPE_ROCE_V2);
	port.gid_count = 6;
}

static int predict(const char *version, const struct nccl_gid_env *env, enum nccl_gid_verdict *verdict)
{
	struct nccl_version v;
	struct nccl_gid_prediction p;

	nccl_version_parse(version, &v);
	nccl_gid_predict(&v, &port, env, &p);
	if (verdict)
		*verdict = p.verdict;
	return p.index;
}

static void gid_choice_by_version_and_settings(void)
{
	struct nccl_gid_env env = { 0 };
	enum nccl_gid_verdict verdict;

	build_table();
	CHECK(predict("2.18.3", &env, &verdict) == 0 && verdict == NCCL_GID_LINK_LOCAL);
	CHECK(predict("2.21.5", &env, &verdict) == 5 && verdict == NCCL_GID_GOOD);
	env.gid_index = "0x5";                 /* strtoll base 0 */
	CHECK(predict("2.18.3", &env, &verdict) == 5 && verdict == NCCL_GID_GOOD);
	env.gid_index = "abc";                 /* no digits: 0, no error */
	CHECK(predict("2.28.9", &env, NULL) == 0);
	env.gid_index = "";                    /* empty: the default, so 2.21+ chooses */
	CHECK(predict("2.28.9", &env, NULL) == 5);
	env.gid_index = "-1";
	CHECK(predict("2.28.9", &env, NULL) == 5);
	env.gid_index = "99999999999999999999";   /* ERANGE: the default */
	CHECK(predict("2.18.3", &env, NULL) == 0);
	env.gid_index = "7";                   /* past the table: an empty slot */
	CHECK(predict("2.28.9", &env, &verdict) == 7 && verdict == NCCL_GID_EMPTY);
	env.gid_index = NULL;
	env.roce_version = "1";
	CHECK(predict("2.28.9", &env, &verdict) == 4 && verdict == NCCL_GID_ROCE_V1);
	env.roce_version = NULL;
	env.addr_range = "192.168.0.0/16";
	CHECK(predict("2.28.9", &env, NULL) == 5);
	env.addr_range = "10.0.0.0/8";
	CHECK(predict("2.28.9", &env, NULL) == 0);
	env.addr_range = "10.0.0.0/40";        /* a bad mask: no range */
	CHECK(predict("2.28.9", &env, NULL) == 5);
	env.addr_range = NULL;
	env.addr_family = "AF_INET6";          /* only link-local IPv6: NCCL stays on 0 */
	CHECK(predict("2.28.9", &env, &verdict) == 0 && verdict == NCCL_GID_LINK_LOCAL);
	env.addr_family = "AF_INET7";          /* unknown spelling: AF_INET */
	CHECK(predict("2.28.9", &env, NULL) == 5);
}

static void gid_choice_follows_ncclUpdateGidIndex(void)
{
	struct nccl_gid_env env = { 0 };

	/* The family switch takes the first IPv4 entry whatever its type, then v2 replaces it. */
	build_table();
	port.gid_count = 5;
	CHECK(predict("2.28.9", &env, NULL) == 4);
	/* A v2 entry whose type could not be read (EINVAL in a container) never matches the wanted version. */
	build_table();
	table[5].type = GID_TYPE_UNKNOWN;
	CHECK(predict("2.28.9", &env, NULL) == 4);
	/* A second address: the first v2 of it stays (same family, same version: no change). */
	build_table();
	set_gid(4, "::ffff:192.168.88.1", GID_TYPE_ROCE_V2);
	set_gid(5, "::ffff:192.168.99.1", GID_TYPE_ROCE_V2);
	CHECK(predict("2.28.9", &env, NULL) == 4);
	/* A gap (empty slots 2-3 are zeros) does not stop the walk. */
	build_table();
	table[2] = table[4];
	table[3] = table[5];
	table[2].index = 4;
	table[3].index = 5;
	port.gid_count = 4;
	CHECK(predict("2.28.9", &env, NULL) == 5);
}

/* An InfiniBand port: by LID; from 2.22 index 1 when it carries a FLID, else 0, NCCL_IB_GID_INDEX ignored;
 * before, the pinned or walked index, unused (no GRH). */
static struct gid_entry ib_table[2];
static struct rdma_port ib_port = { .num = 1, .state = 4, .state_name = "ACTIVE", .phys_state = 5,
				    .phys_state_name = "LinkUp", .link_layer = LINK_LAYER_INFINIBAND,
				    .lid_known = true, .lid = 5, .sm_lid_known = true, .sm_lid = 1,
				    .gids = ib_table, .gid_count = 1 };

static struct nccl_gid_prediction predict_ib(const char *version, const struct nccl_gid_env *env)
{
	struct nccl_version v;
	struct nccl_gid_prediction p;

	nccl_version_parse(version, &v);
	nccl_gid_predict(&v, &ib_port, env, &p);
	return p;
}

static void gid_choice_on_infiniband_is_by_lid(void)
{
	struct nccl_gid_env env = { 0 };
	struct nccl_gid_prediction p;

	ib_table[0].index = 0;
	inet_pton(AF_INET6, "fe80::b8ce:f603:a1:b2c0", &ib_table[0].gid);
	ib_table[0].type = GID_TYPE_IB_ROCE_V1;
	p = predict_ib("2.28.9", &env);
	CHECK(p.index == 0 && p.verdict == NCCL_GID_INFINIBAND && !p.pinned && !p.chose);
	CHECK(strstr(p.reason, "by LID 0x5 (SM LID 0x1)") && strstr(p.reason, "only toward another IB subnet"));
	env.gid_index = "3";                   /* 2.22+: ignored on IB */
	p = predict_ib("2.22", &env);
	CHECK(p.index == 0 && !p.pinned);
	p = predict_ib("2.18.3", &env);        /* before: read, exchanged, unused */
	CHECK(p.index == 3 && p.pinned && !p.entry && strstr(p.reason, "without a GRH"));
	env.gid_index = NULL;
	p = predict_ib("2.21.5", &env);        /* 2.21's walk ran on IB too: stays on 0 */
	CHECK(p.index == 0 && p.chose);
	/* A routed-IB GID at 1 with FLID 0x12 (bytes 4-5) */
	ib_table[1].index = 1;
	inet_pton(AF_INET6, "fe80:0:12:1:b8ce:f603:a1:b2c0", &ib_table[1].gid);
	ib_table[1].type = GID_TYPE_IB_ROCE_V1;
	ib_port.gid_count = 2;
	p = predict_ib("2.28.9", &env);
	CHECK(p.index == 1 && strstr(p.reason, "FLID 0x12"));
	p = predict_ib("2.21.5", &env);
	CHECK(p.index == 0);
	ib_port.gid_count = 1;
	/* Link up, port INIT, LID 0: no subnet manager; NCCL does not open it. */
	ib_port.state = 2;
	snprintf(ib_port.state_name, sizeof(ib_port.state_name), "INIT");
	ib_port.lid = 0;
	p = predict_ib("2.28.9", &env);
	CHECK(p.verdict == NCCL_GID_INFINIBAND && strstr(p.reason, "not ACTIVE (INIT, phys state LinkUp, LID 0x0") &&
	      strstr(p.reason, "no subnet manager"));
	ib_port.state = 4;
	snprintf(ib_port.state_name, sizeof(ib_port.state_name), "ACTIVE");
	ib_port.lid_known = false;             /* a snapshot from before LIDs were read */
	p = predict_ib("2.28.9", &env);
	CHECK(strstr(p.reason, "by its LID (unknown here)") != NULL);
	CHECK_STR(nccl_gid_verdict_name(NCCL_GID_INFINIBAND), "InfiniBand");
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: nccl_libs_test FIXTURES_DIR DATA_DIR\n");
		return 2;
	}
	fixtures_dir = argv[1];
	data_dir = argv[2];
	RUN(ld_cache_real_ubuntu_cache_names_libnccl);
	RUN(ld_cache_every_truncation_is_refused_whole);
	RUN(ld_cache_forged_headers_and_offsets_are_refused);
	RUN(ld_cache_old_format_and_compat_format);
	RUN(elf_reads_the_fixture_libraries);
	RUN(elf_refuses_other_files);
	RUN(elf_every_truncation_never_gives_a_wrong_version);
	RUN(elf_forged_headers_are_refused);
	RUN(elf_banner_across_a_chunk_edge_is_found);
	RUN(elf_dynamic_of_torch_and_nccl);
	RUN(elf_dynamic_every_truncation_is_refused);
	RUN(elf_dynamic_forged_headers_are_refused);
	RUN(banner_and_name_versions);
	RUN(version_texts);
	RUN(gid_choice_by_version_and_settings);
	RUN(gid_choice_follows_ncclUpdateGidIndex);
	RUN(gid_choice_on_infiniband_is_by_lid);
	TAP_DONE();
}
