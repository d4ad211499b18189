/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of the network services' connection policy: admission, the
 * wait queue, the idle timeout (a slow but steady transfer is never idle)
 * and the accounting that reports every connection under one reason. */
#include <string.h>
#include <kfront/svc_policy.h>
#include "check.h"

static void test_admit(void)
{
	CHECK(svc_admit_decide(0, 0) == SVC_ADMIT_SERVE);
	CHECK(svc_admit_decide(SVC_MAX_CONNS - 1, 0) == SVC_ADMIT_SERVE);
	CHECK(svc_admit_decide(SVC_MAX_CONNS, 0) == SVC_ADMIT_WAIT);
	CHECK(svc_admit_decide(SVC_MAX_CONNS, SVC_WAIT_MAX - 1) ==
	      SVC_ADMIT_WAIT);
	CHECK(svc_admit_decide(SVC_MAX_CONNS, SVC_WAIT_MAX) ==
	      SVC_ADMIT_REFUSE);
	/* A free slot while others wait: the newcomer queues behind them. */
	CHECK(svc_admit_decide(3, 1) == SVC_ADMIT_WAIT);
}

static void test_waitq_fifo(void)
{
	struct svc_waitq q;
	int items[SVC_WAIT_MAX + 1];

	svc_waitq_init(&q);
	CHECK(svc_waitq_pop(&q) == NULL);
	for (int i = 0; i < SVC_WAIT_MAX; i++)
		CHECK(svc_waitq_push(&q, &items[i]));
	CHECK(!svc_waitq_push(&q, &items[SVC_WAIT_MAX]));	/* full */
	CHECK_EQ_U64(q.len, SVC_WAIT_MAX);
	/* Wrap around the ring: oldest out first, every time. */
	for (int round = 0; round < 3 * SVC_WAIT_MAX; round++) {
		int *first = svc_waitq_pop(&q);

		CHECK(first == &items[round % SVC_WAIT_MAX]);
		CHECK(svc_waitq_push(&q, first));
	}
	for (int i = 0; i < SVC_WAIT_MAX; i++)
		CHECK(svc_waitq_pop(&q) == &items[(3 * SVC_WAIT_MAX + i) %
						  SVC_WAIT_MAX]);
	CHECK(svc_waitq_pop(&q) == NULL);
}

static void test_idle_silent(void)
{
	struct svc_activity a;

	svc_activity_start(&a, 1000, 5000, 100);
	CHECK(!svc_activity_idle(&a, 1000, 5000, 100, 5000));
	CHECK(!svc_activity_idle(&a, 1000, 5000, 5099, 5000));
	CHECK(svc_activity_idle(&a, 1000, 5000, 5100, 5000));
}

/* One byte each way every 4 s with a 5 s timeout, for a minute: never
 * idle, whichever direction moves. */
static void test_idle_slow_but_steady(void)
{
	struct svc_activity a;
	u32 una = 0xfffffff0u, nxt = 7;	/* wraps: no ordering assumed */
	bool cut = false;

	svc_activity_start(&a, una, nxt, 0);
	for (u64 now = 0; now < 60000; now += 1000) {
		if (now % 8000 == 4000)
			una++;		/* the peer acknowledged our echo */
		else if (now % 8000 == 0)
			nxt++;		/* the peer's data arrived */
		cut |= svc_activity_idle(&a, una, nxt, now, 5000);
	}
	CHECK(!cut);
	/* Then silence: cut exactly idle_ms after the last progress. */
	CHECK(!svc_activity_idle(&a, una, nxt, a.last_ms + 4999, 5000));
	CHECK(svc_activity_idle(&a, una, nxt, a.last_ms + 5000, 5000));
}

/* Only the receive side moves (the echo buffer is full, the peer keeps
 * sending into our window): that is transfer too. */
static void test_idle_receive_only(void)
{
	struct svc_activity a;
	u32 nxt = 0;

	svc_activity_start(&a, 1, nxt, 0);
	for (u64 now = 1000; now <= 20000; now += 1000) {
		nxt += 1460;
		CHECK(!svc_activity_idle(&a, 1, nxt, now, 1500));
	}
}

static bool has_pair(const char *line, const char *pair)
{
	size_t n = strlen(pair);
	const char *p = line;

	while ((p = strstr(p, pair)) != NULL) {
		bool starts = p == line || p[-1] == ' ';
		bool ends = p[n] == ' ' || p[n] == '\0';

		if (starts && ends)
			return true;
		p += n;
	}
	return false;
}

static void test_stats_format(void)
{
	const char *old_keys = "conns 2 accepted 70 closed 68 errors 3 "
			       "tcp_in 1234567890123 tcp_out 0 udp_in 0 "
			       "udp_out 0 ";
	struct svc_stats st;
	char line[512];
	int len;

	memset(&st, 0, sizeof(st));
	st.conns = 2;
	st.waiting = 3;
	st.accepted = 70;
	st.queued = 9;
	st.ended[SVC_END_CLOSED] = 60;
	st.ended[SVC_END_IDLE] = 5;
	st.ended[SVC_END_PEER_RESET] = 2;
	st.ended[SVC_END_ERROR] = 1;
	st.refused[SVC_REFUSE_FULL] = 40;
	st.refused[SVC_REFUSE_NO_MEMORY] = 4;
	st.syn_dropped = 6;
	st.tcp_in = 1234567890123ull;
	len = svc_stats_format(line, sizeof(line), &st);
	CHECK_EQ_U64((u64)len, strlen(line));
	/* The old keys first, in their old order. */
	CHECK(!strncmp(line, old_keys, strlen(old_keys)));
	CHECK(has_pair(line, "waiting 3"));
	CHECK(has_pair(line, "queued 9"));
	CHECK(has_pair(line, "closed_clean 60"));
	CHECK(has_pair(line, "idle 5"));
	CHECK(has_pair(line, "peer_reset 2"));
	CHECK(has_pair(line, "error 1"));
	CHECK(has_pair(line, "refused_full 40"));
	CHECK(has_pair(line, "refused_nomem 4"));
	CHECK(has_pair(line, "syn_dropped 6"));
	/* Every connection under one heading: open + ended + waiting. */
	CHECK_EQ_U64(st.conns + svc_stats_closed(&st), st.accepted);
}

static void test_stats_truncated(void)
{
	struct svc_stats st;
	char small[24];
	int len;

	memset(&st, 0, sizeof(st));
	memset(small, 'x', sizeof(small));
	len = svc_stats_format(small, sizeof(small), &st);
	CHECK(len > (int)sizeof(small));	/* the length it needed */
	CHECK_EQ_U64(strlen(small), sizeof(small) - 1);
	CHECK_STR(svc_end_name(SVC_END_MAX), "?");
	CHECK_STR(svc_refuse_name(SVC_REFUSE_MAX), "?");
}

int main(void)
{
	test_admit();
	test_waitq_fifo();
	test_idle_silent();
	test_idle_slow_but_steady();
	test_idle_receive_only();
	test_stats_format();
	test_stats_truncated();
	return check_report("svc_policy");
}
