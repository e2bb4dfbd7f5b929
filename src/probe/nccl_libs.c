// SPDX-License-Identifier: GPL-2.0-only
/* Where a job's NCCL can come from, searched the way people install it: the system package (the linker's
 * cache and ld.so's trusted directories), LD_LIBRARY_PATH, CUDA and conda prefixes, Python environments where
 * training hosts keep them; then which one the dynamic loader gives a plain program and each torch found.
 * Paths in the model and in notes are the host's ("/usr/lib/..."), also under --root. */
#include "probe/nccl_libs.h"
#include "util/env_list.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe/elf_nccl_version.h"
#include "probe/ld_cache.h"
#include "probe/nccl_lib_info.h"
#include "probe/nccl_libs_loader.h"
#include "probe/text_file.h"

#define DIRS_MAX 4096          /* directories listed in one search: thousands of site-packages stop here */
#define DIR_ENTRIES_MAX 100000
#define PATH_LEN NCCL_LIB_PATH_MAX
#define WHERE_LD_CACHE "the linker's cache (/etc/ld.so.cache)"
#define WHERE_TRUSTED "ld.so's system directory"
#define PREFIXES_MAX 1024      /* Python and conda prefixes looked into */
#define HOMES_MAX 1024         /* /home/NAME directories looked into */
#define OPT_MAX 256            /* /opt/NAME directories looked into */

struct finder {
	const struct rootfs *root;
	char *const *envp;
	struct nccl_libs *out;
	struct notes *notes;
	size_t dirs;
	size_t capacity;
	int err;               /* -ENOMEM stops the search */
	bool only_new;         /* ld.so's trusted directories: what another search found keeps its own places */
	char (*prefixes)[PATH_LEN];   /* the Python and conda prefixes searched, each once */
	size_t prefix_count;
	struct ld_search ld;
	struct {
		char path[PATH_LEN], where[PATH_LEN];
	} programs[NCCL_LOADS_MAX];   /* torch's libtorch_cuda.so found, and its environment */
	size_t program_count;
};

/* snprintf that says whether it all fit (a longer path is not searched: PATH_MAX-long names are not NCCL's). */
static bool fit(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fit(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n >= 0 && (size_t)n < size;
}

static bool is_core_name(const char *base)
{
	return strcmp(base, "libnccl.so") == 0 || strncmp(base, "libnccl.so.", 11) == 0;
}

static bool is_plugin_name(const char *base)
{
	return strncmp(base, "libnccl-net", 11) == 0 && strstr(base, ".so");
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static struct nccl_lib *new_lib(struct finder *f)
{
	struct nccl_libs *out = f->out;

	if (out->count == NCCL_LIBS_MAX) {
		if (!out->truncated)
			notes_add(f->notes, "more than %u NCCL libraries and plugins; the rest are not listed",
				  NCCL_LIBS_MAX);
		out->truncated = true;
		return NULL;
	}
	if (out->count == f->capacity) {
		size_t cap = f->capacity ? f->capacity * 2 : 8;
		struct nccl_lib *items = realloc(out->items, cap * sizeof(*items));

		if (!items) {
			f->err = -ENOMEM;
			return NULL;
		}
		out->items = items;
		f->capacity = cap;
	}
	memset(&out->items[out->count], 0, sizeof(out->items[0]));
	return &out->items[out->count++];
}

/* A search of the loader's (how a job's ld.so finds it), not an environment that holds the library. */
static bool is_mechanism(const char *where)
{
	return strcmp(where, WHERE_LD_CACHE) == 0 || strcmp(where, WHERE_TRUSTED) == 0 ||
	       strcmp(where, "LD_LIBRARY_PATH") == 0 || strcmp(where, "NCCL_NET_PLUGIN") == 0 ||
	       strncmp(where, "DT_R", 4) == 0 || strncmp(where, "LD_PRELOAD", 10) == 0;
}

/* Each (name, search) once. The first environment that holds the library goes first: it is its home, however
 * the library was found before (LD_LIBRARY_PATH naming a venv's wheel directory is still that venv's). */
static void add_place(struct nccl_lib *lib, const char *path, const char *where)
{
	size_t at = lib->place_count;

	for (size_t i = 0; i < lib->place_count; i++)
		if (strcmp(lib->places[i].path, path) == 0 && strcmp(lib->places[i].where, where) == 0)
			return;
	if (lib->place_count == NCCL_LIB_FOUND_MAX)
		return;
	if (!is_mechanism(where)) {
		at = 0;
		while (at < lib->place_count && !is_mechanism(lib->places[at].where))
			at++;
		if (at > 0)
			at = lib->place_count;   /* it has a home already */
	}
	memmove(&lib->places[at + 1], &lib->places[at], (lib->place_count - at) * sizeof(lib->places[0]));
	snprintf(lib->places[at].path, PATH_LEN, "%s", path);
	snprintf(lib->places[at].where, PATH_LEN, "%s", where);
	lib->place_count++;
}

/* One file that looks like NCCL or a net plugin by its name: opened through the root, identified by where its
 * links lead, its version read once. */
static struct nccl_lib *add_file(struct finder *f, const char *path, const char *where, bool plugins_only)
{
	const char *base = base_name(path);
	bool plugin = is_plugin_name(base);
	char real[PATH_LEN];
	struct nccl_lib *lib = NULL;
	struct stat st;
	int fd;

	if (f->err || !(plugin || (!plugins_only && is_core_name(base))))
		return NULL;
	fd = rootfs_open_file(f->root, path, real, sizeof(real));
	if (fd == -ENOENT && strcmp(where, WHERE_LD_CACHE) == 0)
		notes_add(f->notes, "/etc/ld.so.cache names %s, which does not exist (run ldconfig)", path);
	else if (fd == -ELOOP)
		notes_add(f->notes, "%s: a symlink loop (or more than 40 links)", path);
	else if (fd < 0 && fd != -ENOENT)
		notes_add(f->notes, "cannot open %s: %s", path, strerror(-fd));
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		notes_add(f->notes, "%s: not a regular file", path);
		goto out;
	}
	for (size_t i = 0; i < f->out->count; i++)
		if (strcmp(f->out->items[i].real_path, real) == 0) {
			lib = &f->out->items[i];
			if (!f->only_new)
				add_place(lib, path, where);
			goto out;
		}
	lib = new_lib(f);
	if (!lib)
		goto out;
	lib->kind = plugin ? NCCL_LIB_NET_PLUGIN : NCCL_LIB_CORE;
	snprintf(lib->real_path, sizeof(lib->real_path), "%s", real);
	add_place(lib, path, where);
	nccl_lib_read_version(fd, lib, f->notes);
out:
	close(fd);
	return lib;
}

/* Lists dir (absent: nothing) once for libnccl* names; false when the directory budget is spent. */
static bool scan_dir(struct finder *f, const char *dir, const char *where, bool plugins_only)
{
	char **names = NULL, path[PATH_LEN];
	size_t count = 0;
	int ret;

	if (f->err)
		return false;
	if (f->dirs == DIRS_MAX) {
		notes_add(f->notes, "more than %u directories searched for NCCL; %s and the rest are not", DIRS_MAX,
			  dir);
		f->dirs++;
	}
	if (f->dirs > DIRS_MAX)
		return false;
	f->dirs++;
	ret = dir_names(f->root, dir, "", DIR_ENTRIES_MAX, &names, &count);
	if (ret == -E2BIG)
		notes_add(f->notes, "%s: more than %u entries; only the first are searched for NCCL", dir,
			  DIR_ENTRIES_MAX);
	else if (ret == -ENOMEM)
		f->err = ret;
	for (size_t i = 0; i < count; i++)
		if (strncmp(names[i], "libnccl", 7) == 0 &&
		    fit(path, sizeof(path), "%s/%s", dir, names[i]))
			add_file(f, path, where, plugins_only);
	names_free(names, count);
	return true;
}

static int from_cache(const char *name, const char *path, void *ctx)
{
	struct finder *f = ctx;
	struct ld_search *ld = &f->ld;

	if (strncmp(name, "libnccl", 7) != 0)
		return 0;
	if (ld->cache_count < LD_CACHE_NAMES_MAX && strlen(name) < sizeof(ld->cache_names[0]) &&
	    fit(ld->cache_paths[ld->cache_count], PATH_LEN, "%s", path))
		snprintf(ld->cache_names[ld->cache_count++], sizeof(ld->cache_names[0]), "%s", name);
	add_file(f, path, WHERE_LD_CACHE, false);
	return f->err != 0;
}

/* After its cache, ld.so searches its trusted directories: a libnccl there that the cache does not name (no
 * ldconfig since it was installed, or no cache at all) is still what a job loads. */
static void search_trusted(struct finder *f)
{
	f->only_new = true;
	for (size_t i = 0; i < f->ld.trusted_count; i++)
		scan_dir(f, f->ld.trusted[i], WHERE_TRUSTED, false);
	f->only_new = false;
}

static void search_ld_cache(struct finder *f)
{
	unsigned char *buf = NULL;
	struct stat st;
	size_t done = 0;
	int fd = rootfs_open_file(f->root, "/etc/ld.so.cache", NULL, 0);

	if (fd < 0) {
		if (fd != -ENOENT)
			notes_add(f->notes, "cannot open /etc/ld.so.cache: %s", strerror(-fd));
		return;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > (off_t)LD_CACHE_MAX_BYTES) {
		notes_add(f->notes, "/etc/ld.so.cache: not a regular file of at most %u bytes", LD_CACHE_MAX_BYTES);
		goto out;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		f->err = -ENOMEM;
		goto out;
	}
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + done, (size_t)st.st_size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	if (ld_cache_parse(buf, done, from_cache, f) == -EBADMSG)
		notes_add(f->notes, "/etc/ld.so.cache: not a glibc ld.so cache, or truncated; its libraries are not "
			  "listed (ldconfig rewrites it)");
out:
	free(buf);
	close(fd);
}

/* A colon list (LD_LIBRARY_PATH, PATH): calls each(dir) for every non-empty element. */
static void each_element(struct finder *f, const char *list, void (*each)(struct finder *, const char *))
{
	char dir[PATH_LEN];

	while (list && *list && !f->err) {
		size_t len = strcspn(list, ":;");

		if (len > 0 && len < sizeof(dir)) {
			fit(dir, sizeof(dir), "%.*s", (int)len, list);
			each(f, dir);
		}
		list += len + (list[len] != '\0');
	}
}

static void ld_library_path_dir(struct finder *f, const char *dir)
{
	scan_dir(f, dir, "LD_LIBRARY_PATH", false);
}

static bool under(const char *path, const char *dir)
{
	size_t len = strlen(dir);

	return strncmp(path, dir, len) == 0 && path[len] == '/';
}

/* torch/lib (PyTorch's own copy, older wheels, and libtorch_cuda.so, whose loader's choice is resolved later)
 * and nvidia/nccl/lib (the nvidia-nccl-cuXX wheel torch >= 2.x loads) of one site-packages directory. */
static void scan_site(struct finder *f, const char *site, const char *where)
{
	char dir[PATH_LEN];

	if (fit(dir, sizeof(dir), "%s/torch/lib", site)) {
		scan_dir(f, dir, where, false);
		if (f->program_count < NCCL_LOADS_MAX - 1 && rootfs_exists(f->root, "%s/libtorch_cuda.so", dir) &&
		    fit(f->programs[f->program_count].path, PATH_LEN, "%s/libtorch_cuda.so", dir)) {
			snprintf(f->programs[f->program_count].where, PATH_LEN, "%s", where);
			f->program_count++;
		}
	}
	if (!fit(dir, sizeof(dir), "%s/nvidia/nccl/lib", site))
		return;
	scan_dir(f, dir, where, false);
	/* Found before by another search (LD_LIBRARY_PATH) or now: the wheel's library keeps its dist-info. */
	for (size_t i = 0; i < f->out->count; i++) {
		struct nccl_lib *lib = &f->out->items[i];
		bool in = under(lib->real_path, dir);

		for (size_t j = 0; !in && j < lib->place_count; j++)
			in = under(lib->places[j].path, dir);
		if (in && !lib->package_manager[0])
			nccl_lib_wheel(f->root, site, lib, f->notes);
	}
}

/* Whether prefix is searched for the first time (each Python or conda prefix is searched once, whichever
 * of PATH, VIRTUAL_ENV, a home or /opt names it first). */
static bool first_visit(struct finder *f, const char *prefix)
{
	for (size_t i = 0; i < f->prefix_count; i++)
		if (strcmp(f->prefixes[i], prefix) == 0)
			return false;
	if (f->prefix_count == PREFIXES_MAX)
		return false;
	snprintf(f->prefixes[f->prefix_count++], PATH_LEN, "%s", prefix);
	return true;
}

/* libdir/python3*\/leaf: the site directories of every Python version under a prefix. */
static void python_sites(struct finder *f, const char *libdir, const char *leaf, const char *where)
{
	char **names = NULL, site[PATH_LEN];
	size_t count = 0;

	if (f->dirs > DIRS_MAX || dir_names(f->root, libdir, "", DIR_ENTRIES_MAX, &names, &count) == -ENOMEM)
		return;
	for (size_t i = 0; i < count && !f->err; i++)
		if (strncmp(names[i], "python3", 7) == 0 &&
		    fit(site, sizeof(site), "%s/%s/%s", libdir, names[i], leaf) &&
		    rootfs_exists(f->root, "%s", site))
			scan_site(f, site, where);
	names_free(names, count);
}

static void python_prefix(struct finder *f, const char *prefix, const char *where)
{
	char libdir[PATH_LEN];

	if (!first_visit(f, prefix))
		return;
	if (fit(libdir, sizeof(libdir), "%s/lib", prefix))
		python_sites(f, libdir, "site-packages", where);
}

static void conda_prefix(struct finder *f, const char *prefix, const char *where)
{
	char dir[PATH_LEN];

	if (!fit(dir, sizeof(dir), "%s/lib", prefix) || !rootfs_exists(f->root, "%s", dir))
		return;
	/* python_prefix marks the prefix visited; the lib/ of one visited already is skipped with it */
	for (size_t i = 0; i < f->prefix_count; i++)
		if (strcmp(f->prefixes[i], prefix) == 0)
			return;
	scan_dir(f, dir, where, false);
	python_prefix(f, prefix, where);
}

/* An activated conda prefix (CONDA_PREFIX, or a PATH entry with conda-meta), named as conda names it: an env
 * under envs/, else the base. */
static void conda_activated(struct finder *f, const char *prefix)
{
	const char *envs = strstr(prefix, "/envs/");
	char where[PATH_LEN];

	if (envs && !strchr(envs + 6, '/'))
		fit(where, sizeof(where), "conda env %s (%s)", envs + 6, prefix);
	else
		fit(where, sizeof(where), "conda base (%s)", prefix);
	conda_prefix(f, prefix, where);
}

static void conda_envs(struct finder *f, const char *envs);

/* A conda installation: its base environment and each envs/NAME. */
static void conda_base(struct finder *f, const char *base)
{
	char prefix[PATH_LEN], where[PATH_LEN];

	if (!rootfs_exists(f->root, "%s/conda-meta", base) && !rootfs_exists(f->root, "%s/envs", base))
		return;
	fit(where, sizeof(where), "conda base (%s)", base);
	conda_prefix(f, base, where);
	if (fit(prefix, sizeof(prefix), "%s/envs", base))
		conda_envs(f, prefix);
}

/* A directory of conda envs (BASE/envs, ~/.conda/envs): each NAME in it. */
static void conda_envs(struct finder *f, const char *envs)
{
	char **names = NULL, prefix[PATH_LEN], where[PATH_LEN];
	size_t count = 0;

	if (dir_names(f->root, envs, "", DIR_ENTRIES_MAX, &names, &count) == -ENOMEM)
		return;
	for (size_t i = 0; i < count && !f->err && f->dirs <= DIRS_MAX; i++)
		if (fit(prefix, sizeof(prefix), "%s/%s", envs, names[i])) {
			fit(where, sizeof(where), "conda env %s (%s)", names[i], prefix);
			conda_prefix(f, prefix, where);
		}
	names_free(names, count);
}

/* A directory that may be a Python environment: a venv (pyvenv.cfg), a conda installation, or a prefix with
 * bin/python3. */
static void maybe_env(struct finder *f, const char *prefix)
{
	char where[PATH_LEN];

	if (rootfs_exists(f->root, "%s/pyvenv.cfg", prefix)) {
		fit(where, sizeof(where), "venv %s", prefix);
		python_prefix(f, prefix, where);
	} else if (rootfs_exists(f->root, "%s/conda-meta", prefix)) {
		conda_base(f, prefix);
	} else if (rootfs_exists(f->root, "%s/bin/python3", prefix)) {
		fit(where, sizeof(where), "python %s", prefix);
		python_prefix(f, prefix, where);
	}
}

/* Where people keep environments in a home: ~/.venv, ~/venv, conda installations, ~/.conda/envs, and the user
 * site of pip install --user. */
static void search_home(struct finder *f, const char *home)
{
	static const char *const venvs[] = { ".venv", "venv" };
	static const char *const condas[] = { "miniconda3", "anaconda3", "miniforge3" };
	char dir[PATH_LEN], where[PATH_LEN];

	for (size_t i = 0; i < sizeof(venvs) / sizeof(venvs[0]); i++)
		if (fit(dir, sizeof(dir), "%s/%s", home, venvs[i]))
			maybe_env(f, dir);
	for (size_t i = 0; i < sizeof(condas) / sizeof(condas[0]); i++)
		if (fit(dir, sizeof(dir), "%s/%s", home, condas[i]))
			conda_base(f, dir);
	if (fit(dir, sizeof(dir), "%s/.conda/envs", home))
		conda_envs(f, dir);
	if (fit(dir, sizeof(dir), "%s/.local/lib", home) && first_visit(f, dir)) {
		fit(where, sizeof(where), "user site (%s/.local)", home);
		python_sites(f, dir, "site-packages", where);
	}
}

/* The job's HOME, /root and each /home/NAME (at most HOMES_MAX). */
static void search_homes(struct finder *f, const char *home)
{
	char **names = NULL, dir[PATH_LEN];
	size_t count = 0;
	int ret;

	if (home)
		search_home(f, home);
	search_home(f, "/root");
	ret = dir_names(f->root, "/home", "", HOMES_MAX, &names, &count);
	if (ret == -E2BIG)
		notes_add(f->notes, "/home: more than %u directories; only the first are searched for NCCL", HOMES_MAX);
	for (size_t i = 0; i < count && !f->err; i++)
		if (fit(dir, sizeof(dir), "/home/%s", names[i]))
			search_home(f, dir);
	names_free(names, count);
}

/* /opt/NAME, /opt/NAME/.venv, /opt/NAME/venv: where images and admins put training environments (a uv venv
 * /opt/torch/.venv is not on a login shell's PATH, yet torchrun runs from it). */
static void search_opt(struct finder *f)
{
	static const char *const inside[] = { "", "/.venv", "/venv" };
	char **names = NULL, dir[PATH_LEN];
	size_t count = 0;
	int ret = dir_names(f->root, "/opt", "", OPT_MAX, &names, &count);

	if (ret == -E2BIG)
		notes_add(f->notes, "/opt: more than %u directories; only the first are searched for NCCL", OPT_MAX);
	for (size_t i = 0; i < count && !f->err; i++)
		for (size_t j = 0; j < sizeof(inside) / sizeof(inside[0]); j++)
			if (fit(dir, sizeof(dir), "/opt/%s%s", names[i], inside[j]))
				maybe_env(f, dir);
	names_free(names, count);
}

/* The interpreters on PATH: DIR/python3 with DIR = PREFIX/bin. */
static void path_dir(struct finder *f, const char *dir)
{
	size_t len = strlen(dir);
	char prefix[PATH_LEN], where[PATH_LEN];

	if (len < 5 || strcmp(dir + len - 4, "/bin") != 0 || !rootfs_exists(f->root, "%s/python3", dir))
		return;
	fit(prefix, sizeof(prefix), "%.*s", (int)(len - 4), dir);
	if (rootfs_exists(f->root, "%s/conda-meta", prefix)) {
		/* an activated conda env: its lib/ holds conda's nccl package, so it is searched as conda's */
		conda_activated(f, prefix);
		return;
	}
	fit(where, sizeof(where), "%s %s", rootfs_exists(f->root, "%s/pyvenv.cfg", prefix) ? "venv" : "python",
		 prefix);
	python_prefix(f, prefix, where);
}

static void search_cuda(struct finder *f)
{
	char **names = NULL, dir[PATH_LEN], where[PATH_LEN];
	size_t count = 0;

	if (dir_names(f->root, "/usr/local", "", DIR_ENTRIES_MAX, &names, &count) == -ENOMEM)
		return;
	for (size_t i = 0; i < count && !f->err; i++)
		if (strcmp(names[i], "cuda") == 0 || strncmp(names[i], "cuda-", 5) == 0) {
			fit(dir, sizeof(dir), "/usr/local/%s/lib64", names[i]);
			fit(where, sizeof(where), "CUDA /usr/local/%s", names[i]);
			scan_dir(f, dir, where, false);
		}
	names_free(names, count);
}

static void search_conda(struct finder *f)
{
	const char *prefix = env_list_get(f->envp, "CONDA_PREFIX");

	/* An activated env is searched as such even when its base is not one of the usual places. */
	if (prefix && *prefix)
		conda_activated(f, prefix);
	conda_base(f, "/opt/conda");
}

static void search_python(struct finder *f, const char *home)
{
	const char *venv = env_list_get(f->envp, "VIRTUAL_ENV");
	char where[PATH_LEN];

	if (venv && *venv) {
		fit(where, sizeof(where), "venv %s", venv);
		python_prefix(f, venv, where);
	}
	each_element(f, env_list_get(f->envp, "PATH"), path_dir);
	search_opt(f);
	search_homes(f, home);
	python_sites(f, "/usr/lib", "dist-packages", "system python (/usr/lib)");
	python_sites(f, "/usr/local/lib", "dist-packages", "python /usr/local");
}

/* NCCL dlopens libnccl-net.so (or libnccl-net-NAME.so for NCCL_NET_PLUGIN=NAME) through the linker's search:
 * plugins sit beside the NCCL they serve or in the linker's paths. */
static void search_plugins(struct finder *f)
{
	size_t cores = f->out->count;
	const char *named = env_list_get(f->envp, "NCCL_NET_PLUGIN");
	char dir[PATH_LEN];

	if (named) {
		f->out->net_plugin_set = true;
		snprintf(f->out->net_plugin, sizeof(f->out->net_plugin), "%s", named);
		if (strchr(named, '/'))
			add_file(f, named, "NCCL_NET_PLUGIN", true);
	}
	for (size_t i = 0; i < cores && !f->err; i++) {
		struct nccl_lib lib = f->out->items[i];   /* a copy: scanning may move the array */

		if (lib.kind != NCCL_LIB_CORE)
			continue;
		for (size_t j = 0; j < lib.place_count; j++) {
			fit(dir, sizeof(dir), "%.*s", (int)(base_name(lib.places[j].path) - lib.places[j].path - 1),
				 lib.places[j].path);
			scan_dir(f, dir[0] ? dir : "/", lib.places[j].where, true);
		}
	}
}

/* One program's choice: the file ld.so opens, as one of the libraries (added when no search listed it). */
static void resolve(struct finder *f, const char *program, const char *where, const struct elf_dynamic *dyn,
		    const char *needed)
{
	struct nccl_load *load = &f->out->loads[f->out->load_count];
	char origin[PATH_LEN], how[PATH_LEN];
	struct nccl_lib *lib;

	memset(load, 0, sizeof(*load));
	snprintf(load->program, sizeof(load->program), "%s", program ? program : "");
	snprintf(load->where, sizeof(load->where), "%s", where ? where : "");
	snprintf(load->needed, sizeof(load->needed), "%s", needed);
	fit(origin, sizeof(origin), "%.*s", program ? (int)(base_name(program) - program - 1) : 0, program ? program : "");
	load->by = ld_search_find(&f->ld, needed, dyn, program ? origin : NULL, load->path, sizeof(load->path));
	if (load->by != NCCL_LOAD_NONE) {
		if (load->by == NCCL_LOAD_RPATH || load->by == NCCL_LOAD_RUNPATH)
			fit(how, sizeof(how), "%s of %s", nccl_load_by_name(load->by), program);
		else
			fit(how, sizeof(how), "%s", load->by == NCCL_LOAD_CACHE ? WHERE_LD_CACHE :
				 load->by == NCCL_LOAD_SYSTEM_DIR ? WHERE_TRUSTED : nccl_load_by_name(load->by));
		lib = add_file(f, load->path, how, false);
		if (!lib) {
			memset(load, 0, sizeof(*load));
			return;
		}
		snprintf(load->real_path, sizeof(load->real_path), "%s", lib->real_path);
	}
	f->out->load_count++;
}

/* A plain program's dlopen("libnccl.so.2") in the job's environment, then each torch's libtorch_cuda.so: its
 * DT_NEEDED libnccl searched with its own DT_RPATH or DT_RUNPATH. */
static void search_loads(struct finder *f)
{
	static struct elf_dynamic dyn;   /* 16 KB: not on the stack */

	resolve(f, NULL, NULL, NULL, "libnccl.so.2");
	for (size_t i = 0; i < f->program_count && !f->err; i++) {
		struct stat st;
		const char *needed = NULL;
		int ret = -ENOENT, fd = rootfs_open_file(f->root, f->programs[i].path, NULL, 0);

		if (fd >= 0)
			ret = fstat(fd, &st) < 0 ? -errno : !S_ISREG(st.st_mode) ? -EINVAL
				: elf_dynamic_read(fd, (size_t)st.st_size, &dyn);
		if (fd >= 0)
			close(fd);
		if (ret == -ENOENT && fd >= 0)
			continue;   /* no .dynamic: NCCL linked in statically (torch 1.x) */
		if (ret < 0) {
			notes_add(f->notes, "%s: %s; which NCCL it loads is not known", f->programs[i].path,
				  ret == -ENOEXEC ? "not an ELF file" : ret == -EBADMSG ? "truncated or damaged ELF headers"
				  : strerror(-ret));
			continue;
		}
		for (size_t j = 0; j < dyn.needed_count && !needed; j++)
			if (is_core_name(dyn.needed[j]))
				needed = dyn.needed[j];
		if (needed)
			resolve(f, f->programs[i].path, f->programs[i].where, &dyn, needed);
	}
}

int nccl_libs_find(const struct rootfs *root, char *const *envp, struct nccl_libs *out, struct notes *notes)
{
	struct finder *f = calloc(1, sizeof(*f));
	const char *home = env_list_get(envp, "HOME");
	int err;

	memset(out, 0, sizeof(*out));
	if (!f)
		return -ENOMEM;
	*f = (struct finder){ .root = root, .envp = envp, .out = out, .notes = notes };
	f->prefixes = calloc(PREFIXES_MAX, sizeof(*f->prefixes));
	if (!f->prefixes) {
		free(f);
		return -ENOMEM;
	}
	if (home && !*home)
		home = NULL;
	ld_search_init(&f->ld, root, env_list_get(envp, "LD_PRELOAD"), env_list_get(envp, "LD_LIBRARY_PATH"));
	search_ld_cache(f);
	search_trusted(f);
	each_element(f, env_list_get(envp, "LD_LIBRARY_PATH"), ld_library_path_dir);
	search_cuda(f);
	search_conda(f);
	search_python(f, home);
	search_loads(f);
	search_plugins(f);
	if (!f->err)
		nccl_libs_dpkg(root, out, notes);
	err = f->err;
	free(f->prefixes);
	free(f);
	if (err) {
		nccl_libs_free(out);
		return err;
	}
	return 0;
}
