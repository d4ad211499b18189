/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scheduler core: schedule(), wake-ups, the context switch, instances. */
#include <kfront/errno.h>
#include <kfront/slab.h>
#include <kfront/string.h>
#include "sched.h"

BUILD_BUG_ON(__builtin_offsetof(struct task, thread.sp) != 0);
BUILD_BUG_ON(sizeof(struct kthread_frame) != 7 * 8);

struct task *__current_task;

void activate_task(struct rq *rq, struct task *p, int flags)
{
	p->sched_class->enqueue_task(rq, p, flags);
}

void deactivate_task(struct rq *rq, struct task *p, int flags)
{
	p->sched_class->dequeue_task(rq, p, flags);
}

/* Runs on next's stack right after the switch; prev is who ran before. */
void finish_task_switch(struct task *prev)
{
	rq_unlock(prev->rq);
	/* A dead task's stack could not be freed while it ran on it. */
	if (unlikely(prev->state == TASK_DEAD))
		put_task_struct(prev);
}

static __cold void sched_stack_corrupt(struct rq *rq, struct task *p)
{
	rq->error = SCHED_ERR_STACK;
}

/*
 * Nothing is runnable. With no interrupts, only a timer can change that:
 * jump the virtual clock to the next expiry (a tickless idle). With no
 * timer either, the workload lost a wake-up; hand the CPU back to the
 * driver so it can report that instead of hanging.
 */
static void sched_idle(struct rq *rq)
{
	u32 next, now = rq_ticks(rq);

	if (timer_wheel_next(&rq->wheel, &next)) {
		rq->stats.nr_idle++;
		if (time_after32(next, now))
			rq->clock = (u64)((rq->clock >> TIMER_TICK_SHIFT) +
					  (u32)(next - now)) << TIMER_TICK_SHIFT;
		sched_timer_tick(rq);
		return;
	}
	rq->error = SCHED_ERR_STALL;
	rq->driver->state = TASK_RUNNING;
	if (!rq->driver->se.on_rq)
		activate_task(rq, rq->driver, ENQUEUE_WAKEUP);
}

static struct task *pick_next_task(struct rq *rq, struct task *prev)
{
	struct task *next;

	for (;;) {
		next = fair_sched_class.pick_next_task(rq, prev);
		if (likely(next))
			return next;
		sched_idle(rq);
	}
}

static struct task *context_switch(struct rq *rq, struct task *prev,
				   struct task *next)
{
	if (unlikely(prev->stack && *(u64 *)prev->stack != STACK_END_MAGIC))
		sched_stack_corrupt(rq, prev);
	rq->curr = next;
	rq->stats.nr_switches++;
	__current_task = next;
	/* Returns on next's stack, possibly much later, with the task that
	 * switched to us then. */
	return __switch_to_asm(prev, next);
}

void schedule(void)
{
	struct task *prev = current, *next;
	struct rq *rq = prev->rq;

	rq_lock(rq);
	/* The virtual clock's cost model: every pass through here costs a
	 * fixed amount of time, charged to the task that called it. */
	rq->clock += SCHED_SWITCH_COST_NS;
	prev->flags &= ~TIF_NEED_RESCHED;
	if (time_after_eq32(rq_ticks(rq), rq->wheel.now))
		sched_timer_tick(rq);
	prev->sched_class->update_curr(rq);
	if (prev->state != TASK_RUNNING && prev->se.on_rq)
		deactivate_task(rq, prev, DEQUEUE_SLEEP);

	next = pick_next_task(rq, prev);
	if (likely(next != prev)) {
		if (prev->state == TASK_RUNNING)
			prev->nivcsw++;
		else
			prev->nvcsw++;
		prev = context_switch(rq, prev, next);
		finish_task_switch(prev);
		return;
	}
	rq_unlock(rq);
}

int try_to_wake_up(struct task *p, unsigned int state, int wake_flags)
{
	struct rq *rq = p->rq;

	if (!(p->state & state))
		return 0;
	rq_lock(rq);
	rq->stats.nr_wakeups++;
	p->state = TASK_RUNNING;
	/* Woken between setting its state and leaving the CPU: it simply
	 * does not block. */
	if (p->se.on_rq) {
		rq_unlock(rq);
		return 1;
	}
	activate_task(rq, p, ENQUEUE_WAKEUP);
	p->sched_class->check_preempt_curr(rq, p, wake_flags);
	rq_unlock(rq);
	return 1;
}

int wake_up_process(struct task *p)
{
	return try_to_wake_up(p, TASK_NORMAL, 0);
}

void yield(void)
{
	struct rq *rq = current->rq;

	rq_lock(rq);
	current->sched_class->yield_task(rq);
	rq_unlock(rq);
	schedule();
}

u64 sched_clock(void)
{
	return current->rq->clock;
}

void sched_clock_advance(u64 ns)
{
	current->rq->clock += ns;
}

void sched_get_stats(const struct rq *rq, struct sched_stats *st)
{
	*st = rq->stats;
	st->clock = rq->clock;
	st->min_vruntime = rq->min_vruntime;
}

const char *sched_error(const struct rq *rq)
{
	switch (rq->error) {
	case SCHED_ERR_NONE:
		return NULL;
	case SCHED_ERR_STALL:
		return "sched: stalled, nothing runnable and no timer";
	case SCHED_ERR_STACK:
		return "sched: kernel thread stack overflow";
	}
	return "sched: unknown error";
}
