/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-function attribution (issue 19, item 1): the guest's symbol table
 * (`nm -n` output, argument syms=PATH) maps each instruction to the
 * function it lies in at translation time; segments never span two
 * functions, so at execution a segment's figures go to one row of the
 * open region's function table. Rows are made on first use, so a region
 * holds only the functions it ran.
 */
#include <stdlib.h>
#include <string.h>

#include "fesim.h"

struct func {
	u64 addr;
	char *name;
};

static struct func *funcs;
static u32 n_funcs, cap_funcs;
/* per function: seq + 1 of the region whose row index is in row_of[] */
static u32 *row_seq, *row_of;
static u8 *used;	/* ever given a row: listed in the output */

u32 attrib_n_funcs(void)
{
	return n_funcs;
}

u32 fn_cols(void)
{
	return FN_MODEL0 + FN_PER_MODEL * (u32)fs.n_models;
}

static int add_func(u64 addr, const char *name)
{
	if (n_funcs == cap_funcs) {
		u32 cap = cap_funcs ? cap_funcs * 2 : 1024;
		struct func *f = realloc(funcs, cap * sizeof(*f));

		if (!f)
			return -1;
		funcs = f;
		cap_funcs = cap;
	}
	funcs[n_funcs].addr = addr;
	funcs[n_funcs].name = strdup(name);
	if (!funcs[n_funcs].name)
		return -1;
	n_funcs++;
	return 0;
}

static int by_addr(const void *a, const void *b)
{
	const struct func *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Keep the first name of each address (aliases share one function). */
static void drop_aliases(void)
{
	u32 i, k = 0;

	for (i = 0; i < n_funcs; i++) {
		if (k && funcs[k - 1].addr == funcs[i].addr) {
			free(funcs[i].name);
			continue;
		}
		funcs[k++] = funcs[i];
	}
	n_funcs = k;
	fs.attrib = n_funcs > 0;
}

/* One `nm` line: "ADDR TYPE NAME" (or "ADDR SIZE TYPE NAME" with -S). */
static int parse_sym_line(char *line)
{
	char *f[4], *save = NULL, *tok;
	int n = 0;
	char type;

	for (tok = strtok_r(line, " \t\r\n", &save); tok && n < 4;
	     tok = strtok_r(NULL, " \t\r\n", &save))
		f[n++] = tok;
	if (n < 3)
		return 0;
	type = f[n - 2][0];
	/* code only: text symbols, weak ones included */
	if (f[n - 2][1] || !strchr("tTwW", type))
		return 0;
	return add_func(strtoull(f[0], NULL, 16), f[n - 1]);
}

int attrib_load(const char *path)
{
	char line[1024];
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (parse_sym_line(line)) {
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	if (!n_funcs)
		return -1;
	qsort(funcs, n_funcs, sizeof(*funcs), by_addr);
	drop_aliases();
	/* one more for code below the first symbol: "(unknown)" */
	row_seq = calloc(n_funcs + 1, sizeof(*row_seq));
	row_of = calloc(n_funcs + 1, sizeof(*row_of));
	used = calloc(n_funcs + 1, 1);
	return row_seq && row_of && used ? 0 : -1;
}

void attrib_free(void)
{
	u32 i;

	for (i = 0; i < n_funcs; i++)
		free(funcs[i].name);
	free(funcs);
	free(row_seq);
	free(row_of);
	free(used);
	funcs = NULL;
	row_seq = row_of = NULL;
	used = NULL;
	n_funcs = cap_funcs = 0;
	fs.attrib = false;
}

/* The function @va lies in: the last symbol at or below it (padding after
 * a function counts as that function's); n_funcs if below every symbol. */
u32 attrib_fn_of(u64 va)
{
	u32 lo = 0, hi = n_funcs;

	if (!n_funcs || va < funcs[0].addr)
		return n_funcs;
	while (hi - lo > 1) {
		u32 mid = lo + (hi - lo) / 2;

		if (funcs[mid].addr <= va)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

const char *attrib_name(u32 fn)
{
	return fn < n_funcs ? funcs[fn].name : "(unknown)";
}

u64 attrib_addr(u32 fn)
{
	return fn < n_funcs ? funcs[fn].addr : 0;
}

bool attrib_used(u32 fn)
{
	return used && used[fn];
}

/* List @fn in the output without a row (a call edge's end). */
void attrib_mark_used(u32 fn)
{
	used[fn] = 1;
}

/* The row of function @fn in region @r, made on first use. */
u64 *attrib_row(struct region *r, u32 fn)
{
	u32 cols = fn_cols();
	u64 *row;

	if (row_seq[fn] == r->seq + 1)
		return r->fn_rows + (size_t)row_of[fn] * cols;
	if (r->n_fn_rows == r->cap_fn_rows) {
		u32 cap = r->cap_fn_rows ? r->cap_fn_rows * 2 : 16;

		r->fn_rows = realloc(r->fn_rows, (size_t)cap * cols *
				     sizeof(*r->fn_rows));
		if (!r->fn_rows)
			abort();
		r->cap_fn_rows = cap;
	}
	row_seq[fn] = r->seq + 1;
	row_of[fn] = r->n_fn_rows++;
	used[fn] = 1;
	row = r->fn_rows + (size_t)row_of[fn] * cols;
	memset(row, 0, cols * sizeof(*row));
	row[FN_ID] = fn;
	return row;
}

void attrib_add_misses(struct region *r, u32 fn, int model,
		       const struct misses *add)
{
	u64 *m = attrib_row(r, fn) + FN_MODEL0 + FN_PER_MODEL * model;

	m[FN_L1I_MISSES] += add->l1i;
	m[FN_UOP_MISSES] += add->uop;
	m[FN_ITLB_MISSES] += add->itlb;
	m[FN_L1I_PREFETCHES] += add->pf;
	m[FN_ITLB_L1_MISSES] += add->itlb1;
}

/* A model's miss counts, before a segment's run (for its function row). */
void misses_save(struct misses *x, const struct model_ctr *d)
{
	x->l1i = d->l1i_misses;
	x->uop = d->uop_misses;
	x->itlb = d->itlb_misses;
	x->pf = d->l1i_prefetches;
	x->itlb1 = d->itlb_l1_misses;
}

/* Add a run's misses in model @i to its function's row in the open
 * region (and, while loop replay notes them, to the period's list); most
 * runs add none and look up no row. */
static void note_misses(int i, const struct misses *add, u32 fn)
{
	if (!(add->l1i | add->uop | add->itlb | add->pf | add->itlb1))
		return;
	attrib_add_misses(fs.cur, fn, i, add);
	if (fs.loop_rec)
		loops_record(fn, i, add);
}

/* The same for @n replays of memo @mo: a replay misses in no L1i or
 * iTLB, and in the uop cache only in windows the JCC erratum keeps out
 * (run_models(), bulk.c). */
void note_replay_misses(int i, const struct memo *mo, u64 n, u32 fn)
{
	struct misses add = { .uop = n * mo->uop_misses };

	note_misses(i, &add, fn);
}

/* The same for what a simulated run added since misses_save(). */
void attribute_misses(int i, const struct model_ctr *d,
		      const struct misses *before, u32 fn)
{
	struct misses add = {
		.l1i = d->l1i_misses - before->l1i,
		.uop = d->uop_misses - before->uop,
		.itlb = d->itlb_misses - before->itlb,
		.pf = d->l1i_prefetches - before->pf,
		.itlb1 = d->itlb_l1_misses - before->itlb1,
	};

	note_misses(i, &add, fn);
}
