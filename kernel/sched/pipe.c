/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Pipes: a small byte ring between kernel threads, built on wait queues. */
#include <kfront/errno.h>
#include <kfront/slab.h>
#include <kfront/string.h>
#include "sched.h"

int pipe_init(struct pipe *p, u32 size)
{
	if (unlikely(size < 8 || (size & (size - 1))))
		return -EINVAL;
	p->buf = kmalloc(size);
	if (unlikely(!p->buf))
		return -ENOMEM;
	p->size = size;
	p->head = 0;
	p->tail = 0;
	p->closed = false;
	p->bytes_written = 0;
	p->bytes_read = 0;
	init_waitqueue_head(&p->rd_wait);
	init_waitqueue_head(&p->wr_wait);
	return 0;
}

void pipe_release(struct pipe *p)
{
	kfree(p->buf);
	p->buf = NULL;
}

void pipe_close(struct pipe *p)
{
	p->closed = true;
	wake_up_all(&p->rd_wait);
	wake_up_all(&p->wr_wait);
}

static inline u32 pipe_used(const struct pipe *p)
{
	return p->head - p->tail;
}

/* Copy n bytes in at head; the ring may wrap once. */
static void pipe_copy_in(struct pipe *p, const u8 *src, u32 n)
{
	u32 off = p->head & (p->size - 1);
	u32 first = min(n, p->size - off);

	memcpy(p->buf + off, src, first);
	if (n > first)
		memcpy(p->buf, src + first, n - first);
	p->head += n;
}

static void pipe_copy_out(struct pipe *p, u8 *dst, u32 n)
{
	u32 off = p->tail & (p->size - 1);
	u32 first = min(n, p->size - off);

	memcpy(dst, p->buf + off, first);
	if (n > first)
		memcpy(dst + first, p->buf, n - first);
	p->tail += n;
}

ssize_t pipe_write(struct pipe *p, const void *buf, size_t len)
{
	const u8 *src = buf;
	size_t done = 0;

	while (done < len) {
		u32 room, n;

		if (unlikely(p->closed))
			return done ? (ssize_t)done : -ECONNRESET;
		room = p->size - pipe_used(p);
		if (unlikely(!room)) {
			/* Full: let the reader drain what is there. */
			wake_up(&p->rd_wait);
			wait_event(p->wr_wait,
				   pipe_used(p) < p->size || p->closed);
			continue;
		}
		n = (u32)min((size_t)room, len - done);
		pipe_copy_in(p, src + done, n);
		done += n;
	}
	p->bytes_written += len;
	wake_up(&p->rd_wait);
	/* The woken reader may deserve the CPU now. */
	cond_resched();
	return len;
}

ssize_t pipe_read(struct pipe *p, void *buf, size_t len)
{
	u32 n;

	if (unlikely(!len))
		return 0;
	wait_event(p->rd_wait, pipe_used(p) || p->closed);
	n = (u32)min((size_t)pipe_used(p), len);
	if (unlikely(!n))
		return 0;	/* closed and drained: end of file */
	pipe_copy_out(p, buf, n);
	p->bytes_read += n;
	wake_up(&p->wr_wait);
	cond_resched();
	return n;
}
