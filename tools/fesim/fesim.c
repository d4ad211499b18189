/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fesim: QEMU TCG plugin modelling the x86 front end per marked region. */
#include <stdlib.h>
#include <string.h>

#include "fesim.h"
#include "qemu_plugin_api.h"

FESIM_EXPORT int qemu_plugin_version = FESIM_QEMU_PLUGIN_API;

/* The simulation: its settings, models and run state (fesim.h). */
struct fesim fs;

/*
 * qemu_plugin_outs() only shows with `-d plugin`; a refusal to load must be
 * seen without it, so errors also go to stderr.
 */
static void fesim_error(const char *msg)
{
	fputs(msg, stderr);
	qemu_plugin_outs(msg);
}

static void usage(const char *why)
{
	char names[128], msg[1536];

	preset_names(names, sizeof(names));
	snprintf(msg, sizeof(msg),
		 "fesim: %s\n"
		 "fesim: arguments: model=%s[@lru|plru|random|noprefetch][:...] "
		 "(several, at most %d: repeat model= or "
		 "separate with ':' '+' or ',,'; each name once), out=PATH, "
		 "pages=4k|2m, "
		 "cold=on|off, flush=on|off, skip_boot=on|off, memo=on|off, loops=on|off, loop_min=N, speed=on|off, syms=NM_FILE, and geometry overrides applied to every model "
		 "(l1i_size=, l1i_assoc=, l1i_line=, uop_window=, uop_sets=, "
		 "uop_ways=, uop_per_way=, uop_max_ways=, uop_inclusive=, "
		 "uop_jcc_erratum=, itlb4k_entries=, itlb4k_assoc=, "
		 "itlb2m_entries=, itlb2m_assoc=, stlb_entries= (0: none), "
		 "stlb_assoc=, l1i_prefetch=0|1, l1i_policy=, itlb_policy=, "
		 "uop_policy= (lru|plru|random; uop: lru|random), seed=)\n",
		 why, names, FESIM_MAX_MODELS);
	fesim_error(msg);
}

/*
 * One model setting, PRESET[@POLICY]: the preset's geometry under a
 * replacement-policy setting (presets.c, preset_setting()). Its name is
 * the setting as given, so "skylake" and "skylake@plru" are two models
 * whose counters sit side by side; a name given twice is refused.
 */
static int add_setting(struct model_cfg *c, const char *name)
{
	char base[sizeof(c->name)];
	const char *at = strchr(name, '@');
	size_t len = at ? (size_t)(at - name) : strlen(name);
	int m;

	if (len >= sizeof(base) || strlen(name) >= sizeof(c->name))
		return -1;
	for (m = 0; m < fs.n_models; m++)
		if (!strcmp(fs.models[m].cfg.name, name))
			return -1;
	memcpy(base, name, len);
	base[len] = 0;
	if (preset_find(base, c) || (at && preset_setting(c, at + 1)))
		return -1;
	snprintf(c->name, sizeof(c->name), "%s", name);
	return 0;
}

static int add_models(char *list)
{
	char *save = NULL, *name;

	for (name = strtok_r(list, ",:+", &save); name;
	     name = strtok_r(NULL, ",:+", &save)) {
		if (fs.n_models == FESIM_MAX_MODELS)
			return -1;
		if (add_setting(&fs.models[fs.n_models].cfg, name))
			return -1;
		fs.n_models++;
	}
	return 0;
}

/* loop_min=N: the shortest period loop replay looks for (tests set 2 to
 * put every small loop through it; loops.c, LOOP_MIN_PERIOD). */
static bool parse_loop_min(const char *v)
{
	char *end;
	unsigned long n = strtoul(v, &end, 10);

	if (*v < '1' || *v > '9' || *end || n < 2 || n > LOOP_MAX_PERIOD)
		return false;
	fs.loop_min = (u32)n;
	return true;
}

static bool parse_bool(const char *v, bool *out)
{
	if (!strcmp(v, "on") || !strcmp(v, "yes") || !strcmp(v, "true") ||
	    !strcmp(v, "1"))
		*out = true;
	else if (!strcmp(v, "off") || !strcmp(v, "no") || !strcmp(v, "false") ||
		 !strcmp(v, "0"))
		*out = false;
	else
		return false;
	return true;
}

/* One key=value argument split in a copy the caller owns (free(copy)):
 * QEMU's argv strings are not ours to cut. */
struct kv_arg {
	char *copy;
	char *key;
	char *val;		/* NULL: no '=' */
};

static int split_arg(const char *arg, struct kv_arg *kv)
{
	char *eq;

	kv->copy = strdup(arg);
	if (!kv->copy) {
		fesim_error("fesim: out of memory parsing the arguments\n");
		return -1;
	}
	kv->key = kv->copy;
	kv->val = NULL;
	eq = strchr(kv->copy, '=');
	if (eq) {
		*eq = 0;
		kv->val = eq + 1;
	}
	return 0;
}

/* out=: the path is read at exit, long after argv; fesim owns a copy
 * (freed by at_exit), one only even if out= is repeated. */
static char *out_path_copy;

static int set_out_path(const char *path)
{
	char *copy = strdup(path);

	if (!copy) {
		fesim_error("fesim: out of memory parsing the arguments\n");
		return -1;
	}
	free(out_path_copy);
	out_path_copy = copy;
	fs.out_path = copy;
	return 0;
}

/* syms=: the guest's symbol table for per-function figures (attrib.c). */
static int load_symbols(const char *path)
{
	if (attrib_on()) {
		fesim_error("fesim: syms= given twice\n");
		return -1;
	}
	if (attrib_load(path)) {
		fesim_error("fesim: syms=: cannot read text symbols (`nm -n` "
			    "lines: ADDR TYPE NAME) from ");
		fesim_error(path);
		fesim_error("\n");
		return -1;
	}
	return 0;
}

/* The argument first, named: the usage after it is long. */
static void bad_argument(const char *arg)
{
	char why[256];

	snprintf(why, sizeof(why), "bad argument '%s'", arg);
	usage(why);
}

/* True if @key is PRESET or PRESET@SOMETHING. */
static bool names_preset(const char *key, struct model_cfg *probe)
{
	char base[sizeof(probe->name)];
	size_t len = strcspn(key, "@");

	if (len >= sizeof(base))
		return false;
	memcpy(base, key, len);
	base[len] = 0;
	return !preset_find(base, probe);
}

/* Everything but geometry overrides, which are queued in over[]. */
static int parse_arg(const char *arg, const char **over, int *n_over)
{
	struct model_cfg probe;
	struct kv_arg kv;
	int ret = 0;

	if (split_arg(arg, &kv))
		return -1;
	if (!strcmp(kv.key, "model") && kv.val) {
		ret = add_models(kv.val);
		if (ret)
			usage("unknown model or policy, a model given twice, or too "
			      "many models");
	} else if (names_preset(kv.key, &probe) &&
		   (!kv.val || !strcmp(kv.val, "on"))) {
		/* QEMU split "model=a,b" at the comma */
		ret = add_models(kv.key);
		if (ret)
			usage("unknown policy or a model given twice");
	} else if (!strcmp(kv.key, "out") && kv.val) {
		ret = set_out_path(kv.val);
	} else if (!strcmp(kv.key, "syms") && kv.val) {
		ret = load_symbols(kv.val);
	} else if (!strcmp(kv.key, "pages") && kv.val &&
		   (!strcmp(kv.val, "4k") || !strcmp(kv.val, "2m"))) {
		fs.page_shift = kv.val[0] == '4' ? 12 : 21;
	} else if (!strcmp(kv.key, "cold") && kv.val &&
		   parse_bool(kv.val, &fs.cold)) {
		/* parsed */
	} else if (!strcmp(kv.key, "flush") && kv.val &&
		   parse_bool(kv.val, &fs.flush)) {
		/* parsed */
	} else if (!strcmp(kv.key, "skip_boot") && kv.val &&
		   parse_bool(kv.val, &fs.skip_boot)) {
		/* parsed */
	} else if (!strcmp(kv.key, "memo") && kv.val &&
		   parse_bool(kv.val, &fs.memo)) {
		/* parsed */
	} else if (!strcmp(kv.key, "speed") && kv.val &&
		   parse_bool(kv.val, &fs.speed)) {
		/* parsed */
	} else if (!strcmp(kv.key, "loops") && kv.val &&
		   parse_bool(kv.val, &fs.loops)) {
		/* parsed */
	} else if (!strcmp(kv.key, "loop_min") && kv.val &&
		   parse_loop_min(kv.val)) {
		/* parsed */
	} else if (kv.val && preset_override(&probe, kv.key, kv.val) == 1) {
		over[(*n_over)++] = arg;
	} else {
		bad_argument(arg);
		ret = -1;
	}
	free(kv.copy);
	return ret;
}

/* A geometry override, applied to every model. */
static int apply_override(const char *arg)
{
	struct kv_arg kv;

	if (split_arg(arg, &kv))
		return -1;
	for (int m = 0; m < fs.n_models; m++)
		preset_override(&fs.models[m].cfg, kv.key, kv.val);
	free(kv.copy);
	return 0;
}

/* Parse key=value arguments; overrides are applied after all models are
 * known, so their order does not matter. */
static int parse_args(int argc, char **argv)
{
	const char **over = calloc((size_t)argc + 1, sizeof(*over));
	int i, n_over = 0, ret = 0;

	if (!over) {
		fesim_error("fesim: out of memory parsing the arguments\n");
		return -1;
	}
	fs.page_shift = 12;
	fs.memo = true;
	fs.flush = true;
	fs.loops = true;
	fs.loop_min = LOOP_MIN_PERIOD;
	for (i = 0; i < argc && !ret; i++)
		ret = parse_arg(argv[i], over, &n_over);
	if (!ret && !fs.n_models)
		add_models((char[]){ "skylake" });
	for (i = 0; i < n_over && !ret; i++)
		ret = apply_override(over[i]);
	free(over);
	fs.idle = fs.skip_boot;
	return ret;
}

static void summary(void)
{
	struct counters tot;
	char buf[512];
	int i;

	totals(&tot);
	snprintf(buf, sizeof(buf), "fesim: %llu insns, %u regions, "
		 "footprint %llu bytes\n",
		 (unsigned long long)tot.c.insns, fs.n_regions,
		 (unsigned long long)tot.c.footprint_bytes);
	qemu_plugin_outs(buf);
	for (i = 0; i < fs.n_models; i++) {
		const struct model_ctr *m = &tot.m[i];

		snprintf(buf, sizeof(buf), "fesim: %s: l1i %llu/%llu misses, "
			 "uop %llu/%llu misses, itlb %llu/%llu walks\n",
			 fs.models[i].cfg.name,
			 (unsigned long long)m->l1i_misses,
			 (unsigned long long)m->l1i_accesses,
			 (unsigned long long)m->uop_misses,
			 (unsigned long long)m->uop_lookups,
			 (unsigned long long)m->itlb_misses,
			 (unsigned long long)m->itlb_accesses);
		qemu_plugin_outs(buf);
	}
}

static void at_exit(qemu_plugin_id_t id, void *userdata)
{
	bulk_flush_all();
	if (fs.loops)
		loops_flush();
	tally_settle();
	if (!fs.out_path)
		summary();
	else if (output_write(fs.out_path))
		fesim_error("fesim: cannot write the output file\n");
	fs.out_path = NULL;
	free(out_path_copy);
	out_path_copy = NULL;
	models_free();
	loops_free();
	attrib_free();
	callgraph_free();
	tally_free();
	/* the instrumented build of pgo_build.py writes its profile here */
	if (fesim_pgo_dump)
		fesim_pgo_dump();
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	struct tb_info *ti = tb_analyse(tb);

	if (fs.loops)
		loops_tb_new(ti);
	callgraph_tb_new(ti);
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec,
					     QEMU_PLUGIN_CB_NO_REGS, ti);
}

FESIM_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
				     const qemu_info_t *info,
				     int argc, char **argv)
{
	if (info->version.cur < FESIM_QEMU_PLUGIN_API ||
	    info->version.min > FESIM_QEMU_PLUGIN_API) {
		fesim_error("fesim: QEMU does not offer plugin API 1\n");
		return -1;
	}
	if (strcmp(info->target_name, "x86_64")) {
		fesim_error("fesim: only x86_64 guests are modelled\n");
		return -1;
	}
	/* One vCPU: the models are one core's front end and the run state
	 * (current region, last line) is not shared between threads. */
	if (info->system_emulation && info->system.smp_vcpus > 1) {
		fesim_error("fesim: needs -smp 1\n");
		return -1;
	}
	fs.system = info->system_emulation;
	fs.slot_occ = calloc(FESIM_NSLOTS, sizeof(*fs.slot_occ));
	if (!fs.slot_occ) {
		fesim_error("fesim: out of memory\n");
		return -1;
	}
	if (parse_args(argc, argv))
		return -1;
	if (models_init()) {
		usage("a model geometry is invalid (sizes must be powers of "
		      "two; windows 32 or 64 bytes)");
		return -1;
	}
	if (fs.loops && loops_init()) {
		fesim_error("fesim: out of memory\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
