/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fesim internals shared by the plugin's source files. */
#ifndef FESIM_H
#define FESIM_H

#include <stdio.h>

#include "cache.h"

#define FESIM_MAX_MODELS	16	/* e.g. 3 presets x 3 policy settings */
#define FESIM_MAX_GRAN		6	/* distinct line, window and page sizes */
#define FESIM_FP_SHIFT		6	/* footprint granule: 64-byte lines */
#define FESIM_NSLOTS		0x4000	/* 14-bit marker slot */

/* Geometry of one modelled CPU front end (see presets.c for sources). */
struct model_cfg {
	char name[32];
	u32 l1i_size, l1i_assoc, l1i_line;
	u32 uop_window;		/* bytes per uop-cache window: 32 or 64 */
	u32 uop_sets, uop_ways, uop_per_way, uop_max_ways;
	u32 uop_inclusive;	/* L1i eviction drops the line's windows */
	u32 uop_jcc_erratum;	/* windows with a jump that crosses or ends
				 * on a 32-byte boundary are not cached */
	u32 itlb4k_entries, itlb4k_assoc;	/* L1 iTLB */
	u32 itlb2m_entries, itlb2m_assoc;
	u32 stlb_entries, stlb_assoc;	/* second-level TLB, 0: none */
	u32 l1i_prefetch;	/* next-line prefetch (docs/fesim.md) */
	u32 l1i_policy, itlb_policy, uop_policy;	/* POL_*: itlb_policy
						 * covers both TLB levels */
	u32 seed;		/* random replacement's stream */
};

/* Counters that depend on the model. */
struct model_ctr {
	u64 l1i_accesses;	/* line fetches: new line or taken branch */
	u64 l1i_misses;		/* line fills */
	u64 l1i_insn_misses;	/* instructions with >= 1 missing line
				 * (cachegrind's I1mr) */
	u64 uop_lookups;	/* window lookups */
	u64 uop_misses;		/* lookups that missed */
	u64 uop_hit_uops;	/* uops delivered by the uop cache */
	u64 uop_miss_uops;	/* uops delivered by the legacy decoders */
	u64 l1i_prefetches;	/* lines a prefetch brought in */
	u64 itlb_accesses;	/* L1 iTLB lookups */
	u64 itlb_l1_misses;	/* L1 iTLB misses (STLB lookups) */
	u64 itlb_misses;	/* page walks: misses in both levels */
};

/* The misses of one model that a function's row adds up (attrib.c):
 * L1i misses, uop-cache misses, page walks, L1i prefetches and L1 iTLB
 * misses. */
struct misses {
	u64 l1i, uop, itlb, pf, itlb1;
};

static inline void misses_add(struct misses *to, const struct misses *add)
{
	to->l1i += add->l1i;
	to->uop += add->uop;
	to->itlb += add->itlb;
	to->pf += add->pf;
	to->itlb1 += add->itlb1;
}

/*
 * Instruction classes counted per execution (classes.c; docs/fesim.md,
 * "Instruction classes"). rep executions and iterations and unaligned
 * branch targets are counted when the TB runs; the rest are static per
 * instruction and summed per segment at translation.
 */
enum insn_cls {
	CLS_REP_MOVS, CLS_REP_MOVS_ITERS, CLS_REP_STOS, CLS_REP_STOS_ITERS,
	CLS_DIV, CLS_LCP, CLS_CALL, CLS_RET, CLS_INDIRECT,
	CLS_CROSS16, CLS_CROSS64, CLS_UNALIGNED_TARGET,
	FESIM_NCLS
};

enum { REP_NONE, REP_MOVS, REP_STOS };
enum { BRK_NONE, BRK_JUMP, BRK_RET };	/* BRK_JUMP: jcc, jmp, call, loop */

/* The classes of one instruction. */
struct insn_info {
	u32 mask;		/* 1 << static enum insn_cls */
	u8 rep;			/* REP_* */
	u8 branch;		/* BRK_* */
};

/* Counters that do not. */
struct common_ctr {
	u64 insns;
	u64 bytes;		/* instruction bytes executed */
	u64 taken_branches;	/* control transfers to a non-sequential pc */
	u64 footprint_lines;	/* distinct 64-byte lines executed */
	u64 footprint_bytes;	/* distinct instruction bytes executed */
	u64 cls[FESIM_NCLS];	/* instruction classes (enum insn_cls) */
};

struct counters {
	struct common_ctr c;
	struct model_ctr m[FESIM_MAX_MODELS];
};

/* The run state a segment's replay depends on and leaves behind: the
 * last line, window and page fetched from, and the uop stream since the
 * last lookup (where it entered the window, whether the uop cache or the
 * legacy decoders deliver it, and how far a hit's cached entry reaches).
 * 32 bytes, compared and copied whole (pad is always 0). */
struct run_state {
	u64 line, win, page;
	u8 uop_mode;		/* UOP_HIT, UOP_FILL or UOP_LEGACY */
	u8 uop_entry, uop_end;
	u8 pad[5];
};

/* run_state_equal() reads the uop bytes and the pad as one word */
_Static_assert(sizeof(struct run_state) == 32 &&
	       offsetof(struct run_state, uop_mode) == 24,
	       "struct run_state: three words, then the uop stream's word");

struct model {
	struct model_cfg cfg;
	struct sa_cache l1i, itlb, stlb;
	struct uop_cache uop;
	int g_line, g_win, g_page;	/* granularity indexes into tb_info */
	u32 line_shift, win_shift;
	struct run_state rs;
	struct uop_pack pack;	/* a fill's way packing so far */
	u64 gen;		/* labels the model's cache state: set to a
				 * fresh value by every lookup that changes
				 * it (frontend.c) */
	u64 gen_seq;		/* the last fresh value handed out */
	/* per set of the L1i, the uop cache and the L1 iTLB: the generation
	 * current after its last change; and the first one after the last
	 * flush (memo.c, memo_sets_unchanged()) */
	u64 *l1i_stamp, *uop_stamp, *itlb_stamp;
	u64 flush_gen;
	/* the fill in progress (UOP_FILL): the generation before its lookup,
	 * the one its last step set, the uop cache's change count when it
	 * started, and whether it has been the only change since */
	u64 fill_base, fill_gen, fill_changes;
	bool fill_pure;
};

enum { UOP_HIT, UOP_FILL, UOP_LEGACY };

/*
 * A fresh generation (struct model.gen): no memo was ever recorded under
 * it. Values are never reused, so a generation names one cache state; only
 * fill_dropped() (frontend.c) goes back to an older one, and only when the
 * caches are again exactly in that state.
 */
static inline void gen_bump(struct model *m)
{
	m->gen = ++m->gen_seq;
}

/* What one segment's last state-preserving run did in one model. */
struct memo {
	u64 gen;
	struct run_state pre, post;
	u32 l1i_accesses, uop_lookups, uop_misses, uop_hit_uops;
	u32 uop_miss_uops, itlb_accesses;
	u8 valid, taken;
};

/* Add @n replays of memo @mo to a model's counters (memo.c one at a time,
 * bulk.c many). */
static inline void memo_add(struct model_ctr *d, const struct memo *mo,
			    u64 n)
{
	d->l1i_accesses += n * mo->l1i_accesses;
	d->uop_lookups += n * mo->uop_lookups;
	/* lookups of a window the JCC erratum keeps out miss, changing
	 * nothing */
	d->uop_misses += n * mo->uop_misses;
	d->uop_hit_uops += n * mo->uop_hit_uops;
	d->uop_miss_uops += n * mo->uop_miss_uops;
	d->itlb_accesses += n * mo->itlb_accesses;
}

/* One block touched at a granularity (line, window or page), in order. */
struct blk {
	u64 id;			/* address >> granularity shift */
	u16 uops;		/* uops starting in it (windows only) */
	u16 ins_n;		/* instructions starting in it (windows) */
	u32 ins_first;		/* their index in tb_info.uins */
	u8 cont;		/* second half of an instruction whose first
				 * half alone opened the previous block */
};

/* One 64-byte line's footprint record; never freed, so TBs point at it. */
struct fp_line {
	u64 line;
	u64 region_mask;	/* bytes executed in the current region */
	u64 total_mask;		/* bytes executed in the whole run */
	u32 region_epoch;
};

struct fp_ref {
	struct fp_line *rec;
	u64 mask;
};

/* What a segment's runs added since the counters last changed (tally.c). */
struct seg_tally {
	u32 epoch;		/* tally.c's epoch it counts in */
	u32 runs;
	u32 taken, unaligned;	/* landings by a taken branch, off 16 bytes */
	u32 rep[2];		/* rep executions and iterations (the last
				 * segment of a TB ending in a rep) */
	u8 rep_kind;		/* REP_* */
};

/* Landing of a TB reached by a taken branch (exec.c, tally.c). */
enum { LAND_TAKEN = 1, LAND_UNALIGNED = 2 };

/* A run of instructions of one TB between markers. What every run reads
 * comes first (a run of a memo-replayed segment reads no further than the
 * tally), what a simulated run or a settle reads after it. */
struct seg {
	u16 action;		/* marker id applied before the run, 0 none */
	u16 n_insns;
	u32 fp_done;		/* footprint epoch this run was last counted */
	u32 fn;			/* function (attrib.c) all its instructions are in */
	struct seg_tally tally;
	/* 16 bits: a TB's blocks at all granularities number under 2^16
	 * (translate.c checks) */
	u16 blk_first[FESIM_MAX_GRAN], blk_n[FESIM_MAX_GRAN];
	u16 fp_first, fp_n;
	u32 n_bytes;
	u32 cls_mask;		/* which cls[] are non-zero */
	u16 cls[FESIM_NCLS];	/* static instruction classes in the run */
};

/* Everything one TB execution does, worked out at translation time. */
struct tb_info {
	u64 vaddr, end;		/* end = address after the last instruction */
	struct seg *segs;
	struct blk *blks;
	struct fp_ref *fps;
	struct uinsn *uins;	/* per window granularity: n_insns each */
	struct memo *memos;	/* n_segs * n_models */
	u32 n_segs;
	u32 loop_id;		/* its number in the loop log (translation order) */
	u64 loop_pos;		/* 1 + loop log position of its last run */
	u64 rep_va;		/* the rep movs/stos ending the TB, if rep */
	u32 first_fn, call_fn;	/* callgraph.c: the function of its first
				 * instruction and of a call ending it */
	u8 rep;			/* REP_*: QEMU ends a TB after a rep string op */
	u8 last_branch;		/* BRK_* of the TB's last instruction */
};

struct region {
	u32 seq, slot, occ;
	u32 closed;
	struct counters ctr;
	/* per-function rows (attrib.c): n_fn_rows x fn_cols() values */
	u64 *fn_rows;
	u32 n_fn_rows, cap_fn_rows;
};

/* Columns of a function row: id, the common figures, the classes, then
 * FN_PER_MODEL misses per model (output.c names them). */
enum {
	FN_ID, FN_INSNS, FN_BYTES, FN_TAKEN, FN_CLS,
	FN_MODEL0 = FN_CLS + FESIM_NCLS
};
enum {
	FN_L1I_MISSES, FN_UOP_MISSES, FN_ITLB_MISSES, FN_L1I_PREFETCHES,
	FN_ITLB_L1_MISSES, FN_PER_MODEL
};

/* Where the simulation's time goes (speed=on; output.c). Counted always:
 * a few increments per segment run. */
struct speed_stats {
	u64 tb_bytes;		/* the translations' packed records */
	/* a segment's part in one model that loop replay did not do:
	 * replayed from its memo, or simulated because the memo was empty
	 * (the segment's last run changed the caches, or it never ran
	 * before), a set it looks up changed since, it was entered
	 * differently (taken or not, the run state), or memo=off */
	u64 memo_replayed;
	u64 memo_revalidated;	/* of them: the caches had changed, but in
				 * none of the sets the segment touches */
	u64 runs_in_bulk;	/* TB runs counted by bulk.c's path (each
				 * replayed from its memo in every model) */
	u64 sim_no_memo, sim_caches_changed, sim_other_entry;
	u64 sim_memo_off;
	u64 rolled_back;	/* translations whose listed last instruction
				 * QEMU had rolled back (translate.c) */
};

struct fesim {
	int n_models;
	struct model models[FESIM_MAX_MODELS];
	int n_gran;
	u32 gran_shift[FESIM_MAX_GRAN];
	u32 gran_is_win[FESIM_MAX_GRAN];
	u32 page_shift;		/* 12 or 21: the assumed page size */
	bool cold;		/* flush the models at every region begin */
	bool flush;		/* obey flush markers (flush=off: ignore them) */
	bool skip_boot;		/* model nothing before the first marker */
	bool idle;		/* skip_boot and no marker run yet */
	bool memo;		/* replay memos on (memo=off: every lookup done,
				 * the same counts, slower; for the tests) */
	bool loops;		/* loop replay on (loops=off: likewise) */
	bool loop_rec;		/* loops.c notes function misses */
	bool attrib;		/* syms= loaded: function rows (attrib.c) */
	u32 loop_min;		/* shortest period it looks for */
	const char *out_path;
	bool system;

	/* run state (one vCPU) */
	u64 next_pc;		/* fall-through address of the previous TB */
	bool have_prev;
	struct region *cur;	/* open region or NULL */
	struct counters outside;	/* code run outside any region */
	u64 fp_lines, fp_bytes;		/* whole-run footprint */
	struct region *regions;
	u32 n_regions, cap_regions;
	u32 *slot_occ;
	u32 unbalanced, stray_ends, mismatched_ends, dumps;
	u32 flushes;		/* flush markers obeyed */
	u64 idle_tb_runs;	/* TB runs skip_boot left unmodelled */
	u64 n_translations;
	bool speed;		/* speed=on: write the "speed" line */
	struct speed_stats st;
	u64 prev_rep_va;	/* the previous TB ended with this rep insn */
	u8 prev_branch;		/* BRK_* ending the previous TB */
};

extern struct fesim fs;

/* presets.c */
int preset_find(const char *name, struct model_cfg *cfg);
int preset_override(struct model_cfg *cfg, const char *key, const char *val);
int preset_setting(struct model_cfg *cfg, const char *policy);
extern const char *const policy_names[POL_N];
void preset_names(char *buf, size_t len);

/* footprint.c */
struct fp_line *fp_lookup(u64 line);
void run_footprint(const struct tb_info *ti, struct seg *s);

/* translate.c */
struct qemu_plugin_tb;
struct tb_info *tb_analyse(struct qemu_plugin_tb *tb);

/* exec.c */
void tb_exec(unsigned int vcpu, void *udata);
void run_seg_models(const struct tb_info *ti, const struct seg *s,
		    bool taken, u32 skip);

/* models.c */
int models_init(void);
/* Frees what models_init() allocated (at plugin exit). */
void models_free(void);
/* Empty every model's caches and forget its last fetch. */
void models_flush(void);

/* regions.c */
void apply_marker(u16 id);
/* The counters the code running now is charged to: the open region's, or
 * those of the code outside regions. */
struct counters *charged_counters(void);
void totals(struct counters *tot);

/* frontend.c: segment @s's run in model @m, its memo @mo recorded */
void run_model(const struct tb_info *ti, const struct seg *s, struct model *m,
	       struct memo *mo, bool taken, struct model_ctr *d);

/* memo.c */
void run_state_save(const struct model *m, struct run_state *st);
bool run_state_equal(const struct model *m, const struct run_state *st);
/* Segment @s's run in model @m replayed from memo @mo, if it would do
 * exactly what the memo recorded; false: it must be simulated. */
bool memo_replay(struct model *m, const struct tb_info *ti,
		 const struct seg *s, struct memo *mo, bool taken,
		 struct model_ctr *d);

/* loops.c */
#define LOOP_LOG_BITS		18
#define LOOP_MAX_PERIOD		(1u << (LOOP_LOG_BITS - 1))
/* shorter periods are left to the per-segment memos: two copies of the
 * model state cost more than a few periods of simulation */
#define LOOP_MIN_PERIOD		24
struct loop_stats {
	u64 runs;			/* TB runs seen */
	u64 confirms;			/* candidate periods checked */
	u64 not_repeated;		/* ... whose next run was not T again */
	u64 not_fixed;			/* ... that left no model as it was */
	u64 periods, tbs;		/* periods and TB runs replayed */
	u64 caught_up;			/* TB runs simulated after a mismatch */
	u64 rearms;			/* confirmations of a T found before */
};
int loops_init(void);
void loops_free(void);
void loops_tb_new(struct tb_info *ti);
/* Before a TB's run: the models (a bit each) whose work for it is replayed. */
u32 loops_before(const struct tb_info *ti);
/* After it: log it, find, confirm and count periods. */
void loops_after(struct tb_info *ti);
/* No confirmation or replay under way; a further run of @ti logged as
 * loops_after() would, unless it starts one (bulk.c's runs in bulk). */
bool loops_idle(void);
bool loops_log_repeat(struct tb_info *ti);
/* Bring every model up to date (before the output is written). */
void loops_flush(void);
/* A segment's run added @add (not all zero) to model @model's misses. */
void loops_record(u32 fn, int model, const struct misses *add);
const struct loop_stats *loops_stats(void);

/* classes.c */
extern const char *const cls_names[FESIM_NCLS];
void insn_classes(const u8 *d, size_t size, u64 va, struct insn_info *out);

/* insn_length.c */
/* The length of the x86-64 instruction whose first @size bytes are @d;
 * 0 if those bytes end before the instruction does. */
size_t insn_length(const u8 *d, size_t size);

/* attrib.c */
int attrib_load(const char *path);
void attrib_free(void);
/* Function rows are being made (syms= named functions): read on every TB
 * run, so a flag and not a call. */
static inline bool attrib_on(void)
{
	return fs.attrib;
}
u32 attrib_n_funcs(void);
u32 attrib_fn_of(u64 va);
const char *attrib_name(u32 fn);
u64 attrib_addr(u32 fn);
bool attrib_used(u32 fn);
u32 fn_cols(void);
u64 *attrib_row(struct region *r, u32 fn);
/* Add model @model's misses @add to function @fn's row in region @r. */
void attrib_add_misses(struct region *r, u32 fn, int model,
		       const struct misses *add);
void attrib_mark_used(u32 fn);
/* A model's misses before a segment's run, and what the run added since,
 * to its function's row (and loop replay's list); @n replays of a memo. */
void misses_save(struct misses *x, const struct model_ctr *d);
void attribute_misses(int i, const struct model_ctr *d,
		      const struct misses *before, u32 fn);
void note_replay_misses(int i, const struct memo *mo, u64 n, u32 fn);

/* bulk.c: a TB run again and again, counted in bulk */
bool bulk_take(struct tb_info *ti);
void bulk_after(struct tb_info *ti);
void bulk_flush_all(void);

/* tally.c */
/* A run of @s, landed there as @landed (LAND_*, 0 if not the TB's first). */
void tally_run(struct seg *s, u32 landed);
void tally_runs(struct seg *s, u32 landed, u32 n);
/* A rep pass (kind REP_*) ending the TB whose last segment is @s. */
void tally_rep(struct seg *s, u8 kind, bool repeat);
void tally_reps(struct seg *s, u8 kind, bool repeat, u32 n);
/* Add the counted runs to the counters (call before they change). */
void tally_settle(void);
void tally_free(void);

/* callgraph.c */
void callgraph_tb_new(struct tb_info *ti);
void callgraph_tb(const struct tb_info *ti);
void callgraph_write(FILE *f);
void callgraph_free(void);

/* pgo_train.c: linked into the instrumented build only (else NULL) */
void fesim_pgo_dump(void) __attribute__((weak));

/* output.c */
int output_write(const char *path);

#endif /* FESIM_H */
