/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel thread life cycle and scheduler instances (the driver task). */
#include <kfront/errno.h>
#include <kfront/slab.h>
#include <kfront/string.h>
#include "sched.h"

static void task_init(struct rq *rq, struct task *p, const char *name,
		      int nice)
{
	size_t len = strnlen(name, TASK_COMM_LEN - 1);

	memcpy(p->comm, name, len);
	p->comm[len] = '\0';
	p->rq = rq;
	p->pid = rq->next_pid++;
	p->sched_class = &fair_sched_class;
	sched_set_weight(p, nice);
	timer_setup(&p->timer, NULL);
	INIT_LIST_HEAD(&p->tasks);
	p->sched_class->task_new(rq, p);
}

/* First code a new thread runs, entered from ret_from_kthread. */
static void __noreturn kthread_entry(struct task *prev)
{
	struct task *self;

	/* Finish the switch that brought us here, as schedule() would. */
	finish_task_switch(prev);
	self = current;
	self->fn(self->arg);
	kthread_exit();
}

void put_task_struct(struct task *p)
{
	list_del(&p->tasks);
	kfree(p->stack);
	kfree(p);
}

struct task *kthread_create(struct rq *rq, void (*fn)(void *arg), void *arg,
			    const char *name, int nice)
{
	struct kthread_frame *frame;
	struct task *p;
	unsigned long top;

	p = kzalloc(sizeof(*p));
	if (unlikely(!p))
		return NULL;
	p->stack = kmalloc(THREAD_SIZE);
	if (unlikely(!p->stack)) {
		kfree(p);
		return NULL;
	}
	*(u64 *)p->stack = STACK_END_MAGIC;
	task_init(rq, p, name, nice);
	p->state = TASK_NEW;
	p->flags = PF_KTHREAD;
	p->fn = fn;
	p->arg = arg;
	list_add_tail(&p->tasks, &rq->tasks);

	/* ret_from_kthread realigns rsp to 16 before calling the entry. */
	top = ALIGN_DOWN((unsigned long)p->stack + THREAD_SIZE, 16);
	frame = (struct kthread_frame *)(top - sizeof(*frame) - 8);
	memset(frame, 0, sizeof(*frame));
	frame->r12 = (unsigned long)kthread_entry;
	frame->rbx = (unsigned long)p;
	frame->ret_addr = (unsigned long)ret_from_kthread;
	p->thread.sp = (unsigned long)frame;
	return p;
}

void wake_up_new_task(struct task *p)
{
	struct rq *rq = p->rq;

	rq_lock(rq);
	p->state = TASK_RUNNING;
	p->sched_class->task_new(rq, p);
	activate_task(rq, p, ENQUEUE_NEW);
	p->sched_class->check_preempt_curr(rq, p, 0);
	rq_unlock(rq);
}

void __noreturn kthread_exit(void)
{
	struct task *self = current;

	timer_del(&self->rq->wheel, &self->timer);
	self->state = TASK_DEAD;
	schedule();
	/* A dead task is never picked again. */
	__builtin_unreachable();
}

struct rq *sched_create(void)
{
	struct rq *rq = kzalloc(sizeof(*rq));
	struct task *h;

	if (unlikely(!rq))
		return NULL;
	h = kzalloc(sizeof(*h));
	if (unlikely(!h)) {
		kfree(rq);
		return NULL;
	}
	rq->tasks_timeline = RB_ROOT_CACHED;
	INIT_LIST_HEAD(&rq->tasks);
	timer_wheel_init(&rq->wheel, 0);
	rq->next_pid = 1;

	/* The driver task is running (it is whoever calls run()), so it
	 * starts as curr and counts as runnable. */
	task_init(rq, h, "driver", 0);
	h->flags = PF_DRIVER;
	h->state = TASK_RUNNING;
	rq->driver = h;
	rq->curr = h;
	activate_task(rq, h, ENQUEUE_NEW);
	return rq;
}

void sched_destroy(struct rq *rq)
{
	struct list_head *pos, *n;

	if (!rq)
		return;
	/* Threads that never finished are dropped where they sleep: nothing
	 * outside the instance points at their stacks. */
	list_for_each_safe(pos, n, &rq->tasks)
		put_task_struct(list_entry(pos, struct task, tasks));
	kfree(rq->driver);
	kfree(rq);
}

void sched_enter(struct rq *rq)
{
	struct task *h = rq->driver;

	h->se.exec_start = rq->clock;
	__current_task = h;
}

void sched_leave(struct rq *rq)
{
	__current_task = NULL;
}

/*
 * Yield until every thread has blocked, so a run ends in the same state
 * whatever order the last wake-ups came in.
 */
int sched_driver_settle(struct rq *rq)
{
	while (rq->nr_running > 1 && likely(!rq->error))
		yield();
	return rq->error ? -EPROTO : 0;
}

void sched_driver_stop(struct rq *rq, bool *stop, void (*wake)(void *arg),
		       void *arg)
{
	if (!rq || sched_error(rq))
		return;
	sched_enter(rq);
	*stop = true;
	wake(arg);
	sched_driver_settle(rq);
	sched_leave(rq);
}

int sched_driver_wait(struct rq *rq, struct wait_queue_head *wq,
		       bool (*done)(void *arg), void *arg)
{
	struct wait_queue_entry wait;
	int ret = 0;

	init_wait_entry(&wait, 0);
	for (;;) {
		prepare_to_wait(wq, &wait, TASK_UNINTERRUPTIBLE);
		if (done(arg))
			break;
		if (unlikely(rq->error)) {
			ret = -EPROTO;
			break;
		}
		schedule();
	}
	finish_wait(wq, &wait);
	return ret ? ret : sched_driver_settle(rq);
}
