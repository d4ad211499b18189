/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Hardware event counters in user space: perf_event_open, one group,
 * user-mode counts only (exclude_kernel), read with one read() of the
 * group leader. An event the machine refuses is reported unavailable
 * with the errno, never as zero. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <kfront/compiler.h>
#include "host.h"

#define CACHE_EVENT(cache) \
	((cache) | (PERF_COUNT_HW_CACHE_OP_READ << 8) | \
	 (PERF_COUNT_HW_CACHE_RESULT_MISS << 16))

struct perf_spec {
	const char *name;	/* record-format.md counter name */
	u32 type;
	u64 config;
	const char *event;	/* the generic event the host kernel maps */
};

#define SPEC(n, t, c)	{ n, t, c, #c }

static const struct perf_spec specs[HOST_PERF_MAX] = {
	SPEC("cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES),
	SPEC("instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS),
	SPEC("branch_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES),
	{ "l1i_misses", PERF_TYPE_HW_CACHE, CACHE_EVENT(PERF_COUNT_HW_CACHE_L1I),
	  "PERF_COUNT_HW_CACHE_L1I read miss" },
	{ "itlb_misses", PERF_TYPE_HW_CACHE,
	  CACHE_EVENT(PERF_COUNT_HW_CACHE_ITLB),
	  "PERF_COUNT_HW_CACHE_ITLB read miss" },
};

static int fds[HOST_PERF_MAX];
static const char *names[HOST_PERF_MAX];
static int nopen;
static char why[HOST_PERF_MAX][160];	/* per spec; "" once opened */
static char reason[200];

static int open_event(const struct perf_spec *s, int group_fd)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = s->type;
	a.config = s->config;
	a.disabled = group_fd < 0;	/* members follow the leader */
	a.pinned = group_fd < 0;	/* never multiplexed: all or nothing */
	a.exclude_kernel = 1;		/* as rdpmc in ring 0 counts ring 0 */
	a.exclude_hv = 1;
	a.read_format = PERF_FORMAT_GROUP;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, group_fd, 0);
}

static void explain(int i, int err)
{
	if (err == ENOENT && access("/sys/bus/event_source/devices/cpu", F_OK))
		snprintf(why[i], sizeof(why[i]), "perf_event_open: %s (errno %d): "
			 "this kernel exposes no hardware PMU", strerror(err), err);
	else
		snprintf(why[i], sizeof(why[i]), "perf_event_open: %s (errno %d)",
			 strerror(err), err);
}

int perf_init(bool disabled)
{
	nopen = 0;
	for (int i = 0; i < HOST_PERF_MAX; i++) {
		int fd;

		if (disabled) {
			snprintf(why[i], sizeof(why[i]), "not counted under valgrind");
			continue;
		}
		fd = open_event(&specs[i], nopen ? fds[0] : -1);
		if (fd < 0) {
			explain(i, errno);
			continue;
		}
		why[i][0] = '\0';
		fds[nopen] = fd;
		names[nopen++] = specs[i].name;
	}
	if (!nopen)
		snprintf(reason, sizeof(reason), "%s", why[0]);
	return nopen;
}

const char *perf_name(int i)
{
	return names[i];
}

int perf_enable(char *err, size_t errlen)
{
	if (ioctl(fds[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP) ||
	    ioctl(fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP)) {
		snprintf(err, errlen, "perf_event enable: %s", strerror(errno));
		return -errno;
	}
	return 0;
}

void perf_disable(void)
{
	ioctl(fds[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
}

/* A pinned group the PMU cannot hold reads as end of file: the values
 * stay zero, and the samples show it. */
__measured_path void perf_read(u64 *vals)
{
	u64 buf[1 + HOST_PERF_MAX];
	ssize_t n = read(fds[0], buf, sizeof(buf));

	for (int i = 0; i < nopen; i++)
		vals[i] = n >= (ssize_t)((2 + i) * sizeof(u64)) ? buf[1 + i] : 0;
}

const char *perf_reason(void)
{
	return nopen ? "" : reason;
}

/* Which event stands behind each opened counter: a generic perf event,
 * which the host kernel maps to a model-specific one of its choosing. */
void perf_describe_encodings(struct record *r)
{
	for (int i = 0; i < HOST_PERF_MAX; i++) {
		if (why[i][0])
			continue;
		rec_obj_begin(r, specs[i].name);
		rec_str(r, "event", specs[i].event);
		rec_str(r, "encoding", "perf_event_open generic event (the host "
			"kernel picks the hardware event)");
		rec_obj_end(r);
	}
}

void perf_describe_unavailable(struct record *r)
{
	for (int i = 0; i < HOST_PERF_MAX; i++)
		if (why[i][0])
			rec_str(r, specs[i].name, why[i]);
}
