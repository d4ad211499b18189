/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Loop replay: a benchmark loop that runs the same TBs in the same order,
 * period after period, from a cache state it leaves exactly as it found
 * it, adds the same counts every period. Found, checked and replayed here
 * without a sample or an estimate (docs/fesim.md, "Loop replay"):
 *
 * 1. Detection. Every TB execution outside a replay goes into a log. When
 *    its last 2L entries are two equal halves (L >= loop_min=, default 24),
 *    the last L form a candidate period T (no marker in it: a period stays
 *    in one region).
 * 2. Confirmation. Each model's state (caches and run state) is copied
 *    and the next period is simulated as usual while its counts are noted.
 *    If the TBs were T again and a model's state at the end equals the
 *    copy, that state is a fixed point of T: every further run of T from
 *    it adds exactly the noted counts and leaves the state as it is.
 * 3. Replay. While the TBs follow T, those models skip their work; each
 *    complete period adds its counts. At the first TB that differs, the
 *    part of T run so far is simulated for them (from the fixed-point
 *    state, which they are still in), and everything goes on as usual.
 * 4. Re-arming. A benchmark loop often leaves T for a few TBs (another
 *    branch one iteration in several) and comes back to it. T is kept:
 *    the next time T's last TB runs, T is confirmed again from there
 *    (step 2) without waiting for the log to show it twice. A few tries,
 *    then T is forgotten; a new candidate replaces it.
 *
 * The parts of a TB's run that do not depend on the models (instruction
 * counts, classes, footprint, call graph, markers) are done for every TB
 * as always. A model whose state is not a fixed point (a random policy
 * that draws on every miss, a cache still warming up) simply keeps being
 * simulated. loops=off turns all this off: same counts, slower (tests).
 */
#include <stdlib.h>
#include <string.h>

#include "fesim.h"

#define LOOP_LOG_MASK		((1u << LOOP_LOG_BITS) - 1)
/* off the per-TB path: loops_before()/loops_after() stay small functions
 * (with these inlined, every call saved and restored six registers) */
#define LOOP_SLOW		__attribute__((noinline, cold))
/* a candidate that failed waits len << min(fails, this) TB runs */
#define LOOP_MAX_BACKOFF	10
/* confirmations of a replayed period T after the TBs left it, before T is
 * forgotten; and its shortest length (a short period is found again in
 * a few dozen TB runs: a state copy per try would cost more) */
#define LOOP_REARM_TRIES	4
#define LOOP_REARM_MIN		256

enum { LOOP_IDLE, LOOP_CONFIRM, LOOP_REPLAY };

/* One function's misses in one model over one period. */
struct fn_delta {
	u32 model, fn;
	struct misses add;
};

/* Where a (model, function) pair's record may be (loops_record()). */
#define FD_HASH_BITS		12

/* A model's copy of its state, and what one period adds to its counts. */
struct model_loop {
	u8 *snap;
	size_t l1i_off, itlb_off, stlb_off, uop_off, size;
	struct run_state run;
	struct uop_pack pack;
	struct model_ctr start, delta;
};

static struct {
	int mode;
	u32 *log;			/* loop_id of the TBs run: a ring of
					 * 4-byte ids (1 MiB), not pointers */
	u64 pos;			/* TB executions logged */
	u64 runs;			/* TB executions seen */
	struct tb_info **tbs;		/* by loop_id */
	u32 n_tbs, cap_tbs;
	u64 cand_len, cand_run;		/* candidate period, entries matched */
	u64 backoff_until;
	u32 fails;
	struct tb_info **period;	/* T */
	u32 len, cap, at;		/* |T|, its room, position in it */
	u32 replay;			/* models replaying (bit per model) */
	u32 rearm;			/* re-arming tries left for T */
	bool rearming;			/* this confirmation is one */
	struct counters *target;	/* where the period's counts go */
	struct model_loop m[FESIM_MAX_MODELS];
	struct fn_delta *fd;
	u32 n_fd, cap_fd;
	bool fd_lost;			/* out of memory noting them */
	/* per hash of (model, function): an index into fd[], a hint only */
	u32 fd_hash[1u << FD_HASH_BITS];
	struct loop_stats stats;
} lp;

int loops_init(void)
{
	int i;

	lp.log = calloc(1u << LOOP_LOG_BITS, sizeof(*lp.log));
	if (!lp.log)
		return -1;
	for (i = 0; i < fs.n_models; i++) {
		struct model *m = &fs.models[i];
		struct model_loop *ml = &lp.m[i];

		ml->l1i_off = 0;
		ml->itlb_off = ml->l1i_off + sa_snap_size(&m->l1i);
		ml->stlb_off = ml->itlb_off + sa_snap_size(&m->itlb);
		ml->uop_off = ml->stlb_off +
			      (m->stlb.tags ? sa_snap_size(&m->stlb) : 0);
		ml->size = ml->uop_off + uop_snap_size(&m->uop);
		ml->snap = malloc(ml->size);
		if (!ml->snap)
			return -1;
	}
	return 0;
}

/* A new TB gets its log id (ids from 1: 0 is an empty log entry). */
void loops_tb_new(struct tb_info *ti)
{
	if (!lp.n_tbs)
		lp.n_tbs = 1;
	if (lp.n_tbs >= lp.cap_tbs) {
		u32 cap = lp.cap_tbs ? lp.cap_tbs * 2 : 4096;
		struct tb_info **t = realloc(lp.tbs, cap * sizeof(*t));

		if (!t) {
			ti->loop_id = 0;	/* never part of a period */
			return;
		}
		lp.tbs = t;
		lp.cap_tbs = cap;
	}
	ti->loop_id = lp.n_tbs;
	lp.tbs[lp.n_tbs++] = ti;
}

void loops_free(void)
{
	int i;

	free(lp.log);
	free(lp.tbs);
	free(lp.period);
	free(lp.fd);
	for (i = 0; i < FESIM_MAX_MODELS; i++)
		free(lp.m[i].snap);
	memset(&lp, 0, sizeof(lp));
}

const struct loop_stats *loops_stats(void)
{
	lp.stats.runs = lp.runs;
	return &lp.stats;
}

static void snap_take(int i)
{
	struct model *m = &fs.models[i];
	struct model_loop *ml = &lp.m[i];

	sa_snap(&m->l1i, ml->snap + ml->l1i_off);
	sa_snap(&m->itlb, ml->snap + ml->itlb_off);
	if (m->stlb.tags)
		sa_snap(&m->stlb, ml->snap + ml->stlb_off);
	uop_snap(&m->uop, ml->snap + ml->uop_off);
	run_state_save(m, &ml->run);
	ml->pack = m->pack;
}

/* The model is in the state snap_take() copied: it will do the same. */
static bool snap_equal(int i)
{
	struct model *m = &fs.models[i];
	struct model_loop *ml = &lp.m[i];

	return run_state_equal(m, &ml->run) &&
	       !memcmp(&ml->pack, &m->pack, sizeof(m->pack)) &&
	       sa_snap_equal(&m->l1i, ml->snap + ml->l1i_off) &&
	       sa_snap_equal(&m->itlb, ml->snap + ml->itlb_off) &&
	       (!m->stlb.tags ||
		sa_snap_equal(&m->stlb, ml->snap + ml->stlb_off)) &&
	       uop_snap_equal(&m->uop, ml->snap + ml->uop_off);
}

static LOOP_SLOW void back_off(void)
{
	u32 shift = lp.fails < LOOP_MAX_BACKOFF ? lp.fails : LOOP_MAX_BACKOFF;

	lp.mode = LOOP_IDLE;
	fs.loop_rec = false;
	if (lp.rearming) {
		/* the next end of T may find the state fixed again; the
		 * search for new candidates goes on meanwhile, unslowed */
		lp.rearming = false;
		lp.rearm--;
		return;
	}
	lp.fails++;
	lp.backoff_until = lp.pos + ((u64)lp.len << shift);
}

static bool has_marker(const struct tb_info *ti)
{
	u32 k;

	for (k = 0; k < ti->n_segs; k++)
		if (ti->segs[k].action)
			return true;
	return false;
}

/* Copy the models' state and confirm T from here (step 2). */
static void confirm_from_here(void)
{
	int i;

	lp.target = charged_counters();
	for (i = 0; i < fs.n_models; i++) {
		snap_take(i);
		lp.m[i].start = lp.target->m[i];
	}
	lp.n_fd = 0;
	lp.fd_lost = false;
	lp.at = 0;
	lp.mode = LOOP_CONFIRM;
	fs.loop_rec = fs.cur && attrib_on();
	lp.stats.confirms++;
}

/* T's last TB ran again after a replay of T ended (step 4). */
static LOOP_SLOW void rearm_start(void)
{
	lp.rearming = true;
	lp.stats.rearms++;
	confirm_from_here();
}

/* The last lp.cand_len TBs, ending with the one just run, become T. */
static LOOP_SLOW void confirm_start(void)
{
	u32 len = (u32)lp.cand_len, j;

	if (len > lp.cap) {
		free(lp.period);
		lp.period = malloc(len * sizeof(*lp.period));
		if (!lp.period) {
			lp.cap = 0;
			fs.loops = false;	/* no room: simulate everything */
			return;
		}
		lp.cap = len;
	}
	lp.len = len;
	lp.rearm = 0;		/* the old T is overwritten */
	for (j = 0; j < len; j++) {
		u32 id = lp.log[(lp.pos - len + j) & LOOP_LOG_MASK];

		lp.period[j] = id ? lp.tbs[id] : NULL;
		if (!id || has_marker(lp.period[j])) {
			back_off();
			return;
		}
	}
	confirm_from_here();
}

static u32 fd_slot(u32 fn, int model)
{
	return ((fn * FESIM_MAX_MODELS + (u32)model) * 0x9e3779b1u) >>
	       (32 - FD_HASH_BITS);
}

/*
 * A confirmation notes a function's misses on every segment run that has
 * any: on the scheduler and stream paths one record per TB run and model
 * or more, which fd_merge() then sorted (a few per cent of the plugin's
 * work). A record of the same pair found through the hash takes them
 * instead. The hash is only a hint: an index is used if it lies within
 * this confirmation's records (n_fd restarts at 0) and holds the same
 * pair; a pair whose slot another took gets a record more, which
 * fd_merge() adds up as before. So the sums, and the order in which
 * period_done() adds them, are the same.
 */
void loops_record(u32 fn, int model, const struct misses *add)
{
	u32 *slot = &lp.fd_hash[fd_slot(fn, model)];
	struct fn_delta *d;

	if (*slot < lp.n_fd && lp.fd[*slot].fn == fn &&
	    lp.fd[*slot].model == (u32)model) {
		misses_add(&lp.fd[*slot].add, add);
		return;
	}
	if (lp.n_fd == lp.cap_fd) {
		u32 cap = lp.cap_fd ? lp.cap_fd * 2 : 1024;
		struct fn_delta *fd = realloc(lp.fd, cap * sizeof(*fd));

		if (!fd) {
			/* the period's function rows would be incomplete:
			 * the confirmation fails instead */
			lp.fd_lost = true;
			return;
		}
		lp.fd = fd;
		lp.cap_fd = cap;
	}
	*slot = lp.n_fd;
	d = &lp.fd[lp.n_fd++];
	d->model = model;
	d->fn = fn;
	d->add = *add;
}

static int fd_cmp(const void *a, const void *b)
{
	const struct fn_delta *x = a, *y = b;

	if (x->model != y->model)
		return x->model < y->model ? -1 : 1;
	return x->fn < y->fn ? -1 : x->fn > y->fn;
}

/* Sum the noted function misses per (model, function), replaying models'
 * only: what one period adds to the function rows. */
static void fd_merge(void)
{
	u32 j, n = 0;

	qsort(lp.fd, lp.n_fd, sizeof(*lp.fd), fd_cmp);
	for (j = 0; j < lp.n_fd; j++) {
		struct fn_delta *d = &lp.fd[j];

		if (!(lp.replay >> d->model & 1))
			continue;
		if (n && lp.fd[n - 1].model == d->model &&
		    lp.fd[n - 1].fn == d->fn) {
			misses_add(&lp.fd[n - 1].add, &d->add);
		} else {
			lp.fd[n++] = *d;
		}
	}
	lp.n_fd = n;
}

static void ctr_sub(struct model_ctr *d, const struct model_ctr *a,
		    const struct model_ctr *b)
{
	const u64 *x = (const u64 *)a, *y = (const u64 *)b;
	u64 *z = (u64 *)d;
	size_t k;

	for (k = 0; k < sizeof(*d) / sizeof(u64); k++)
		z[k] = x[k] - y[k];
}

static void ctr_add(struct model_ctr *d, const struct model_ctr *a)
{
	const u64 *x = (const u64 *)a;
	u64 *z = (u64 *)d;
	size_t k;

	for (k = 0; k < sizeof(*d) / sizeof(u64); k++)
		z[k] += x[k];
}

static LOOP_SLOW void confirm_end(void)
{
	int i;

	fs.loop_rec = false;
	lp.replay = 0;
	for (i = 0; i < fs.n_models && !lp.fd_lost; i++) {
		if (!snap_equal(i))
			continue;
		lp.replay |= 1u << i;
		ctr_sub(&lp.m[i].delta, &lp.target->m[i], &lp.m[i].start);
	}
	if (!lp.replay) {
		lp.stats.not_fixed++;
		back_off();
		return;
	}
	fd_merge();
	lp.fails = 0;
	lp.rearming = false;
	lp.at = 0;
	lp.mode = LOOP_REPLAY;
}

/* One replayed period is complete: add what it adds. */
static LOOP_SLOW void period_done(void)
{
	u32 j;
	int i;

	for (i = 0; i < fs.n_models; i++)
		if (lp.replay >> i & 1)
			ctr_add(&lp.target->m[i], &lp.m[i].delta);
	for (j = 0; j < lp.n_fd; j++)
		attrib_add_misses(fs.cur, lp.fd[j].fn, lp.fd[j].model,
				  &lp.fd[j].add);
	lp.stats.periods++;
	lp.stats.tbs += lp.len;
	lp.at = 0;
}

/* Simulate the replaying models through T's first lp.at TBs: the part of
 * a period run before the TBs stopped following T. */
static void catch_up(void)
{
	u32 j, k;

	for (j = 0; j < lp.at; j++) {
		struct tb_info *ti = lp.period[j];
		u64 prev_end = lp.period[j ? j - 1 : lp.len - 1]->end;
		bool taken = ti->vaddr != prev_end;

		for (k = 0; k < ti->n_segs; k++) {
			struct seg *s = &ti->segs[k];

			if (!s->n_insns)
				continue;
			run_seg_models(ti, s, taken, ~lp.replay);
			taken = false;
		}
	}
	lp.stats.caught_up += lp.at;
	lp.at = 0;
}

static LOOP_SLOW void replay_end(void)
{
	catch_up();
	lp.replay = 0;
	lp.mode = LOOP_IDLE;
	lp.cand_len = lp.cand_run = 0;
	lp.rearm = lp.len >= LOOP_REARM_MIN ? LOOP_REARM_TRIES : 0;
}

u32 loops_before(const struct tb_info *ti)
{
	switch (lp.mode) {
	case LOOP_CONFIRM:
		if (ti != lp.period[lp.at]) {
			lp.stats.not_repeated++;
			back_off();
		}
		return 0;
	case LOOP_REPLAY:
		if (ti == lp.period[lp.at])
			return lp.replay;
		replay_end();
		return 0;
	default:
		return 0;
	}
}

/* The candidate period (@len, its matched run @run) after @ti is logged
 * at @pos: it goes on if @ti is the TB one period back, else it starts
 * over from @ti's last run. Inlined in both callers: out of line, every
 * TB run paid for the call and for @len and @run in memory. */
static inline __attribute__((always_inline)) void
cand_step(const struct tb_info *ti, u64 pos, u64 *len, u64 *run)
{
	if (*len && lp.log[(pos - *len) & LOOP_LOG_MASK] == ti->loop_id &&
	    ti->loop_id) {
		(*run)++;
	} else if (ti->loop_pos && pos + 1 - ti->loop_pos <= LOOP_MAX_PERIOD) {
		*len = pos + 1 - ti->loop_pos;
		*run = 1;
	} else {
		*len = *run = 0;
	}
}

/* With nothing under way: @ti ends a period T to confirm again (step 4),
 * or the candidate has repeated once in full, @pos runs logged (step 2). */
static bool rearm_due(const struct tb_info *ti)
{
	return lp.rearm && ti == lp.period[lp.len - 1];
}

static bool confirm_due(u64 len, u64 run, u64 pos)
{
	return len >= fs.loop_min && run >= len && pos >= lp.backoff_until;
}

void loops_after(struct tb_info *ti)
{
	u64 pos = lp.pos;

	lp.runs++;
	if (lp.mode == LOOP_REPLAY) {
		/* not logged: a period that follows starts from an empty
		 * candidate (the log's older entries are stale by then) */
		if (++lp.at == lp.len)
			period_done();
		return;
	}
	lp.log[pos & LOOP_LOG_MASK] = ti->loop_id;
	cand_step(ti, pos, &lp.cand_len, &lp.cand_run);
	ti->loop_pos = pos + 1;
	lp.pos++;
	if (lp.mode == LOOP_CONFIRM) {
		if (++lp.at == lp.len)
			confirm_end();
	} else if (rearm_due(ti)) {
		rearm_start();
	} else if (confirm_due(lp.cand_len, lp.cand_run, lp.pos)) {
		confirm_start();
	}
}

bool loops_idle(void)
{
	return lp.mode == LOOP_IDLE;
}

/*
 * loops_after() for one more run of @ti right after a run of it (bulk.c's
 * runs counted in bulk), done here without the models' part: the
 * run is logged and the candidate follows, as there. False, with nothing
 * done, if the run would start a confirmation (step 2 or 4) or one is
 * under way: then the run takes the usual path.
 */
bool loops_log_repeat(struct tb_info *ti)
{
	u64 len = lp.cand_len, run = lp.cand_run;

	if (lp.mode != LOOP_IDLE || rearm_due(ti))
		return false;
	cand_step(ti, lp.pos, &len, &run);
	if (confirm_due(len, run, lp.pos + 1))
		return false;
	lp.log[lp.pos & LOOP_LOG_MASK] = ti->loop_id;
	lp.cand_len = len;
	lp.cand_run = run;
	ti->loop_pos = lp.pos + 1;
	lp.pos++;
	lp.runs++;
	return true;
}

void loops_flush(void)
{
	if (lp.mode == LOOP_REPLAY)
		replay_end();
	else if (lp.mode == LOOP_CONFIRM)
		back_off();
}
