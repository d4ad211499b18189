/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The arc counters of profiled objects as serial records. Pure code over
 * struct gcov_info (no section symbols), so the host unit test feeds it
 * the objects of a natively compiled program and compares the .gcda the
 * host writes from these records with libgcov's own.
 */
#include <kfront/gcov.h>
#include <kfront/record.h>

static struct record rec;

static u32 active_mask(const struct gcov_info *gi)
{
	u32 mask = 0;

	for (int t = 0; t < GCOV_COUNTERS; t++)
		if (gi->merge[t])
			mask |= 1u << t;
	return mask;
}

static void emit_obj(u32 obj, const struct gcov_info *gi)
{
	rec_begin(&rec, "gcov_obj");
	rec_u64(&rec, "obj", obj);
	rec_str(&rec, "file", gi->filename);
	rec_u64(&rec, "version", gi->version);
	rec_u64(&rec, "stamp", gi->stamp);
	rec_u64(&rec, "checksum", gi->checksum);
	rec_u64(&rec, "types", active_mask(gi));
	rec_u64(&rec, "functions", gi->n_functions);
	rec_emit(&rec);
}

/* Counters are signed in GCC's type but never negative for arcs: they
 * are sent as the unsigned 64-bit pattern, which the host reads back. */
static void emit_values(u32 obj, u32 fn, int type,
			const struct gcov_ctr_info *ci)
{
	u32 off = 0;

	do {
		u32 n = ci->num - off;

		if (n > GCOV_VALUES_PER_RECORD)
			n = GCOV_VALUES_PER_RECORD;
		rec_begin(&rec, "gcov_ctr");
		rec_u64(&rec, "obj", obj);
		rec_u64(&rec, "fn", fn);
		rec_u64(&rec, "type", (u64)type);
		rec_u64(&rec, "off", off);
		rec_arr_begin(&rec, "v");
		for (u32 i = 0; i < n; i++)
			rec_arr_u64(&rec, (u64)ci->values[off + i]);
		rec_arr_end(&rec);
		rec_emit(&rec);
		off += n;
	} while (off < ci->num);
}

static void emit_fn(u32 obj, u32 fn, const struct gcov_info *gi)
{
	const struct gcov_fn_info *fi = gi->functions[fn];
	const struct gcov_ctr_info *ci;

	rec_begin(&rec, "gcov_fn");
	rec_u64(&rec, "obj", obj);
	rec_u64(&rec, "fn", fn);
	/* libgcov writes an empty function tag for a missing function or a
	 * comdat copy another object owns: key says which case this is. */
	rec_bool(&rec, "key", fi && fi->key == gi);
	if (!fi) {
		rec_emit(&rec);
		return;
	}
	rec_u64(&rec, "ident", fi->ident);
	rec_u64(&rec, "lineno_checksum", fi->lineno_checksum);
	rec_u64(&rec, "cfg_checksum", fi->cfg_checksum);
	rec_arr_begin(&rec, "counts");
	ci = fi->ctrs;
	for (int t = 0; t < GCOV_COUNTERS; t++)
		if (gi->merge[t])
			rec_arr_u64(&rec, (ci++)->num);
	rec_arr_end(&rec);
	rec_emit(&rec);
	ci = fi->ctrs;
	for (int t = 0; t < GCOV_COUNTERS; t++)
		if (gi->merge[t])
			emit_values(obj, fn, t, ci++);
}

u32 gcov_emit(const struct gcov_info *const *begin,
	      const struct gcov_info *const *end)
{
	u32 obj = 0;

	for (const struct gcov_info *const *p = begin; p < end; p++) {
		const struct gcov_info *gi = *p;

		if (!gi)	/* padding between objects' entries */
			continue;
		emit_obj(obj, gi);
		for (u32 fn = 0; fn < gi->n_functions; fn++)
			emit_fn(obj, fn, gi);
		obj++;
	}
	return obj;
}
