/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scheduler internals shared by core.c, fair.c and the wait/timer code. */
#ifndef KERNEL_SCHED_SCHED_H
#define KERNEL_SCHED_SCHED_H

#include <kfront/sched.h>

/* Tunables, in ns of the virtual clock. Scaled to the clock's cost model
 * (one switch = SCHED_SWITCH_COST_NS) rather than to real hardware. */
#define SCHED_SWITCH_COST_NS		1000ULL
#define SCHED_LATENCY_NS		24000ULL
#define SCHED_WAKEUP_GRAN_NS		4000ULL
#define NICE_0_LOAD			1024U

/* enqueue/dequeue flags */
#define ENQUEUE_WAKEUP			0x01
#define ENQUEUE_NEW			0x02
#define DEQUEUE_SLEEP			0x01

/* wake flags */
#define WF_SYNC				0x01

/* The scheduling-class interface: core.c only ever calls through this. */
struct sched_class {
	void (*enqueue_task)(struct rq *rq, struct task *p, int flags);
	void (*dequeue_task)(struct rq *rq, struct task *p, int flags);
	void (*yield_task)(struct rq *rq);
	void (*check_preempt_curr)(struct rq *rq, struct task *p, int flags);
	struct task *(*pick_next_task)(struct rq *rq, struct task *prev);
	void (*task_new)(struct rq *rq, struct task *p);
	void (*update_curr)(struct rq *rq);
};

extern const struct sched_class fair_sched_class;

enum sched_err {
	SCHED_ERR_NONE,
	SCHED_ERR_STALL,	/* nothing runnable, no timer: lost wake-up */
	SCHED_ERR_STACK,	/* a thread ran over its stack's end marker */
};

struct rq {
	/* hot: touched on every switch */
	struct task *curr;
	struct rb_root_cached tasks_timeline;
	u64 clock;			/* sched_clock, ns */
	u64 min_vruntime;
	u32 nr_running;			/* including curr while runnable */
	unsigned long load_weight;
	struct task *skip;		/* yielded: pick someone else first */
	/* the driver task stands for whoever called sched_enter() */
	struct task *driver;
	enum sched_err error;
	u32 next_pid;
	struct list_head tasks;		/* every task of the instance */
	struct sched_stats stats;
	struct timer_wheel wheel;
};

/*
 * What __switch_to_asm pops for a task that never ran, lowest address
 * first: the callee-saved registers, then ret_from_kthread as the return
 * address. Keep in step with the push order in switch.asm.
 */
struct kthread_frame {
	unsigned long r15, r14, r13, r12, rbx, rbp;
	unsigned long ret_addr;
};

#define STACK_END_MAGIC			0x57ac6e9d5ca1ab1eULL

/* switch.asm */
struct task *__switch_to_asm(struct task *prev, struct task *next);
void ret_from_kthread(void);

/* The run queue lock: one CPU and no interrupts during measurement, so it
 * compiles away, but the call sites stay where a real kernel needs them. */
static inline void rq_lock(struct rq *rq)
{
	(void)rq;
}

static inline void rq_unlock(struct rq *rq)
{
	(void)rq;
}

static inline void resched_curr(struct rq *rq)
{
	rq->curr->flags |= TIF_NEED_RESCHED;
}

static inline u32 rq_ticks(const struct rq *rq)
{
	return (u32)(rq->clock >> TIMER_TICK_SHIFT);
}

void activate_task(struct rq *rq, struct task *p, int flags);
void deactivate_task(struct rq *rq, struct task *p, int flags);
void sched_set_weight(struct task *p, int nice);
void sched_timer_tick(struct rq *rq);
void finish_task_switch(struct task *prev);
void put_task_struct(struct task *p);

#endif
