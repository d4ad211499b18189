/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of the scheduler core: the NASM context switch, vruntime
 * ordering, weights, wake-up preemption, wait queues, timers, sleeps. */
#include <stdlib.h>
#include <string.h>
#include <kfront/errno.h>
#include "../../kernel/sched/sched.h"
#include "check.h"

/* ---- context switch: two threads and the driver take turns ---- */

static char trace[64];
static int trace_len;
static struct wait_queue_head turn_wq;
static int turn;

struct turn_arg {
	int me;
	char tag;
	int rounds;
};

static void turn_thread(void *arg)
{
	struct turn_arg *a = arg;
	char buf[32];
	int i;

	for (i = 0; i < a->rounds; i++) {
		wait_event(turn_wq, turn == a->me);
		/* Varargs with a double: misaligned stacks fault in movaps. */
		snprintf(buf, sizeof(buf), "%c%.1f", a->tag, (double)i / 2);
		trace[trace_len++] = buf[0];
		turn = (turn + 1) % 3;
		wake_up_all(&turn_wq);
	}
}

static bool turns_done(void *arg)
{
	return *(int *)arg == 0 && turn == 2;
}

static void test_switch(void)
{
	struct turn_arg a = { 0, 'a', 3 }, b = { 1, 'b', 3 };
	struct rq *rq = sched_create();
	struct task *ta, *tb;
	int remaining = 0, ret;

	init_waitqueue_head(&turn_wq);
	trace_len = 0;
	turn = 0;
	ta = kthread_create(rq, turn_thread, &a, "a", 0);
	tb = kthread_create(rq, turn_thread, &b, "b", 0);
	CHECK(ta && tb);
	CHECK(ta->pid != tb->pid);
	CHECK_STR(ta->comm, "a");
	wake_up_new_task(ta);
	wake_up_new_task(tb);
	sched_enter(rq);
	/* The driver is the third in the ring; it takes its turns here. */
	for (int r = 0; r < 3; r++) {
		ret = sched_driver_wait(rq, &turn_wq, turns_done, &remaining);
		CHECK(ret == 0);
		trace[trace_len++] = 'h';
		turn = 0;
		wake_up_all(&turn_wq);
	}
	ret = sched_driver_settle(rq);
	sched_leave(rq);
	CHECK(ret == 0);
	trace[trace_len] = '\0';
	CHECK_STR(trace, "abhabhabh");
	/* Both threads returned from their function and were reaped. */
	CHECK(list_empty(&rq->tasks));
	CHECK(rq->nr_running == 1);
	CHECK(rq->stats.nr_switches >= 8);
	sched_destroy(rq);
}

/* ---- run queue ordering ---- */

static void test_rq_order(void)
{
	static const u64 vr[] = { 500, 100, 900, 100, 300, 700, 200 };
	/* Equal keys keep insertion order (FIFO). */
	static const int order[] = { 1, 3, 6, 4, 0, 5, 2 };
	struct task *t[ARRAY_SIZE(vr)];
	struct rq *rq = sched_create();
	struct rb_node *n;
	unsigned int i = 0;

	sched_enter(rq);
	rq->min_vruntime = 0;
	for (i = 0; i < ARRAY_SIZE(vr); i++) {
		t[i] = kthread_create(rq, NULL, NULL, "q", 0);
		t[i]->state = TASK_RUNNING;
		t[i]->se.vruntime = vr[i];
		activate_task(rq, t[i], 0);
	}
	CHECK(rq->nr_running == ARRAY_SIZE(vr) + 1);
	i = 0;
	for (n = rb_first_cached(&rq->tasks_timeline); n; n = rb_next(n), i++)
		CHECK(n == &t[order[i]]->se.run_node);
	CHECK(i == ARRAY_SIZE(vr));
	/* The driver (curr) is outside the tree; picking takes the leftmost. */
	rq->driver->se.vruntime = 10000;
	{
		struct task *p = fair_sched_class.pick_next_task(rq, rq->driver);

		CHECK(p == t[1]);
		/* Picked entities leave the tree. */
		CHECK(RB_EMPTY_NODE(&p->se.run_node));
		CHECK(rb_first_cached(&rq->tasks_timeline) ==
		      &t[3]->se.run_node);
	}
	sched_leave(rq);
	sched_destroy(rq);
}

/* ---- weights: CPU-bound threads share by weight ---- */

static u64 spins[2];
static bool spin_stop;

static void spin_thread(void *arg)
{
	u64 *count = arg;

	while (!spin_stop) {
		sched_clock_advance(10000);
		(*count)++;
		schedule();	/* still runnable: a pure vruntime decision */
	}
}

static void test_weights(void)
{
	struct rq *rq = sched_create();
	struct task *a, *b;
	int i;

	spins[0] = spins[1] = 0;
	spin_stop = false;
	a = kthread_create(rq, spin_thread, &spins[0], "nice0", 0);
	b = kthread_create(rq, spin_thread, &spins[1], "nice5", 5);
	CHECK(a->se.weight == 1024 && b->se.weight == 336);
	wake_up_new_task(a);
	wake_up_new_task(b);
	sched_enter(rq);
	/* The driver yields: the spinners compete by vruntime. */
	for (i = 0; i < 4000; i++)
		yield();
	spin_stop = true;
	CHECK(sched_driver_settle(rq) == 0);
	sched_leave(rq);
	/* 1024 / 336 = 3.05; allow for the driver's share and rounding. */
	CHECK(spins[0] * 100 > spins[1] * 280 && spins[0] * 100 < spins[1] * 330);
	sched_destroy(rq);
}

/* ---- wake-up preemption ---- */

static void test_preempt(void)
{
	struct rq *rq = sched_create();
	struct task *near, *far, *heavy;
	u64 base = 1000000;

	sched_enter(rq);
	rq->min_vruntime = base;
	rq->driver->se.vruntime = base + 10000;
	near = kthread_create(rq, NULL, NULL, "near", 0);
	far = kthread_create(rq, NULL, NULL, "far", 0);
	heavy = kthread_create(rq, NULL, NULL, "heavy", -10);
	near->state = far->state = heavy->state = TASK_INTERRUPTIBLE;
	near->se.vruntime = base + 10000 - SCHED_WAKEUP_GRAN_NS + 1000;
	far->se.vruntime = base + 10000 - SCHED_WAKEUP_GRAN_NS - 1000;
	/* A heavy task's granularity shrinks: 3000 ns behind is enough. */
	heavy->se.vruntime = base + 10000 - 3000;

	CHECK(try_to_wake_up(near, TASK_NORMAL, 0) == 1);
	CHECK(!(rq->driver->flags & TIF_NEED_RESCHED));
	CHECK(near->se.on_rq && near->state == TASK_RUNNING);
	CHECK(try_to_wake_up(near, TASK_NORMAL, 0) == 0);	/* already awake */
	CHECK(try_to_wake_up(far, TASK_NORMAL, 0) == 1);
	CHECK(rq->driver->flags & TIF_NEED_RESCHED);
	rq->driver->flags &= ~TIF_NEED_RESCHED;
	CHECK(try_to_wake_up(heavy, TASK_NORMAL, 0) == 1);
	CHECK(rq->driver->flags & TIF_NEED_RESCHED);
	rq->driver->flags &= ~TIF_NEED_RESCHED;
	CHECK(rq->stats.nr_preempt == 2);

	/* A long sleeper is placed at most half a latency behind. */
	far->state = TASK_INTERRUPTIBLE;
	deactivate_task(rq, far, DEQUEUE_SLEEP);
	far->se.vruntime = 0;
	wake_up_process(far);
	CHECK(far->se.vruntime == rq->min_vruntime - SCHED_LATENCY_NS / 2);
	sched_leave(rq);
	sched_destroy(rq);
}

/* ---- wait queues ---- */

static int wake_calls[4];

static int counting_wake(struct wait_queue_entry *e, unsigned int mode,
			 int flags, void *key)
{
	wake_calls[e - (struct wait_queue_entry *)key]++;
	return 1;
}

static void test_waitqueue_entries(void)
{
	struct wait_queue_entry e[4];
	struct wait_queue_head wq;
	int i;

	init_waitqueue_head(&wq);
	memset(wake_calls, 0, sizeof(wake_calls));
	for (i = 0; i < 4; i++) {
		init_waitqueue_entry(&e[i], NULL);
		e[i].func = counting_wake;
	}
	add_wait_queue_exclusive(&wq, &e[0]);
	add_wait_queue_exclusive(&wq, &e[1]);
	add_wait_queue(&wq, &e[2]);
	add_wait_queue(&wq, &e[3]);
	/* Every non-exclusive waiter, then exactly one exclusive one. */
	CHECK(__wake_up(&wq, TASK_NORMAL, 1, e) == 3);
	CHECK(wake_calls[0] == 1 && wake_calls[1] == 0);
	CHECK(wake_calls[2] == 1 && wake_calls[3] == 1);
	CHECK(__wake_up(&wq, TASK_NORMAL, 0, e) == 4);
	CHECK(wake_calls[1] == 1);
	remove_wait_queue(&wq, &e[2]);
	remove_wait_queue(&wq, &e[3]);
	remove_wait_queue(&wq, &e[0]);
	CHECK(waitqueue_active(&wq));
	remove_wait_queue(&wq, &e[1]);
	CHECK(!waitqueue_active(&wq));
}

static struct wait_queue_head ev_wq;
static int ev_value, ev_woke;

static void waiter_thread(void *arg)
{
	int want = *(int *)arg;

	wait_event(ev_wq, ev_value >= want);
	ev_woke++;
}

static bool all_woke(void *arg)
{
	return ev_woke == *(int *)arg;
}

static void test_wait_event(void)
{
	static int wants[3] = { 1, 2, 3 };
	struct rq *rq = sched_create();
	int i, three = 3;

	init_waitqueue_head(&ev_wq);
	ev_value = ev_woke = 0;
	for (i = 0; i < 3; i++)
		wake_up_new_task(kthread_create(rq, waiter_thread, &wants[i],
						"w", 0));
	sched_enter(rq);
	CHECK(sched_driver_settle(rq) == 0);
	CHECK(rq->nr_running == 1 && ev_woke == 0);
	ev_value = 2;
	wake_up_all(&ev_wq);
	CHECK(sched_driver_settle(rq) == 0);
	CHECK(ev_woke == 2);
	ev_value = 3;
	wake_up(&ev_wq);
	CHECK(sched_driver_settle(rq) == 0);
	CHECK(all_woke(&three));
	sched_leave(rq);
	CHECK(list_empty(&rq->tasks));
	sched_destroy(rq);
}

/* A thread that waits forever: the driver must get an error, not hang,
 * and destroying the instance must free the sleeper. */
static bool never(void *arg)
{
	return false;
}

static void test_stall(void)
{
	static int forever = 1000;
	struct rq *rq = sched_create();
	int ret;

	init_waitqueue_head(&ev_wq);
	ev_value = 0;
	wake_up_new_task(kthread_create(rq, waiter_thread, &forever, "w", 0));
	sched_enter(rq);
	ret = sched_driver_wait(rq, &ev_wq, never, NULL);
	sched_leave(rq);
	CHECK(ret == -EPROTO);
	CHECK(sched_error(rq) != NULL);
	sched_destroy(rq);
}

/* ---- timer wheel against a reference ---- */

#define NR_TIMERS	600

struct ref_timer {
	struct timer_list t;
	u32 expires;
	bool armed;
	bool fired;
	u32 fired_until;
};

static struct ref_timer rt[NR_TIMERS];
static u32 run_until;

static void ref_fire(struct timer_list *t)
{
	struct ref_timer *r = container_of(t, struct ref_timer, t);

	r->fired = true;
	r->fired_until = run_until;
}

static u32 rand_delta(void)
{
	switch (rand() % 4) {
	case 0:
		return rand() % 64;			/* level 0 */
	case 1:
		return rand() % 4096;			/* level 1 */
	case 2:
		return rand() % (1 << 18);		/* level 2 */
	default:
		return rand() % (1 << 22);		/* level 3 */
	}
}

/* After running up to 'until', exactly the timers due by then fired,
 * each in the first run that covered its expiry. */
static int check_timers(u32 prev_until, u32 until)
{
	int i, bad = 0;

	for (i = 0; i < NR_TIMERS; i++) {
		struct ref_timer *r = &rt[i];

		if (!r->armed)
			continue;
		if (r->fired != time_after_eq32(until, r->expires))
			bad++;
		else if (r->fired && r->fired_until == until &&
			 time_after_eq32(prev_until, r->expires))
			bad++;
	}
	return bad;
}

static void test_timer_wheel(u32 start, unsigned int seed)
{
	struct timer_wheel *w = malloc(sizeof(*w));
	u32 until = start - 1, prev, next;
	int i, step, bad = 0, fired_total = 0;

	srand(seed);
	timer_wheel_init(w, start);
	CHECK(!timer_wheel_next(w, &next));
	for (i = 0; i < NR_TIMERS; i++) {
		timer_setup(&rt[i].t, ref_fire);
		rt[i].expires = start + rand_delta();
		rt[i].armed = true;
		rt[i].fired = false;
		timer_add(w, &rt[i].t, rt[i].expires);
	}
	/* A few deletions and re-arms before anything runs. */
	for (i = 0; i < NR_TIMERS; i += 7) {
		CHECK(timer_del(w, &rt[i].t) == 1);
		rt[i].armed = false;
	}
	CHECK(w->nr_pending == NR_TIMERS - (NR_TIMERS + 6) / 7);
	for (step = 0; w->nr_pending && step < 100000; step++) {
		u32 min = 0;
		bool have = false;

		for (i = 0; i < NR_TIMERS; i++)
			if (rt[i].armed && !rt[i].fired &&
			    (!have || time_after32(min, rt[i].expires))) {
				min = rt[i].expires;
				have = true;
			}
		CHECK(timer_wheel_next(w, &next) == have);
		if (have && next != min && bad++ < 3)
			fprintf(stderr, "next %u, reference %u\n", next, min);
		prev = until;
		/* Sometimes step tick by tick, sometimes leap to the next. */
		until += (rand() % 3) ? 1 + rand() % 5000 : 1 + rand() % 70;
		run_until = until;
		fired_total += timer_wheel_run(w, until);
		if (check_timers(prev, until) && bad++ < 3)
			fprintf(stderr, "wheel from %u: wrong set at %u\n",
				start, until);
		/* Re-arm a fired timer now and then: re-adds mid-flight. */
		i = rand() % NR_TIMERS;
		if (step < 2000 && rt[i].armed && rt[i].fired) {
			rt[i].fired = false;
			rt[i].expires = until + 1 + rand_delta();
			timer_add(w, &rt[i].t, rt[i].expires);
			fired_total--;
		}
	}
	CHECK(bad == 0);
	CHECK(w->nr_pending == 0);
	for (i = 0, step = 0; i < NR_TIMERS; i++)
		step += rt[i].armed;
	CHECK(fired_total == step);
	free(w);
}

/* Expiries too far out are clamped to the wheel's reach, and an overdue
 * expiry fires at the next tick. */
static void test_timer_edges(void)
{
	struct timer_wheel *w = malloc(sizeof(*w));
	struct ref_timer *far = &rt[0], *late = &rt[1];

	timer_wheel_init(w, 100);
	timer_setup(&far->t, ref_fire);
	timer_setup(&late->t, ref_fire);
	far->fired = late->fired = false;
	timer_add(w, &far->t, 100 + TW_MAX_DELTA + 5000);
	CHECK(far->t.expires == 100 + TW_MAX_DELTA);
	timer_add(w, &late->t, 50);
	run_until = 100;
	CHECK(timer_wheel_run(w, 100) == 1 && late->fired);
	CHECK(timer_wheel_run(w, 100 + TW_MAX_DELTA - 1) == 0);
	CHECK(timer_wheel_run(w, 100 + TW_MAX_DELTA) == 1 && far->fired);
	CHECK(w->nr_pending == 0);
	free(w);
}

/* ---- sleeping: the idle path jumps the clock to the next timer ---- */

static u32 sleep_order[4];
static int sleep_done;

struct sleeper {
	u32 id;
	u64 ns;
	u64 woke_at;
};

static void sleep_thread(void *arg)
{
	struct sleeper *s = arg;
	u64 start = sched_clock();

	sched_sleep_ns(s->ns);
	s->woke_at = sched_clock() - start;
	sleep_order[sleep_done++] = s->id;
}

static bool sleepers_done(void *arg)
{
	return sleep_done == 4;
}

static void test_sleep(void)
{
	static struct sleeper s[4] = {
		{ 0, 5000000, 0 }, { 1, 3000, 0 }, { 2, 200000, 0 },
		{ 3, 90000000, 0 },
	};
	struct rq *rq = sched_create();
	struct wait_queue_head never_woken;
	int i;

	sleep_done = 0;
	init_waitqueue_head(&never_woken);
	rq->clock = 0xfffff000ULL << TIMER_TICK_SHIFT;	/* ticks wrap soon */
	rq->wheel.now = rq_ticks(rq);
	for (i = 0; i < 4; i++)
		wake_up_new_task(kthread_create(rq, sleep_thread, &s[i], "z", 0));
	sched_enter(rq);
	/* The driver sleeps too, on a queue only the timers' effects
	 * end: it is woken by nobody, so only sleepers_done can end it. */
	CHECK(sched_driver_wait(rq, &never_woken, sleepers_done, NULL) ==
	      -EPROTO);
	sched_leave(rq);
	/* Without a waker the stall path returned control; by then every
	 * sleeper had woken, in order of its deadline. */
	CHECK(sleep_done == 4);
	CHECK(sleep_order[0] == 1 && sleep_order[1] == 2 &&
	      sleep_order[2] == 0 && sleep_order[3] == 3);
	for (i = 0; i < 4; i++)
		CHECK(s[i].woke_at >= s[i].ns &&
		      s[i].woke_at < s[i].ns + 4 * (1 << TIMER_TICK_SHIFT) +
				     8 * SCHED_SWITCH_COST_NS);
	CHECK(rq->stats.nr_timers == 4);
	CHECK(rq->stats.nr_idle >= 3);
	sched_destroy(rq);
}

int main(void)
{
	test_switch();
	test_rq_order();
	test_weights();
	test_preempt();
	test_waitqueue_entries();
	test_wait_event();
	test_stall();
	test_timer_wheel(0, 1);
	test_timer_wheel(0xffffff00u, 2);	/* u32 tick wrap */
	test_timer_wheel(0x7fffff00u, 3);	/* sign boundary */
	test_timer_edges();
	test_sleep();
	return check_report("test_sched");
}
