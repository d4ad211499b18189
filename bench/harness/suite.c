/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Suite runner: describes the machine and the variants, then runs every
 * selected benchmark (and footprint point) across the selected variants. */
#include <kfront/cmdline.h>
#include <kfront/counters.h>
#include <kfront/errno.h>
#include <kfront/exit.h>
#include <kfront/harness.h>
#include <kfront/printk.h>
#include <kfront/record.h>
#include <kfront/select.h>
#include <kfront/string.h>
#include <kfront/string_helpers.h>
#include <kfront/suite.h>
#include <kfront/suite_backend.h>
#include <kfront/version.h>
#include <kfront/watchdog.h>
#include <kfront/wire.h>

#define MAX_FOOTPRINTS	16

struct suite {
	const struct cmdline *cl;
	struct harness_config cfg;
	const char *bench_sel;
	const char *variant_sel;
	const struct variant_desc *variants[HARNESS_MAX_VARIANTS];
	int nvariants;
	u32 footprints[MAX_FOOTPRINTS];
	int nfootprints;
};

static struct record rec;

static void emit_variants(void)
{
	rec_arr_begin(&rec, "variants");
	for (u32 i = 0; i < kfront_nvariants; i++) {
		const struct variant_desc *v = kfront_variants[i];

		rec_obj_begin(&rec, NULL);
		rec_str(&rec, "name", v->name);
		rec_str(&rec, "cc", v->cc);
		rec_str(&rec, "flags", v->flags);
		rec_u64(&rec, "text_bytes", (u64)((const char *)v->text_end -
						  (const char *)v->text_start));
		rec_hex(&rec, "text_start", (u64)v->text_start);
		if (v->shift)	/* only where a table asked for one */
			rec_u64(&rec, "shift", v->shift);
		rec_obj_end(&rec);
	}
	rec_arr_end(&rec);
}

/* The command line appears once (cmdline): bench= and variant= are in
 * it, so the record of a line at CMDLINE_MAX still fits. */
static void emit_suite_begin(const struct suite *s)
{
	rec_begin(&rec, "suite_begin");
	rec_str(&rec, "kfront", KFRONT_VERSION);
	rec_str(&rec, "git", KFRONT_GIT);
	rec_str(&rec, "cmdline", s->cl->text);
	rec_str(&rec, "context", suite_backend.context);
	counters_describe(&rec);
	rec_str(&rec, "watchdog", watchdog_available() ? suite_backend.watchdog
							: watchdog_reason());
	if (s->cfg.wire)
		rec_str(&rec, "wire", s->cfg.wire->desc);
	emit_variants();
	rec_obj_begin(&rec, "config");
	rec_u64(&rec, "runs", s->cfg.runs);
	rec_u64(&rec, "warmup", s->cfg.warmup);
	rec_u64(&rec, "iters", s->cfg.iters);
	rec_bool(&rec, "quick", s->cfg.quick);
	rec_str(&rec, "method", harness_method_names[s->cfg.method]);
	rec_str(&rec, "state", harness_state_names[s->cfg.state]);
	rec_u64(&rec, "budget_ms", s->cfg.budget_ms);
	rec_arr_begin(&rec, "footprint");
	for (int i = 0; i < s->nfootprints; i++)
		rec_arr_u64(&rec, s->footprints[i]);
	rec_arr_end(&rec);
	if (suite_backend.placement_describe)
		suite_backend.placement_describe(&rec);
	rec_obj_end(&rec);
	rec_emit(&rec);
}

static void emit_suite_end(int status)
{
	rec_begin(&rec, "suite_end");
	rec_u64(&rec, "records", rec_count());
	rec_u64(&rec, "status", (u64)status);
	rec_u64(&rec, "regions", harness_region_count());
	rec_emit(&rec);
}

/* Ends the error line with the valid names: one line, so `kfront run`
 * shows them with the error. */
static void list_variant_names(void)
{
	printk("; valid variants:");
	for (u32 i = 0; i < kfront_nvariants; i++)
		printk(" %s", kfront_variants[i]->name);
	printk("\n");
}

/*
 * Step to the next item of a bench= or variant= list; an empty or overlong
 * item is an error (-EINVAL), never silently skipped or cut.
 */
static int next_item(const char *key, const char **list, char *item, size_t size)
{
	int n = select_next_item(list, item, size);

	if (n > 0)
		return 0;
	if (n == 0)
		printk("kfront: error: %s= has an empty item (two commas, or one at an end)\n",
		       key);
	else
		printk("kfront: error: %s= has an item longer than %zu bytes\n",
		       key, size - 1);
	return -EINVAL;
}

static bool variant_item_matches(const char *item)
{
	for (u32 i = 0; i < kfront_nvariants; i++) {
		if (glob_match(item, kfront_variants[i]->name))
			return true;
	}
	return false;
}

/* Every item of variant= must select a variant: a typo is no silent
 * "run the others". */
static int check_variant_items(const char *sel)
{
	char item[SELECT_ITEM_MAX];

	while (*sel) {
		if (next_item("variant", &sel, item, sizeof(item)))
			return -EINVAL;
		if (!variant_item_matches(item)) {
			printk("kfront: error: variant= item '%s' matches no variant",
			       item);
			list_variant_names();
			return -EINVAL;
		}
	}
	return 0;
}

static int select_variants(struct suite *s)
{
	if (check_variant_items(s->variant_sel))
		return -EINVAL;
	for (u32 i = 0; i < kfront_nvariants; i++) {
		if (!select_match(s->variant_sel, kfront_variants[i]->name))
			continue;
		if (s->nvariants == HARNESS_MAX_VARIANTS) {
			printk("kfront: error: more than %d variants selected\n",
			       HARNESS_MAX_VARIANTS);
			return -EINVAL;
		}
		s->variants[s->nvariants++] = kfront_variants[i];
	}
	return 0;
}

/* Each point within the rules there are, and each once: a point past them
 * would only fail when its turn came, and a repeated one would give two
 * results of the same name. */
static int check_footprints(const struct suite *s)
{
	for (int i = 0; i < s->nfootprints; i++) {
		if (s->footprints[i] > BENCH_FOOTPRINT_MAX) {
			printk("kfront: error: footprint=%u: the network stack "
			       "has %u filter rules; want 0 to %u\n",
			       s->footprints[i], BENCH_FOOTPRINT_MAX,
			       BENCH_FOOTPRINT_MAX);
			return -EINVAL;
		}
		for (int j = 0; j < i; j++) {
			if (s->footprints[j] == s->footprints[i]) {
				printk("kfront: error: footprint= lists %u "
				       "twice; give each point once\n",
				       s->footprints[i]);
				return -EINVAL;
			}
		}
	}
	return 0;
}

/* Configuration from the command line; 0 or -EINVAL with a message. */
static int configure(struct suite *s, const struct cmdline *cl)
{
	bool quick = cmdline_flag(cl, "quick");

	s->cl = cl;
	s->cfg.quick = quick;
	s->cfg.runs = (u32)cmdline_uint(cl, "runs");
	s->cfg.warmup = (u32)cmdline_uint(cl, "warmup");
	s->cfg.iters = (u32)cmdline_uint(cl, "iters");
	s->cfg.method = (enum harness_method)cmdline_uint(cl, "method");
	s->cfg.state = (enum harness_state)cmdline_uint(cl, "state");
	s->cfg.budget_ms = cmdline_uint(cl, "budget_ms");
	s->bench_sel = cmdline_str(cl, "bench");
	s->variant_sel = cmdline_str(cl, "variant");
	s->nfootprints = parse_u32_list(cmdline_str(cl, "footprint"),
					s->footprints, MAX_FOOTPRINTS);
	if (s->nfootprints < 0) {
		printk("kfront: error: footprint= takes up to %d comma-separated "
		       "numbers, e.g. footprint=0,16,64\n", MAX_FOOTPRINTS);
		return -EINVAL;
	}
	if (check_footprints(s))
		return -EINVAL;
	return select_variants(s);
}

/* peer=: the real NIC and host peer of the net.wire_* benchmarks. */
static int setup_wire(struct suite *s)
{
	static char err[CMDLINE_ERR_MAX];

	s->cfg.wire = suite_backend.wire_setup(s->cl, err, sizeof(err));
	if (err[0]) {
		printk("kfront: error: %s\n", err);
		return -EINVAL;
	}
	return 0;
}

/* Explicit benchmarks (and the wire ones without peer=) are selected by
 * their exact name only, never by a glob. */
static bool item_selects(const struct suite *s, const char *item,
			 const struct bench_desc *b)
{
	if ((b->flags & BENCH_F_EXPLICIT) ||
	    ((b->flags & BENCH_F_WIRE) && !s->cfg.wire))
		return !strcmp(item, b->name);
	return glob_match(item, b->name);
}

static bool bench_selected(const struct suite *s, const struct bench_desc *b)
{
	const char *list = s->bench_sel;
	char item[SELECT_ITEM_MAX];

	while (*list) {
		if (select_next_item(&list, item, sizeof(item)) > 0 &&
		    item_selects(s, item, b))
			return true;
	}
	return false;
}

static bool bench_item_matches(const struct suite *s, const char *item)
{
	const struct variant_desc *v0 = s->variants[0];

	for (u32 b = 0; b < v0->nbenches; b++) {
		if (item_selects(s, item, v0->benches[b]))
			return true;
	}
	return false;
}

static bool is_glob(const char *item)
{
	return strchr(item, '*') || strchr(item, '?');
}

/* Ends the error line with the valid names, like list_variant_names. */
static void list_bench_names(const struct suite *s)
{
	const struct variant_desc *v0 = s->variants[0];

	printk("; valid benchmarks:");
	for (u32 b = 0; b < v0->nbenches; b++)
		printk(" %s", v0->benches[b]->name);
	printk("\n");
}

/* A wire benchmark named without peer= could only fail, point by point:
 * say so before any run. */
static bool wire_item_without_wire(const struct suite *s, const char *item)
{
	const struct variant_desc *v0 = s->variants[0];

	if (s->cfg.wire)
		return false;
	for (u32 b = 0; b < v0->nbenches; b++) {
		const struct bench_desc *bd = v0->benches[b];

		if ((bd->flags & BENCH_F_WIRE) && !strcmp(item, bd->name)) {
			printk("kfront: error: bench=%s needs a wire: boot with "
			       "a NIC and peer=ADDR:PORT (./kfront run --wire)\n",
			       item);
			return true;
		}
	}
	return false;
}

/*
 * Every item of bench= must select a benchmark, checked before any runs:
 * a typo would otherwise end as a "complete" run without its results.
 * bench=none alone describes the machine and selects nothing on purpose.
 */
static int check_bench_items(const struct suite *s)
{
	const char *list = s->bench_sel;
	char item[SELECT_ITEM_MAX];

	if (!strcmp(list, "none"))
		return 0;
	while (*list) {
		if (next_item("bench", &list, item, sizeof(item)))
			return -EINVAL;
		if (wire_item_without_wire(s, item))
			return -EINVAL;
		if (!bench_item_matches(s, item)) {
			printk("kfront: error: bench= item '%s' matches no benchmark%s",
			       item, is_glob(item) ? " (globs never select "
			       "calib.hang, nor net.wire_* without peer=)" : "");
			list_bench_names(s);
			return -EINVAL;
		}
	}
	return 0;
}

static int count_benches(const struct suite *s)
{
	const struct variant_desc *v0 = s->variants[0];
	int n = 0;

	for (u32 b = 0; b < v0->nbenches; b++)
		n += bench_selected(s, v0->benches[b]);
	return n;
}

/* Run benchmark index b over every footprint point it honours. */
static int run_bench(struct suite *s, u32 b, int pos, int total)
{
	struct harness_job job = { .nvariants = s->nvariants };
	const struct bench_desc *bd = s->variants[0]->benches[b];
	bool sweep = bd->flags & BENCH_F_FOOTPRINT;
	int failed = 0;

	for (int v = 0; v < s->nvariants; v++) {
		job.variant[v] = s->variants[v];
		job.bench[v] = s->variants[v]->benches[b];
	}
	for (int f = 0; f < (sweep ? s->nfootprints : 1); f++) {
		s->cfg.has_footprint = sweep;
		s->cfg.footprint = sweep ? s->footprints[f] : 0;
		if (sweep)
			printk("kfront: [%d/%d] %s footprint=%u\n", pos, total,
			       bd->name, s->cfg.footprint);
		else
			printk("kfront: [%d/%d] %s\n", pos, total, bd->name);
		failed += harness_run(&job, &s->cfg);
	}
	return failed;
}

/* suite_end is the last record: a record lost before it (too long, and
 * replaced by an error record) already counts. */
static int final_status(int failed)
{
	if (rec_lost_count())
		return EXIT_RECORD_LOST;
	return failed ? EXIT_BENCH_FAILED : EXIT_OK;
}

/* The top of the suite: its helpers return 0 or -errno, this turns them
 * into the kernel's exit status. */
int suite_main(const struct cmdline *cl, const struct bootinfo *bi)
{
	static struct suite s;
	int status, total, pos = 0, failed = 0;

	status = configure(&s, cl);
	if (status)
		return EXIT_USAGE;
	counters_init();
	rep_string_select((enum rep_string_mode)cmdline_uint(cl, "rep_string"));
	status = setup_wire(&s);
	if (status)
		return EXIT_USAGE;
	status = check_bench_items(&s);
	if (status)
		return EXIT_USAGE;
	watchdog_init();
	emit_suite_begin(&s);
	if (!strcmp(s.bench_sel, "none")) {
		status = final_status(0);
		emit_suite_end(status);
		return status;
	}
	total = count_benches(&s);
	for (u32 b = 0; b < s.variants[0]->nbenches; b++) {
		if (bench_selected(&s, s.variants[0]->benches[b]))
			failed += run_bench(&s, b, ++pos, total);
	}
	if (suite_backend.profile_dump)
		suite_backend.profile_dump();
	status = final_status(failed);
	emit_suite_end(status);
	return status;
}
