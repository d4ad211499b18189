/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The network services' connection policy (kernel/svc_policy.c): who gets
 * a slot, who waits, who is refused, when a silent connection is cut, and
 * the counters that account for every connection. Pure logic, no socket
 * calls, so the host unit tests check it (tests/unit/test_svc_policy.c). */
#ifndef KFRONT_SVC_POLICY_H
#define KFRONT_SVC_POLICY_H

#include <kfront/types.h>

#define SVC_MAX_CONNS		64	/* connections served at once */
#define SVC_WAIT_MAX		16	/* accepted, waiting for a slot */
#define SVC_IDLE_MS_DEFAULT	5000

/* What happens to a connection the stack has accepted. */
enum svc_admit {
	SVC_ADMIT_SERVE,	/* a slot is free: serve it now */
	SVC_ADMIT_WAIT,		/* the table is full: queue it */
	SVC_ADMIT_REFUSE,	/* the queue is full too: reset it */
};

/* Why a served connection ended. */
enum svc_end {
	SVC_END_CLOSED,		/* both sides finished cleanly */
	SVC_END_IDLE,		/* no data either way for idle_ms: reset */
	SVC_END_PEER_RESET,	/* the peer reset it */
	SVC_END_ERROR,		/* any other socket error */
	SVC_END_MAX
};

/* Why an accepted connection was reset before it was served. */
enum svc_refuse {
	SVC_REFUSE_FULL,	/* table and wait queue full */
	SVC_REFUSE_NO_MEMORY,	/* no memory for its state */
	SVC_REFUSE_MAX
};

/* First-in first-out queue of accepted connections waiting for a slot. */
struct svc_waitq {
	void *item[SVC_WAIT_MAX];
	u32 head, len;
};

/* Every TCP connection the services saw ends up in exactly one counter:
 * open (conns), waiting, ended[] or refused[]. accepted counts those that
 * got a slot (directly or after waiting). */
struct svc_stats {
	u32 conns, waiting;
	u64 accepted, queued;
	u64 ended[SVC_END_MAX];
	u64 refused[SVC_REFUSE_MAX];
	u64 syn_dropped;	/* SYN segments over the stack's listen backlog */
	u64 tcp_in, tcp_out, udp_in, udp_out;
};

/* Progress of one connection: it is idle while none of these move. */
struct svc_activity {
	u32 snd_una;		/* our data the peer acknowledged */
	u32 rcv_nxt;		/* the peer's data we received */
	u64 last_ms;		/* stack clock when one of them last moved */
};

enum svc_admit svc_admit_decide(u32 nconns, u32 nwaiting);

void svc_waitq_init(struct svc_waitq *q);
bool svc_waitq_push(struct svc_waitq *q, void *item);
void *svc_waitq_pop(struct svc_waitq *q);

void svc_activity_start(struct svc_activity *a, u32 snd_una, u32 rcv_nxt,
			u64 now_ms);
/* Records progress; true when the connection has been idle for idle_ms. */
bool svc_activity_idle(struct svc_activity *a, u32 snd_una, u32 rcv_nxt,
		       u64 now_ms, u64 idle_ms);

const char *svc_end_name(enum svc_end end);
const char *svc_refuse_name(enum svc_refuse why);
u64 svc_stats_closed(const struct svc_stats *st);
u64 svc_stats_errors(const struct svc_stats *st);
/* "key value" pairs, the control service's reply and the summary line. */
int svc_stats_format(char *buf, size_t size, const struct svc_stats *st);

#endif
