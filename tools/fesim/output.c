/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The output file: JSON lines, one object per model, region and total. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fesim.h"

/* Bump when a key changes meaning or disappears (docs/fesim.md). */
#define FESIM_FORMAT_VERSION 2	/* 2: itlb_misses are page walks */

/* A symbol name as a JSON string body: quotes, backslashes and control
 * characters escaped (C++ and Rust names may hold odd characters). */
static void put_json_chars(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
}

static void put_classes(FILE *f, const u64 *cls)
{
	int k;

	fputs("\"classes\":{", f);
	for (k = 0; k < FESIM_NCLS; k++)
		fprintf(f, "%s\"%s\":%llu", k ? "," : "", cls_names[k],
			(unsigned long long)cls[k]);
	fputs("},", f);
}

/* A named figure of a speed line: its name beside its value, so that the
 * two cannot drift apart. */
struct figure {
	const char *name;
	u64 val;
};

/* One line of named figures: {"type":TYPE,"NAME":N,...}. */
static void put_figures(FILE *f, const char *type, const struct figure *fig,
			size_t n)
{
	size_t i;

	fprintf(f, "{\"type\":\"%s\"", type);
	for (i = 0; i < n; i++)
		fprintf(f, ",\"%s\":%llu", fig[i].name,
			(unsigned long long)fig[i].val);
	fputs("}\n", f);
}

/* How much loop replay did (loops.c): a speed figure, not a result. */
static void put_loops(FILE *f)
{
	const struct loop_stats *st = loops_stats();
	const struct figure fig[] = {
		{ "tb_runs", st->runs },
		{ "periods_checked", st->confirms },
		{ "periods_not_repeated", st->not_repeated },
		{ "states_not_fixed", st->not_fixed },
		{ "periods_replayed", st->periods },
		{ "tb_runs_replayed", st->tbs },
		{ "tb_runs_caught_up", st->caught_up },
		{ "periods_rearmed", st->rearms },
	};

	put_figures(f, "loops", fig, sizeof(fig) / sizeof(fig[0]));
}

/* speed=on: where the simulation's time goes (docs/fesim.md, "Budgets").
 * A speed figure, not a result. */
static void put_speed(FILE *f)
{
	const struct speed_stats *st = &fs.st;
	const struct figure fig[] = {
		{ "translations", fs.n_translations },
		{ "tb_bytes", st->tb_bytes },
		{ "memo_replayed", st->memo_replayed },
		{ "memo_revalidated", st->memo_revalidated },
		{ "tb_runs_in_bulk", st->runs_in_bulk },
		{ "simulated_no_memo", st->sim_no_memo },
		{ "simulated_caches_changed", st->sim_caches_changed },
		{ "simulated_other_entry", st->sim_other_entry },
		{ "simulated_memo_off", st->sim_memo_off },
		{ "rolled_back", st->rolled_back },
	};

	put_figures(f, "speed", fig, sizeof(fig) / sizeof(fig[0]));
}

static void put_counters(FILE *f, const struct counters *c)
{
	int i;

	put_classes(f, c->c.cls);

	fprintf(f, "\"insns\":%llu,\"bytes\":%llu,\"taken_branches\":%llu,"
		"\"footprint_lines\":%llu,\"footprint_bytes\":%llu,\"models\":{",
		(unsigned long long)c->c.insns, (unsigned long long)c->c.bytes,
		(unsigned long long)c->c.taken_branches,
		(unsigned long long)c->c.footprint_lines,
		(unsigned long long)c->c.footprint_bytes);
	for (i = 0; i < fs.n_models; i++) {
		const struct model_ctr *m = &c->m[i];

		fprintf(f, "%s\"%s\":{\"l1i_accesses\":%llu,\"l1i_misses\":%llu,"
			"\"l1i_insn_misses\":%llu,\"uop_lookups\":%llu,"
			"\"uop_misses\":%llu,\"uop_hit_uops\":%llu,"
			"\"uop_miss_uops\":%llu,\"l1i_prefetches\":%llu,"
			"\"itlb_accesses\":%llu,\"itlb_l1_misses\":%llu,"
			"\"itlb_misses\":%llu}",
			i ? "," : "", fs.models[i].cfg.name,
			(unsigned long long)m->l1i_accesses,
			(unsigned long long)m->l1i_misses,
			(unsigned long long)m->l1i_insn_misses,
			(unsigned long long)m->uop_lookups,
			(unsigned long long)m->uop_misses,
			(unsigned long long)m->uop_hit_uops,
			(unsigned long long)m->uop_miss_uops,
			(unsigned long long)m->l1i_prefetches,
			(unsigned long long)m->itlb_accesses,
			(unsigned long long)m->itlb_l1_misses,
			(unsigned long long)m->itlb_misses);
	}
	fputs("}}\n", f);
}

/* The column names of a function row (attrib.c), in the header. */
static void put_fn_columns(FILE *f)
{
	static const char *const model_cols[FN_PER_MODEL] = {
		"l1i_misses", "uop_misses", "itlb_misses", "l1i_prefetches",
		"itlb_l1_misses"
	};
	int k, i;

	fputs(",\"func_columns\":[\"func\",\"insns\",\"bytes\","
	      "\"taken_branches\"", f);
	for (k = 0; k < FESIM_NCLS; k++)
		fprintf(f, ",\"%s\"", cls_names[k]);
	for (i = 0; i < fs.n_models; i++)
		for (k = 0; k < FN_PER_MODEL; k++)
			fprintf(f, ",\"%s.%s\"", fs.models[i].cfg.name,
				model_cols[k]);
	fputc(']', f);
}

static void put_header(FILE *f)
{
	int i;

	fprintf(f, "{\"type\":\"fesim\",\"format\":%d,\"qemu_plugin_api\":1,"
		"\"mode\":\"%s\",\"page_size\":%u,\"cold\":%s,\"flush\":%s,"
		"\"flushes\":%u,\"skip_boot\":%s,\"idle_tb_runs\":%llu,"
		"\"regions\":%u,"
		"\"unbalanced\":%u,\"stray_ends\":%u,\"mismatched_ends\":%u,"
		"\"open_region\":%s,\"models\":[",
		FESIM_FORMAT_VERSION, fs.system ? "system" : "user",
		1u << fs.page_shift, fs.cold ? "true" : "false",
		fs.flush ? "true" : "false", fs.flushes,
		fs.skip_boot ? "true" : "false",
		(unsigned long long)fs.idle_tb_runs, fs.n_regions,
		fs.unbalanced, fs.stray_ends, fs.mismatched_ends,
		fs.cur ? "true" : "false");
	for (i = 0; i < fs.n_models; i++)
		fprintf(f, "%s\"%s\"", i ? "," : "", fs.models[i].cfg.name);
	fputc(']', f);
	if (attrib_on())
		put_fn_columns(f);
	fputs("}\n", f);
	for (i = 0; i < fs.n_models; i++) {
		const struct model_cfg *c = &fs.models[i].cfg;

		fprintf(f, "{\"type\":\"model\",\"name\":\"%s\",\"l1i_size\":%u,"
			"\"l1i_assoc\":%u,\"l1i_line\":%u,\"uop_window\":%u,"
			"\"uop_sets\":%u,\"uop_ways\":%u,\"uop_per_way\":%u,"
			"\"uop_max_ways\":%u,\"uop_inclusive\":%u,"
			"\"uop_jcc_erratum\":%u,"
			"\"itlb_entries\":%u,\"itlb_assoc\":%u,"
			"\"stlb_entries\":%u,\"stlb_assoc\":%u,"
			"\"l1i_prefetch\":%u,\"l1i_policy\":\"%s\","
			"\"itlb_policy\":\"%s\",\"uop_policy\":\"%s\","
			"\"seed\":%u}\n",
			c->name, c->l1i_size, c->l1i_assoc, c->l1i_line,
			c->uop_window, c->uop_sets, c->uop_ways, c->uop_per_way,
			c->uop_max_ways, c->uop_inclusive, c->uop_jcc_erratum,
			fs.page_shift == 12 ? c->itlb4k_entries : c->itlb2m_entries,
			fs.page_shift == 12 ? c->itlb4k_assoc : c->itlb2m_assoc,
			c->stlb_entries, c->stlb_assoc, c->l1i_prefetch,
			policy_names[c->l1i_policy], policy_names[c->itlb_policy],
			policy_names[c->uop_policy], c->seed);
	}
}

/* Every function some region ran: id, address, name. */
static void put_funcs(FILE *f)
{
	u32 fn;

	for (fn = 0; fn <= attrib_n_funcs(); fn++) {
		if (!attrib_used(fn))
			continue;
		fprintf(f, "{\"type\":\"func\",\"id\":%u,\"addr\":%llu,"
			"\"name\":\"", fn, (unsigned long long)attrib_addr(fn));
		put_json_chars(f, attrib_name(fn));
		fputs("\"}\n", f);
	}
}

static int by_fn_id(const void *a, const void *b)
{
	u64 x = **(const u64 *const *)a, y = **(const u64 *const *)b;

	return x < y ? -1 : x > y;
}

/* A region's function rows, by function id (the order they were opened in
 * follows when tally.c settles, not what ran first):
 * "funcs":[[id, figures...], ...], */
static void put_fn_rows(FILE *f, const struct region *r)
{
	u32 cols = fn_cols(), i, k;
	const u64 **rows = malloc(sizeof(*rows) * (r->n_fn_rows + 1));

	if (!rows)
		abort();
	for (i = 0; i < r->n_fn_rows; i++)
		rows[i] = r->fn_rows + (size_t)i * cols;
	qsort(rows, r->n_fn_rows, sizeof(*rows), by_fn_id);
	fputs("\"funcs\":[", f);
	for (i = 0; i < r->n_fn_rows; i++) {
		fputs(i ? ",[" : "[", f);
		for (k = 0; k < cols; k++)
			fprintf(f, "%s%llu", k ? "," : "",
				(unsigned long long)rows[i][k]);
		fputc(']', f);
	}
	fputs("],", f);
	free(rows);
}

static void put_all(FILE *f)
{
	struct counters tot;
	u32 i;

	put_header(f);
	if (attrib_on()) {
		put_funcs(f);
		callgraph_write(f);
	}
	for (i = 0; i < fs.n_regions; i++) {
		const struct region *r = &fs.regions[i];

		fprintf(f, "{\"type\":\"region\",\"seq\":%u,\"slot\":%u,"
			"\"occ\":%u,\"closed\":%s,", r->seq, r->slot, r->occ,
			r->closed ? "true" : "false");
		if (attrib_on())
			put_fn_rows(f, r);
		put_counters(f, &r->ctr);
	}
	totals(&tot);
	fputs("{\"type\":\"total\",", f);
	put_counters(f, &tot);
	if (fs.loops)
		put_loops(f);
	if (fs.speed)
		put_speed(f);
}

/*
 * Write everything known so far. Written to PATH.tmp and renamed, so a
 * reader never sees half a file; a later write (exit after a dump marker)
 * replaces the earlier one with a superset. No path: a summary via
 * qemu_plugin_outs() is written by the caller instead.
 */
int output_write(const char *path)
{
	char tmp[4096];
	FILE *f;

	if (!path)
		return 0;
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -1;
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	put_all(f);
	if (fclose(f))
		return -1;
	return rename(tmp, path);
}
