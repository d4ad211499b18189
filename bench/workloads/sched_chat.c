/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched.chat: VolanoMark-like rooms, each message broadcast to the room. */
#include <kfront/bench.h>
#include <kfront/errno.h>
#include <kfront/printk.h>
#include <kfront/sched.h>
#include <kfront/slab.h>
#include <kfront/string.h>

/*
 * Every member has a sender and a receiver thread, as VolanoMark's server
 * has a reader and a writer per connection. A sender broadcasts each of
 * its messages to the other members of its room through their mailboxes;
 * a full mailbox blocks the sender, an empty one its receiver.
 */
#define CHAT_ROOMS		2
#define CHAT_MEMBERS		5
#define CHAT_MAX_MEMBERS	16
#define CHAT_MBOX_SLOTS		8
#define CHAT_TEXT_MAX		40
#define CHAT_SEND_NS		300	/* virtual cost of composing */
#define CHAT_RECV_NS		200	/* virtual cost of displaying */

struct chat_msg {
	u32 room;
	u32 from;
	u64 seq;
	u32 len;
	u32 sum;
	char text[CHAT_TEXT_MAX];
};

struct chat;

struct chat_member {
	struct chat *c;
	u32 room;
	u32 id;				/* index within the room */
	/* mailbox, filled by the room's senders */
	struct chat_msg mbox[CHAT_MBOX_SLOTS];
	u32 head, tail;
	struct wait_queue_head rd_wait;
	struct wait_queue_head wr_wait;
	/* sender side */
	struct chat_msg out;
	u32 next_rcpt;			/* 0: compose a new message */
	u64 sent_seq;
	/* receiver side */
	u64 last_seq[CHAT_MAX_MEMBERS];
	u64 received;
	u64 csum;
};

struct chat {
	struct rq *rq;
	struct chat_member *members;	/* rooms * per_room, room-major */
	u32 rooms;
	u32 per_room;
	u32 live;
	u32 parked;			/* senders done with this run */
	u64 gen;
	u64 budget;			/* deliveries left to start in this run */
	u64 delivered;			/* since setup */
	u64 target;
	u64 bad;
	const char *why;
	bool stop;
	struct wait_queue_head start_wq;
	struct wait_queue_head done_wq;
};

static __cold void chat_bad(struct chat *c, const char *why)
{
	if (!c->bad++)
		c->why = why;
}

static inline struct chat_member *chat_member(struct chat *c, u32 room, u32 id)
{
	return &c->members[room * c->per_room + id];
}

static u32 chat_text(char *text, u32 room, u32 from, u64 seq)
{
	u32 len = 16 + (u32)(seq % (CHAT_TEXT_MAX - 16)), i;

	for (i = 0; i < len; i++)
		text[i] = (char)('a' + (seq * 7 + from * 13 + room + i) % 26);
	return len;
}

static u32 chat_text_sum(const char *text, u32 len)
{
	u32 h = 2166136261u, i;

	for (i = 0; i < len; i++)
		h = (h ^ (u8)text[i]) * 16777619u;
	return h;
}

static void chat_compose(struct chat_member *m)
{
	struct chat_msg *msg = &m->out;

	msg->room = m->room;
	msg->from = m->id;
	msg->seq = ++m->sent_seq;
	msg->len = chat_text(msg->text, m->room, m->id, msg->seq);
	msg->sum = chat_text_sum(msg->text, msg->len);
	sched_clock_advance(CHAT_SEND_NS);
}

/* Copy a message into rcpt's mailbox, sleeping while it is full. */
static void chat_post(struct chat_member *rcpt, const struct chat_msg *msg)
{
	wait_event(rcpt->wr_wait, rcpt->head - rcpt->tail < CHAT_MBOX_SLOTS);
	rcpt->mbox[rcpt->head % CHAT_MBOX_SLOTS] = *msg;
	rcpt->head++;
	wake_up(&rcpt->rd_wait);
	cond_resched();
}

static void chat_sender_fn(void *arg)
{
	struct chat_member *m = arg;
	struct chat *c = m->c;
	u32 others = c->per_room - 1;
	u64 gen = 0;

	for (;;) {
		wait_event(c->start_wq, c->gen != gen || c->stop);
		if (unlikely(c->stop))
			break;
		gen = c->gen;
		/* A broadcast cut short by the budget resumes next run. */
		while (c->budget) {
			u32 to = (m->id + 1 + m->next_rcpt) % c->per_room;

			if (!m->next_rcpt)
				chat_compose(m);
			c->budget--;
			m->next_rcpt = m->next_rcpt + 1 == others ?
				       0 : m->next_rcpt + 1;
			chat_post(chat_member(c, m->room, to), &m->out);
		}
		c->parked++;
		wake_up(&c->done_wq);
	}
	c->live--;
	wake_up(&c->done_wq);
}

/* Room, sender, per-sender order and text must all survive the trip. */
static void chat_check(struct chat_member *m, const struct chat_msg *msg)
{
	struct chat *c = m->c;
	char text[CHAT_TEXT_MAX];

	if (unlikely(msg->room != m->room || msg->from >= c->per_room ||
		     msg->from == m->id)) {
		chat_bad(c, "message for another room or member");
		return;
	}
	if (unlikely(msg->seq != m->last_seq[msg->from] + 1))
		chat_bad(c, "message out of sequence");
	m->last_seq[msg->from] = msg->seq;
	if (unlikely(msg->len > CHAT_TEXT_MAX ||
		     chat_text_sum(msg->text, msg->len) != msg->sum ||
		     chat_text(text, msg->room, msg->from, msg->seq) != msg->len ||
		     memcmp(text, msg->text, msg->len)))
		chat_bad(c, "message text corrupted");
	m->csum = (m->csum ^ msg->sum ^ (msg->seq << 32)) * 0x100000001b3ULL;
}

static void chat_receiver_fn(void *arg)
{
	struct chat_member *m = arg;
	struct chat *c = m->c;
	struct chat_msg msg;

	for (;;) {
		wait_event(m->rd_wait, m->head != m->tail || c->stop);
		if (unlikely(m->head == m->tail))
			break;		/* stopping, and drained */
		msg = m->mbox[m->tail % CHAT_MBOX_SLOTS];
		m->tail++;
		wake_up(&m->wr_wait);
		chat_check(m, &msg);
		sched_clock_advance(CHAT_RECV_NS);
		m->received++;
		if (++c->delivered == c->target)
			wake_up(&c->done_wq);
		cond_resched();
	}
	c->live--;
	wake_up(&c->done_wq);
}

static bool chat_done(void *arg)
{
	struct chat *c = arg;

	return c->delivered == c->target && c->parked == c->rooms * c->per_room;
}

static int chat_verify(struct bench_ctx *ctx, struct chat *c)
{
	u32 i, n = c->rooms * c->per_room;
	u64 received = 0, csum = 0;

	if (unlikely(c->bad)) {
		snprintf(ctx->err, sizeof(ctx->err), "chat: %llu errors, first: %s",
			 (unsigned long long)c->bad, c->why);
		return -EPROTO;
	}
	for (i = 0; i < n; i++) {
		struct chat_member *m = &c->members[i];

		received += m->received;
		csum = (csum ^ m->csum ^ m->sent_seq) * 0x100000001b3ULL;
		if (unlikely(m->head != m->tail)) {
			snprintf(ctx->err, sizeof(ctx->err),
				 "chat: mailbox %u not drained", i);
			return -EPROTO;
		}
	}
	if (unlikely(received != c->target || c->budget)) {
		snprintf(ctx->err, sizeof(ctx->err),
			 "chat: %llu of %llu messages delivered",
			 (unsigned long long)received,
			 (unsigned long long)c->target);
		return -EPROTO;
	}
	ctx->digest = bench_digest_fold(ctx->digest, received);
	ctx->digest = bench_digest_fold(ctx->digest, csum);
	return 0;
}

static int chat_run(struct bench_ctx *ctx, u64 iters)
{
	struct chat *c = ctx->priv;
	int ret;

	c->target = c->delivered + iters;
	c->budget = iters;
	c->parked = 0;
	c->gen++;
	sched_enter(c->rq);
	wake_up_all(&c->start_wq);
	ret = sched_driver_wait(c->rq, &c->done_wq, chat_done, c);
	sched_leave(c->rq);
	if (unlikely(ret)) {
		snprintf(ctx->err, sizeof(ctx->err), "chat: %s",
			 sched_error(c->rq));
		return ret;
	}
	return chat_verify(ctx, c);
}

/* Every thread, wherever it waits, so it sees c->stop. */
static void chat_wake_all(void *arg)
{
	struct chat *c = arg;
	u32 i;

	wake_up_all(&c->start_wq);
	for (i = 0; c->members && i < c->rooms * c->per_room; i++)
		wake_up(&c->members[i].rd_wait);
}

static void chat_teardown(struct bench_ctx *ctx)
{
	struct chat *c = ctx->priv;

	if (!c)
		return;
	sched_driver_stop(c->rq, &c->stop, chat_wake_all, c);
	sched_destroy(c->rq);
	kfree(c->members);
	kfree(c);
	ctx->priv = NULL;
}

static int chat_spawn(struct chat *c, struct chat_member *m)
{
	char name[32];		/* kthread_create() keeps TASK_COMM_LEN */
	struct task *tx, *rx;

	snprintf(name, sizeof(name), "chat/%u.%u/tx", m->room, m->id);
	tx = kthread_create(c->rq, chat_sender_fn, m, name, 0);
	snprintf(name, sizeof(name), "chat/%u.%u/rx", m->room, m->id);
	rx = kthread_create(c->rq, chat_receiver_fn, m, name, 0);
	if (unlikely(!tx || !rx))
		return -ENOMEM;
	wake_up_new_task(tx);
	wake_up_new_task(rx);
	c->live += 2;
	return 0;
}

static int chat_setup(struct bench_ctx *ctx)
{
	struct chat *c = kzalloc(sizeof(*c));
	u32 i;
	int ret = -ENOMEM;

	if (unlikely(!c))
		return -ENOMEM;
	ctx->priv = c;
	c->rooms = CHAT_ROOMS;
	/* param: members per room */
	c->per_room = ctx->param ? min(max(ctx->param, 2u), (u32)CHAT_MAX_MEMBERS)
				 : CHAT_MEMBERS;
	init_waitqueue_head(&c->start_wq);
	init_waitqueue_head(&c->done_wq);
	c->rq = sched_create();
	c->members = kzalloc(c->rooms * c->per_room * sizeof(*c->members));
	if (unlikely(!c->rq || !c->members))
		goto fail;
	for (i = 0; i < c->rooms * c->per_room; i++) {
		struct chat_member *m = &c->members[i];

		m->c = c;
		m->room = i / c->per_room;
		m->id = i % c->per_room;
		init_waitqueue_head(&m->rd_wait);
		init_waitqueue_head(&m->wr_wait);
		if (chat_spawn(c, m))
			goto fail;
	}
	sched_enter(c->rq);
	ret = sched_driver_settle(c->rq);
	sched_leave(c->rq);
	if (likely(!ret))
		return 0;
fail:
	chat_teardown(ctx);
	return ret;
}

const struct bench_desc bench_sched_chat = {
	.name		= "sched.chat",
	.op		= "message delivered",
	.default_iters	= 200000,
	.quick_iters	= 20000,
	.setup		= chat_setup,
	.run		= chat_run,
	.teardown	= chat_teardown,
};
