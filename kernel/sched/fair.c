/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The fair scheduling class: virtual runtime, weights, the rb-tree queue. */
#include "sched.h"

/*
 * Load weight per nice level, nice -20 first: round(1024 / 1.25^nice),
 * so one nice step is about a 10% share of CPU between two tasks. The
 * second table holds round(2^32 / weight) so scaling is a multiply.
 */
static const u32 nice_to_weight[40] = {
	88818, 71054, 56843, 45475, 36380, 29104, 23283, 18626, 14901, 11921,
	9537, 7629, 6104, 4883, 3906, 3125, 2500, 2000, 1600, 1280,
	1024, 819, 655, 524, 419, 336, 268, 215, 172, 137,
	110, 88, 70, 56, 45, 36, 29, 23, 18, 15,
};

static const u32 nice_to_wmult[40] = {
	48357, 60447, 75558, 94447, 118058, 147573, 184468, 230590, 288233,
	360286, 450348, 562979, 703632, 879576, 1099582, 1374390, 1717987,
	2147484, 2684355, 3355443, 4194304, 5244160, 6557202, 8196502,
	10250519, 12782641, 16025997, 19976592, 24970740, 31350126, 39045157,
	48806447, 61356676, 76695845, 95443718, 119304647, 148102321,
	186737709, 238609294, 286331153,
};

void sched_set_weight(struct task *p, int nice)
{
	if (nice < NICE_MIN)
		nice = NICE_MIN;
	if (nice > NICE_MAX)
		nice = NICE_MAX;
	p->nice = nice;
	p->se.weight = nice_to_weight[nice - NICE_MIN];
	p->se.inv_weight = nice_to_wmult[nice - NICE_MIN];
}

/* delta * NICE_0_LOAD / weight, as a multiply and shift. */
static u64 calc_delta_fair(u64 delta, const struct sched_entity *se)
{
	unsigned __int128 prod;

	if (likely(se->weight == NICE_0_LOAD))
		return delta;
	prod = (unsigned __int128)delta * ((u64)NICE_0_LOAD * se->inv_weight);
	return (u64)(prod >> 32);
}

static inline bool entity_before(const struct sched_entity *a,
				 const struct sched_entity *b)
{
	return (s64)(a->vruntime - b->vruntime) < 0;
}

static inline struct sched_entity *__pick_first_entity(struct rq *rq)
{
	struct rb_node *left = rb_first_cached(&rq->tasks_timeline);

	return rb_entry_safe(left, struct sched_entity, run_node);
}

/* min_vruntime only moves forward: it is the floor new and waking
 * tasks are placed against. */
static void update_min_vruntime(struct rq *rq)
{
	struct task *curr = rq->curr;
	struct sched_entity *left = __pick_first_entity(rq);
	u64 vruntime = rq->min_vruntime;
	bool have = false;

	if (curr && curr->se.on_rq) {
		vruntime = curr->se.vruntime;
		have = true;
	}
	if (left && (!have || entity_before(left, &curr->se)))
		vruntime = left->vruntime;
	if ((s64)(vruntime - rq->min_vruntime) > 0)
		rq->min_vruntime = vruntime;
}

/* Charge the running task for the virtual time since it was last charged. */
static void update_curr_fair(struct rq *rq)
{
	struct sched_entity *se = &rq->curr->se;
	u64 delta = rq->clock - se->exec_start;

	if (unlikely((s64)delta <= 0))
		return;
	se->exec_start = rq->clock;
	se->sum_exec_runtime += delta;
	se->vruntime += calc_delta_fair(delta, se);
	update_min_vruntime(rq);
}

static void __enqueue_entity(struct rq *rq, struct sched_entity *se)
{
	struct rb_node **link = &rq->tasks_timeline.rb_root.rb_node;
	struct rb_node *parent = NULL;
	bool leftmost = true;

	/* Equal keys go right, so tasks with the same vruntime run FIFO. */
	while (*link) {
		struct sched_entity *entry;

		parent = *link;
		entry = rb_entry(parent, struct sched_entity, run_node);
		if (entity_before(se, entry)) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			leftmost = false;
		}
	}
	rb_link_node(&se->run_node, parent, link);
	rb_insert_color_cached(&se->run_node, &rq->tasks_timeline, leftmost);
}

static void __dequeue_entity(struct rq *rq, struct sched_entity *se)
{
	rb_erase_cached(&se->run_node, &rq->tasks_timeline);
	RB_CLEAR_NODE(&se->run_node);
}

/*
 * A task that slept keeps its vruntime but may not lag min_vruntime by
 * more than half a latency period: sleeping earns a bounded head start,
 * not a monopoly.
 */
static void place_entity(struct rq *rq, struct sched_entity *se, int flags)
{
	u64 vruntime = rq->min_vruntime;

	if (flags & ENQUEUE_WAKEUP)
		vruntime -= SCHED_LATENCY_NS / 2;
	if ((s64)(vruntime - se->vruntime) > 0)
		se->vruntime = vruntime;
}

static void enqueue_task_fair(struct rq *rq, struct task *p, int flags)
{
	struct sched_entity *se = &p->se;

	if (p == rq->curr)
		update_curr_fair(rq);
	if (flags & (ENQUEUE_WAKEUP | ENQUEUE_NEW))
		place_entity(rq, se, flags);
	/* The running task stays out of the tree until it is put back. */
	if (p != rq->curr)
		__enqueue_entity(rq, se);
	se->on_rq = true;
	rq->nr_running++;
	rq->load_weight += se->weight;
}

static void dequeue_task_fair(struct rq *rq, struct task *p, int flags)
{
	struct sched_entity *se = &p->se;

	if (p == rq->curr)
		update_curr_fair(rq);
	else
		__dequeue_entity(rq, se);
	se->on_rq = false;
	rq->nr_running--;
	rq->load_weight -= se->weight;
	if (rq->skip == p)
		rq->skip = NULL;
	update_min_vruntime(rq);
}

static void yield_task_fair(struct rq *rq)
{
	if (unlikely(rq->nr_running <= 1))
		return;
	update_curr_fair(rq);
	rq->skip = rq->curr;
}

static u64 wakeup_gran(const struct sched_entity *se)
{
	/* In the woken task's virtual time: a heavy task preempts sooner. */
	return calc_delta_fair(SCHED_WAKEUP_GRAN_NS, se);
}

/* Preempt the running task if the woken one is ahead by more than the
 * wake-up granularity, so ping-pong pairs do not switch on every wake. */
static void check_preempt_wakeup(struct rq *rq, struct task *p, int flags)
{
	struct task *curr = rq->curr;
	s64 vdiff;

	if (unlikely(curr == p || (curr->flags & TIF_NEED_RESCHED)))
		return;
	update_curr_fair(rq);
	vdiff = (s64)(curr->se.vruntime - p->se.vruntime);
	if (vdiff > (s64)wakeup_gran(&p->se)) {
		resched_curr(rq);
		rq->stats.nr_preempt++;
	}
}

static struct task *pick_next_task_fair(struct rq *rq, struct task *prev)
{
	struct sched_entity *se;
	struct rb_node *second;

	/* A still-runnable prev goes back into the tree to compete. */
	if (prev->se.on_rq)
		__enqueue_entity(rq, &prev->se);
	se = __pick_first_entity(rq);
	if (unlikely(!se))
		return NULL;
	if (unlikely(rq->skip) && se == &rq->skip->se) {
		second = rb_next(&se->run_node);
		if (second)
			se = rb_entry(second, struct sched_entity, run_node);
	}
	rq->skip = NULL;
	__dequeue_entity(rq, se);
	se->exec_start = rq->clock;
	return container_of(se, struct task, se);
}

static void task_new_fair(struct rq *rq, struct task *p)
{
	p->se.vruntime = rq->min_vruntime;
	p->se.exec_start = rq->clock;
	RB_CLEAR_NODE(&p->se.run_node);
}

const struct sched_class fair_sched_class = {
	.enqueue_task		= enqueue_task_fair,
	.dequeue_task		= dequeue_task_fair,
	.yield_task		= yield_task_fair,
	.check_preempt_curr	= check_preempt_wakeup,
	.pick_next_task		= pick_next_task_fair,
	.task_new		= task_new_fair,
	.update_curr		= update_curr_fair,
};
