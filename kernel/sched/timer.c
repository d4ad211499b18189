/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Hierarchical timer wheel on the virtual clock, and sleeping on it. */
#include "sched.h"

/*
 * Level l has TW_SIZE slots of 2^(TW_BITS*l) ticks each. A timer sits in
 * the lowest level whose range covers its distance from 'now'; when
 * level 0 wraps, the next higher slot is "cascaded": its timers are
 * re-filed, now close enough for a lower level. Adding and deleting are
 * O(1); only cascades touch a timer again.
 */
#define TW_MASK		(TW_SIZE - 1)

static inline u32 tw_index(u32 expires, int level)
{
	return (expires >> (TW_BITS * level)) & TW_MASK;
}

void timer_wheel_init(struct timer_wheel *wheel, u32 now)
{
	int l, i;

	wheel->now = now;
	wheel->nr_pending = 0;
	for (l = 0; l < TW_LEVELS; l++)
		for (i = 0; i < TW_SIZE; i++)
			INIT_LIST_HEAD(&wheel->vec[l][i]);
}

void timer_setup(struct timer_list *timer,
		 void (*function)(struct timer_list *timer))
{
	timer->entry.next = NULL;
	timer->entry.prev = NULL;
	timer->expires = 0;
	timer->function = function;
}

static struct list_head *tw_slot(struct timer_wheel *wheel,
				 struct timer_list *timer)
{
	u32 delta = timer->expires - wheel->now;
	int level;

	/* Already due: the next tick processed fires it. */
	if ((s32)delta < 0)
		return &wheel->vec[0][wheel->now & TW_MASK];
	if (unlikely(delta > TW_MAX_DELTA)) {
		timer->expires = wheel->now + TW_MAX_DELTA;
		delta = TW_MAX_DELTA;
	}
	for (level = 0; level < TW_LEVELS - 1; level++)
		if (delta < (1U << (TW_BITS * (level + 1))))
			break;
	return &wheel->vec[level][tw_index(timer->expires, level)];
}

void timer_add(struct timer_wheel *wheel, struct timer_list *timer,
	       u32 expires)
{
	if (timer_pending(timer))
		timer_del(wheel, timer);
	timer->expires = expires;
	list_add_tail(&timer->entry, tw_slot(wheel, timer));
	wheel->nr_pending++;
}

int timer_del(struct timer_wheel *wheel, struct timer_list *timer)
{
	if (!timer_pending(timer))
		return 0;
	list_del(&timer->entry);
	timer->entry.next = NULL;
	wheel->nr_pending--;
	return 1;
}

/* Re-file the timers of the slots that come due at tick t. */
static void tw_cascade(struct timer_wheel *wheel, u32 t)
{
	struct list_head *slot, *pos, *n;
	struct timer_list *timer;
	int level;

	for (level = 1; level < TW_LEVELS; level++) {
		u32 idx = tw_index(t, level);

		slot = &wheel->vec[level][idx];
		list_for_each_safe(pos, n, slot) {
			timer = list_entry(pos, struct timer_list, entry);
			list_del(pos);
			list_add_tail(pos, tw_slot(wheel, timer));
		}
		/* A higher level is due only when this one wrapped too. */
		if (idx)
			break;
	}
}

/* Process one tick: cascade if level 0 wrapped, then fire its slot. */
static unsigned int tw_run_tick(struct timer_wheel *wheel)
{
	u32 t = wheel->now;
	struct list_head due, *slot = &wheel->vec[0][t & TW_MASK];
	struct timer_list *timer;
	unsigned int fired = 0;

	if (!(t & TW_MASK))
		tw_cascade(wheel, t);
	if (list_empty(slot)) {
		wheel->now = t + 1;
		return 0;
	}
	/* Detach the slot first: a handler may re-arm into it. */
	due.next = slot->next;
	due.prev = slot->prev;
	due.next->prev = &due;
	due.prev->next = &due;
	INIT_LIST_HEAD(slot);
	wheel->now = t + 1;
	while (!list_empty(&due)) {
		timer = list_first_entry(&due, struct timer_list, entry);
		list_del(&timer->entry);
		timer->entry.next = NULL;
		wheel->nr_pending--;
		timer->function(timer);
		fired++;
	}
	return fired;
}

unsigned int timer_wheel_run(struct timer_wheel *wheel, u32 until)
{
	unsigned int fired = 0;

	while (time_after_eq32(until, wheel->now)) {
		/* An empty wheel has nothing to cascade: skip ahead. */
		if (likely(!wheel->nr_pending)) {
			wheel->now = until + 1;
			break;
		}
		fired += tw_run_tick(wheel);
	}
	return fired;
}

/* Only the idle path asks, so a full scan is fine. */
bool timer_wheel_next(const struct timer_wheel *wheel, u32 *expires)
{
	const struct list_head *pos;
	const struct timer_list *timer;
	bool found = false;
	u32 best = 0;
	int l, i;

	if (!wheel->nr_pending)
		return false;
	for (l = 0; l < TW_LEVELS; l++) {
		for (i = 0; i < TW_SIZE; i++) {
			list_for_each(pos, &wheel->vec[l][i]) {
				timer = list_entry(pos, struct timer_list, entry);
				if (!found || (s32)(timer->expires - best) < 0)
					best = timer->expires;
				found = true;
			}
		}
	}
	/* An overdue timer is due at the next processed tick. */
	if (found && (s32)(best - wheel->now) < 0)
		best = wheel->now;
	*expires = best;
	return found;
}

void sched_timer_tick(struct rq *rq)
{
	rq->stats.nr_timers += timer_wheel_run(&rq->wheel, rq_ticks(rq));
}

static void process_timeout(struct timer_list *timer)
{
	wake_up_process(container_of(timer, struct task, timer));
}

long schedule_timeout(long ticks)
{
	struct task *p = current;
	struct rq *rq = p->rq;
	u32 expires;
	s32 left;

	if (ticks > (long)TW_MAX_DELTA)
		ticks = TW_MAX_DELTA;
	if (ticks < 0)
		ticks = 0;
	expires = rq_ticks(rq) + (u32)ticks;
	p->timer.function = process_timeout;
	timer_add(&rq->wheel, &p->timer, expires);
	schedule();
	timer_del(&rq->wheel, &p->timer);
	left = (s32)(expires - rq_ticks(rq));
	return left > 0 ? left : 0;
}

void sched_sleep_ns(u64 ns)
{
	/* One tick more than rounding up: the current tick is already
	 * partly gone, and a sleep must never end early. */
	u64 ticks = ((ns + (1ULL << TIMER_TICK_SHIFT) - 1) >>
		     TIMER_TICK_SHIFT) + 1;

	set_current_state(TASK_UNINTERRUPTIBLE);
	schedule_timeout(ticks > TW_MAX_DELTA ? TW_MAX_DELTA : (long)ticks);
}
