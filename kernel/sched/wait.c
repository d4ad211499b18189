/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Wait queues: tasks sleep on a head, wakers call each entry's function. */
#include "sched.h"

void add_wait_queue(struct wait_queue_head *wq_head,
		    struct wait_queue_entry *wq_entry)
{
	wq_entry->flags &= ~WQ_FLAG_EXCLUSIVE;
	list_add(&wq_entry->entry, &wq_head->head);
}

/* Exclusive waiters queue at the tail, behind every non-exclusive one,
 * so a wake-up that stops after one exclusive waiter still wakes all
 * the others. */
void add_wait_queue_exclusive(struct wait_queue_head *wq_head,
			      struct wait_queue_entry *wq_entry)
{
	wq_entry->flags |= WQ_FLAG_EXCLUSIVE;
	list_add_tail(&wq_entry->entry, &wq_head->head);
}

void remove_wait_queue(struct wait_queue_head *wq_head,
		       struct wait_queue_entry *wq_entry)
{
	list_del(&wq_entry->entry);
}

void prepare_to_wait(struct wait_queue_head *wq_head,
		     struct wait_queue_entry *wq_entry, unsigned int state)
{
	wq_entry->flags &= ~WQ_FLAG_EXCLUSIVE;
	if (list_empty(&wq_entry->entry))
		list_add(&wq_entry->entry, &wq_head->head);
	set_current_state(state);
}

void finish_wait(struct wait_queue_head *wq_head,
		 struct wait_queue_entry *wq_entry)
{
	set_current_state(TASK_RUNNING);
	/* The autoremove waker already unlinked us if it ran. */
	if (!list_empty(&wq_entry->entry))
		list_del(&wq_entry->entry);
}

int default_wake_function(struct wait_queue_entry *wq_entry, unsigned int mode,
			  int wake_flags, void *key)
{
	return try_to_wake_up(wq_entry->task, mode, wake_flags);
}

int autoremove_wake_function(struct wait_queue_entry *wq_entry,
			     unsigned int mode, int wake_flags, void *key)
{
	int ret = default_wake_function(wq_entry, mode, wake_flags, key);

	if (ret)
		list_del(&wq_entry->entry);
	return ret;
}

int __wake_up(struct wait_queue_head *wq_head, unsigned int mode,
	      int nr_exclusive, void *key)
{
	struct list_head *pos, *n;
	int woken = 0;

	list_for_each_safe(pos, n, &wq_head->head) {
		struct wait_queue_entry *curr;
		unsigned int flags;
		int ret;

		curr = list_entry(pos, struct wait_queue_entry, entry);
		flags = curr->flags;
		ret = curr->func(curr, mode, 0, key);
		if (unlikely(ret < 0))
			break;
		if (!ret)
			continue;
		woken++;
		if ((flags & WQ_FLAG_EXCLUSIVE) && !--nr_exclusive)
			break;
	}
	return woken;
}
