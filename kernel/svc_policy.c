/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The network services' connection policy; include/kfront/svc_policy.h
 * says what each piece is for, docs/nic.md why it is this way. */
#include <kfront/printk.h>
#include <kfront/svc_policy.h>

static const char *const svc_end_names[SVC_END_MAX] = {
	[SVC_END_CLOSED] = "closed_clean",
	[SVC_END_IDLE] = "idle",
	[SVC_END_PEER_RESET] = "peer_reset",
	[SVC_END_ERROR] = "error",
};

static const char *const svc_refuse_names[SVC_REFUSE_MAX] = {
	[SVC_REFUSE_FULL] = "refused_full",
	[SVC_REFUSE_NO_MEMORY] = "refused_nomem",
};

enum svc_admit svc_admit_decide(u32 nconns, u32 nwaiting)
{
	/* Nobody jumps the queue: while others wait, a new connection
	 * waits behind them even if a slot has just freed. */
	if (nconns < SVC_MAX_CONNS && !nwaiting)
		return SVC_ADMIT_SERVE;
	if (nwaiting < SVC_WAIT_MAX)
		return SVC_ADMIT_WAIT;
	return SVC_ADMIT_REFUSE;
}

void svc_waitq_init(struct svc_waitq *q)
{
	q->head = 0;
	q->len = 0;
}

bool svc_waitq_push(struct svc_waitq *q, void *item)
{
	if (q->len == SVC_WAIT_MAX)
		return false;
	q->item[(q->head + q->len) % SVC_WAIT_MAX] = item;
	q->len++;
	return true;
}

void *svc_waitq_pop(struct svc_waitq *q)
{
	void *item;

	if (!q->len)
		return NULL;
	item = q->item[q->head];
	q->head = (q->head + 1) % SVC_WAIT_MAX;
	q->len--;
	return item;
}

void svc_activity_start(struct svc_activity *a, u32 snd_una, u32 rcv_nxt,
			u64 now_ms)
{
	a->snd_una = snd_una;
	a->rcv_nxt = rcv_nxt;
	a->last_ms = now_ms;
}

/* Progress is judged on the sequence numbers, not on what the service
 * read or wrote: echo data queued in the stack and acknowledged slowly
 * by a slow reader, or data arriving while the echo buffer is full, is
 * transfer too, and must keep the connection alive. */
bool svc_activity_idle(struct svc_activity *a, u32 snd_una, u32 rcv_nxt,
		       u64 now_ms, u64 idle_ms)
{
	if (snd_una != a->snd_una || rcv_nxt != a->rcv_nxt) {
		svc_activity_start(a, snd_una, rcv_nxt, now_ms);
		return false;
	}
	return now_ms - a->last_ms >= idle_ms;
}

const char *svc_end_name(enum svc_end end)
{
	return (unsigned int)end < SVC_END_MAX ? svc_end_names[end] : "?";
}

const char *svc_refuse_name(enum svc_refuse why)
{
	return (unsigned int)why < SVC_REFUSE_MAX ? svc_refuse_names[why] : "?";
}

u64 svc_stats_closed(const struct svc_stats *st)
{
	u64 sum = 0;

	for (int e = 0; e < SVC_END_MAX; e++)
		sum += st->ended[e];
	return sum;
}

/* The ends the peer or the network caused; an idle cut is our choice. */
u64 svc_stats_errors(const struct svc_stats *st)
{
	return st->ended[SVC_END_PEER_RESET] + st->ended[SVC_END_ERROR];
}

static int svc_append(char *buf, size_t size, int used, const char *key,
		      u64 val)
{
	size_t at = (size_t)used < size ? (size_t)used : size;

	return used + snprintf(buf + at, size - at, "%s%s %llu",
			       used ? " " : "", key, (unsigned long long)val);
}

/* The first eight keys keep their old order, so older readers of the
 * control reply still work; the accounting keys follow. */
int svc_stats_format(char *buf, size_t size, const struct svc_stats *st)
{
	int n = 0;

	n = svc_append(buf, size, n, "conns", st->conns);
	n = svc_append(buf, size, n, "accepted", st->accepted);
	n = svc_append(buf, size, n, "closed", svc_stats_closed(st));
	n = svc_append(buf, size, n, "errors", svc_stats_errors(st));
	n = svc_append(buf, size, n, "tcp_in", st->tcp_in);
	n = svc_append(buf, size, n, "tcp_out", st->tcp_out);
	n = svc_append(buf, size, n, "udp_in", st->udp_in);
	n = svc_append(buf, size, n, "udp_out", st->udp_out);
	n = svc_append(buf, size, n, "waiting", st->waiting);
	n = svc_append(buf, size, n, "queued", st->queued);
	for (int e = 0; e < SVC_END_MAX; e++)
		n = svc_append(buf, size, n, svc_end_names[e], st->ended[e]);
	for (int r = 0; r < SVC_REFUSE_MAX; r++)
		n = svc_append(buf, size, n, svc_refuse_names[r],
			       st->refused[r]);
	n = svc_append(buf, size, n, "syn_dropped", st->syn_dropped);
	return n;
}
