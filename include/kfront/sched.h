/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel threads, the fair scheduler, wait queues, timers and pipes. */
#ifndef KFRONT_SCHED_H
#define KFRONT_SCHED_H

#include <kfront/types.h>	/* first: list.h uses bool and NULL */
#include <kfront/compiler.h>
#include <kfront/list.h>
#include <kfront/rbtree.h>

struct rq;
struct task;

/* Task states: a task runs or sits on the run queue only in TASK_RUNNING. */
#define TASK_RUNNING		0x0000
#define TASK_INTERRUPTIBLE	0x0001
#define TASK_UNINTERRUPTIBLE	0x0002
#define TASK_NORMAL		(TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)
#define TASK_DEAD		0x0080
#define TASK_NEW		0x0800

/* task->flags */
#define TIF_NEED_RESCHED	0x0001	/* a wake-up asked for a switch */
#define PF_KTHREAD		0x0100	/* owns a stack built by kthread_create */
#define PF_DRIVER		0x0200	/* the caller's context, no own stack */

#define THREAD_SIZE		(16 * 1024)
#define TASK_COMM_LEN		16
#define NICE_MIN		(-20)
#define NICE_MAX		19

/* ---- timers: a hierarchical wheel in ticks of the virtual clock ---- */

#define TIMER_TICK_SHIFT	10	/* one tick = 1024 ns of sched_clock */
#define TW_BITS			6
#define TW_SIZE			(1 << TW_BITS)
#define TW_LEVELS		4
/* Furthest expiry a timer can be armed for; later ones are clamped. */
#define TW_MAX_DELTA		((1U << (TW_BITS * TW_LEVELS)) - 1)

struct timer_list {
	struct list_head entry;		/* next == NULL: not pending */
	u32 expires;			/* absolute tick, wraps */
	void (*function)(struct timer_list *timer);
};

struct timer_wheel {
	u32 now;			/* next tick to process */
	u32 nr_pending;
	struct list_head vec[TW_LEVELS][TW_SIZE];
};

static inline bool time_after32(u32 a, u32 b)
{
	return (s32)(b - a) < 0;
}

static inline bool time_after_eq32(u32 a, u32 b)
{
	return (s32)(a - b) >= 0;
}

static inline bool timer_pending(const struct timer_list *timer)
{
	return timer->entry.next != NULL;
}

void timer_wheel_init(struct timer_wheel *wheel, u32 now);
void timer_setup(struct timer_list *timer,
		 void (*function)(struct timer_list *timer));
void timer_add(struct timer_wheel *wheel, struct timer_list *timer,
	       u32 expires);
int timer_del(struct timer_wheel *wheel, struct timer_list *timer);
/* Fire every timer that expires at or before tick 'until'; returns how many. */
unsigned int timer_wheel_run(struct timer_wheel *wheel, u32 until);
/* Earliest pending expiry; false when nothing is pending. */
bool timer_wheel_next(const struct timer_wheel *wheel, u32 *expires);

/* ---- tasks ---- */

struct sched_entity {
	struct rb_node run_node;	/* in rq->tasks_timeline */
	u64 vruntime;			/* weighted virtual runtime, ns */
	u64 exec_start;			/* sched_clock when last charged */
	u64 sum_exec_runtime;
	u32 weight;
	u32 inv_weight;			/* 2^32 / weight */
	bool on_rq;
};

struct thread_struct {
	unsigned long sp;		/* saved by __switch_to_asm */
};

struct task {
	struct thread_struct thread;	/* first: switch.asm uses offset 0 */
	unsigned int state;
	unsigned int flags;
	struct rq *rq;
	const struct sched_class *sched_class;
	struct sched_entity se;
	int nice;
	u32 pid;
	void (*fn)(void *arg);
	void *arg;
	void *stack;			/* lowest address, THREAD_SIZE bytes */
	struct timer_list timer;	/* schedule_timeout() */
	struct list_head tasks;		/* rq->tasks */
	u64 nvcsw;			/* voluntary switches (blocked) */
	u64 nivcsw;			/* involuntary (preempted, yielded) */
	char comm[TASK_COMM_LEN];
};

/*
 * The running task. One CPU, so one variable; a kernel with more CPUs
 * keeps one per CPU. NULL outside sched_enter()/sched_leave().
 */
extern struct task *__current_task;

static __always_inline struct task *get_current(void)
{
	return __current_task;
}
#define current get_current()

/* ---- wait queues ---- */

struct wait_queue_entry;
typedef int (*wait_queue_func_t)(struct wait_queue_entry *wq_entry,
				 unsigned int mode, int wake_flags, void *key);

#define WQ_FLAG_EXCLUSIVE	0x01

struct wait_queue_entry {
	unsigned int flags;
	struct task *task;
	wait_queue_func_t func;
	struct list_head entry;
};

struct wait_queue_head {
	struct list_head head;
};

int default_wake_function(struct wait_queue_entry *wq_entry, unsigned int mode,
			  int wake_flags, void *key);
int autoremove_wake_function(struct wait_queue_entry *wq_entry,
			     unsigned int mode, int wake_flags, void *key);

static inline void init_waitqueue_head(struct wait_queue_head *wq_head)
{
	INIT_LIST_HEAD(&wq_head->head);
}

static inline void init_waitqueue_entry(struct wait_queue_entry *wq_entry,
					struct task *p)
{
	wq_entry->flags = 0;
	wq_entry->task = p;
	wq_entry->func = default_wake_function;
	INIT_LIST_HEAD(&wq_entry->entry);
}

static inline void init_wait_entry(struct wait_queue_entry *wq_entry, int flags)
{
	wq_entry->flags = flags;
	wq_entry->task = current;
	wq_entry->func = autoremove_wake_function;
	INIT_LIST_HEAD(&wq_entry->entry);
}

static inline bool waitqueue_active(const struct wait_queue_head *wq_head)
{
	return !list_empty(&wq_head->head);
}

void add_wait_queue(struct wait_queue_head *wq_head,
		    struct wait_queue_entry *wq_entry);
void add_wait_queue_exclusive(struct wait_queue_head *wq_head,
			      struct wait_queue_entry *wq_entry);
void remove_wait_queue(struct wait_queue_head *wq_head,
		       struct wait_queue_entry *wq_entry);
void prepare_to_wait(struct wait_queue_head *wq_head,
		     struct wait_queue_entry *wq_entry, unsigned int state);
void finish_wait(struct wait_queue_head *wq_head,
		 struct wait_queue_entry *wq_entry);
/* Wake waiters; at most nr_exclusive exclusive ones (0 = all). Returns
 * the number of tasks woken. */
int __wake_up(struct wait_queue_head *wq_head, unsigned int mode,
	      int nr_exclusive, void *key);

#define wake_up(wq)		__wake_up(wq, TASK_NORMAL, 1, NULL)
#define wake_up_all(wq)		__wake_up(wq, TASK_NORMAL, 0, NULL)

/* Sleep until cond holds. The cooperative kernel has no lost wake-up
 * window: nothing runs between the check and schedule(). */
#define wait_event(wq_head, cond)					\
do {									\
	struct wait_queue_entry __wq_entry;				\
									\
	if (cond)							\
		break;							\
	init_wait_entry(&__wq_entry, 0);				\
	for (;;) {							\
		prepare_to_wait(&(wq_head), &__wq_entry,		\
				TASK_UNINTERRUPTIBLE);			\
		if (cond)						\
			break;						\
		schedule();						\
	}								\
	finish_wait(&(wq_head), &__wq_entry);				\
} while (0)

/* ---- scheduler ---- */

/* Create one scheduler instance: a run queue plus the driver task that
 * stands for the caller. NULL when out of memory. */
struct rq *sched_create(void);
/* Free the instance and every task still on it (blocked or never run). */
void sched_destroy(struct rq *rq);
/* The caller becomes rq's driver task (current = driver) ... */
void sched_enter(struct rq *rq);
/* ... and stops being a task again. Only while the driver is current. */
void sched_leave(struct rq *rq);
/*
 * Driver side: sleep until done(arg) is true, letting the threads run,
 * then until every thread has blocked again (sched_driver_settle).
 * Returns 0, or -EPROTO if the instance stalled (nothing runnable, no
 * timer pending: a lost wake-up in the workload). Between sched_enter()
 * and sched_leave() only.
 */
int sched_driver_wait(struct rq *rq, struct wait_queue_head *wq,
		       bool (*done)(void *arg), void *arg);
/* Yield to the threads until none of them is runnable. 0 or -EPROTO. */
int sched_driver_settle(struct rq *rq);
/*
 * Driver side, at teardown (outside sched_enter()): set *stop, wake the
 * threads with wake(arg) and let them run to their end, so none is left
 * mid-operation when the instance is destroyed. Does nothing for no
 * instance, or one that failed: its threads must not run again.
 */
void sched_driver_stop(struct rq *rq, bool *stop, void (*wake)(void *arg),
		       void *arg);

/* What went wrong with an instance, or NULL. */
const char *sched_error(const struct rq *rq);

struct task *kthread_create(struct rq *rq, void (*fn)(void *arg), void *arg,
			    const char *name, int nice);
void wake_up_new_task(struct task *p);
void __noreturn kthread_exit(void);

void schedule(void);
/* Give up the CPU to the next task in line, even if we are leftmost. */
void yield(void);
int wake_up_process(struct task *p);
int try_to_wake_up(struct task *p, unsigned int state, int wake_flags);

static inline bool need_resched(void)
{
	return unlikely(current->flags & TIF_NEED_RESCHED);
}

/* A preemption point: the only places a woken task can take the CPU. */
static inline void cond_resched(void)
{
	if (need_resched())
		schedule();
}

static inline void set_current_state(unsigned int state)
{
	current->state = state;
}

/* The virtual clock: advanced per context switch by the scheduler and by
 * workloads for the work they model. Never a real time source, so every
 * compiler variant makes the same scheduling decisions. */
u64 sched_clock(void);
void sched_clock_advance(u64 ns);

/* Sleep for a number of timer ticks; returns ticks left if woken early. */
long schedule_timeout(long ticks);
void sched_sleep_ns(u64 ns);

/* Scheduler statistics of an instance (deterministic: fold-safe). */
struct sched_stats {
	u64 nr_switches;
	u64 nr_wakeups;
	u64 nr_preempt;		/* wake-ups that asked for a switch */
	u64 nr_timers;		/* timers fired */
	u64 nr_idle;		/* idle entries that skipped the clock */
	u64 clock;
	u64 min_vruntime;
};
void sched_get_stats(const struct rq *rq, struct sched_stats *st);

/* ---- pipes: a byte ring between threads, on two wait queues ---- */

struct pipe {
	u8 *buf;
	u32 size;			/* power of two */
	u32 head;			/* write position, free-running */
	u32 tail;			/* read position, free-running */
	bool closed;			/* no more writes: readers get EOF */
	struct wait_queue_head rd_wait;
	struct wait_queue_head wr_wait;
	u64 bytes_written;
	u64 bytes_read;
};

int pipe_init(struct pipe *p, u32 size);
void pipe_release(struct pipe *p);
void pipe_close(struct pipe *p);
/* Write all len bytes, sleeping while the ring is full; -EPIPE-like
 * -ECONNRESET if closed. */
ssize_t pipe_write(struct pipe *p, const void *buf, size_t len);
/* Read 1..len bytes, sleeping while empty; 0 at end of file. */
ssize_t pipe_read(struct pipe *p, void *buf, size_t len);

#endif
