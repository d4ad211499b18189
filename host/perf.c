/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Hardware event counters in user space: perf_event_open, user-mode
 * counts only (exclude_kernel), each group read with one read() of its
 * leader. Group 0 is perf's generic events, which the host kernel maps to
 * model-specific ones of its choosing; group 1, where the CPU has a table
 * in the kernel (arch/x86/pmu_events.c), adds the front-end events perf has
 * no generic name for, as raw configs (perf_raw.c), beside cycles and
 * instructions again so the two groups can be cross-checked. The suite
 * runs each benchmark once per group, as the kernel does. An event the
 * machine refuses is reported unavailable with the errno, never as zero. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <asm/pmu.h>
#include <kfront/compiler.h>
#include "host.h"

#define CACHE_EVENT(cache) \
	((cache) | (PERF_COUNT_HW_CACHE_OP_READ << 8) | \
	 (PERF_COUNT_HW_CACHE_RESULT_MISS << 16))

struct perf_spec {
	const char *name;	/* record-format.md counter name */
	u32 type;
	u64 config;
	const char *event;	/* the generic event, or the table's name */
	const char *source;	/* the kernel table it comes from, or NULL */
};

#define SPEC(n, t, c)	{ n, t, c, #c, NULL }

static const struct perf_spec generic[] = {
	SPEC("cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES),
	SPEC("instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS),
	SPEC("branch_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES),
	{ "l1i_misses", PERF_TYPE_HW_CACHE, CACHE_EVENT(PERF_COUNT_HW_CACHE_L1I),
	  "PERF_COUNT_HW_CACHE_L1I read miss", NULL },
	{ "itlb_misses", PERF_TYPE_HW_CACHE,
	  CACHE_EVENT(PERF_COUNT_HW_CACHE_ITLB),
	  "PERF_COUNT_HW_CACHE_ITLB read miss", NULL },
};

/* What a group tried, what it opened, and why the rest failed. */
struct perf_group {
	struct perf_spec spec[HOST_PERF_MAX];
	int nspec;
	int fds[HOST_PERF_MAX];
	const char *names[HOST_PERF_MAX];
	int nopen;
	char why[HOST_PERF_MAX][160];	/* per spec; "" once opened */
};

static struct perf_group groups[HOST_PERF_GROUPS];
static int ngroups;		/* groups opened: 0 without a PMU */
static int active;		/* the group perf_read() reads */
static char reason[200];	/* why no group opened */
static char table_why[160];	/* why group 1 has no table events */

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

/* A core PMU in sysfs: "cpu", or on a hybrid part "cpu_core". */
static bool have_core_pmu(void)
{
	return !access("/sys/bus/event_source/devices/cpu", F_OK) ||
	       !access("/sys/bus/event_source/devices/cpu_core", F_OK);
}

static void explain(char *why, size_t len, int err)
{
	if (err == ENOENT && !have_core_pmu())
		snprintf(why, len, "perf_event_open: %s (errno %d): this kernel "
			 "exposes no hardware PMU", strerror(err), err);
	else
		snprintf(why, len, "perf_event_open: %s (errno %d)",
			 strerror(err), err);
}

/* The perf type of the CPU's core PMU for raw events: the "cpu" PMU's
 * (PERF_TYPE_RAW), or on a hybrid part the P-cores' "cpu_core". */
static u32 raw_type(void)
{
	static const char *const paths[] = {
		"/sys/bus/event_source/devices/cpu/type",
		"/sys/bus/event_source/devices/cpu_core/type",
	};
	unsigned int t;

	for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
		FILE *f = fopen(paths[i], "r");
		int ok = f && fscanf(f, "%u", &t) == 1;

		if (f)
			fclose(f);
		if (ok)
			return t;
	}
	return PERF_TYPE_RAW;
}

/* Group 1's specs: cycles and instructions, then the table's front-end
 * events that have a raw config. */
static void build_frontend(struct perf_group *g, const struct cpu_info *ci)
{
	const struct pmu_event *ev[HOST_PERF_MAX];
	int n = perf_frontend_events(ci, ev, HOST_PERF_MAX - 2, table_why,
				     sizeof(table_why));
	u32 type = n ? raw_type() : 0;

	g->nspec = 0;
	if (!n)
		return;
	g->spec[g->nspec++] = generic[0];
	g->spec[g->nspec++] = generic[1];
	for (int i = 0; i < n; i++) {
		struct perf_spec *s = &g->spec[g->nspec];

		if (perf_raw_config(ci->vendor, ev[i], &s->config))
			continue;
		s->name = pmu_counter_name(ev[i]->id);
		s->type = type;
		s->event = ev[i]->hw_name;
		s->source = pmu_event_table(ci->uarch)->source;
		g->nspec++;
	}
}

/* Open @g's specs as one group; returns how many opened. */
static int open_group(struct perf_group *g)
{
	g->nopen = 0;
	for (int i = 0; i < g->nspec; i++) {
		int fd = open_event(&g->spec[i], g->nopen ? g->fds[0] : -1);

		if (fd < 0) {
			explain(g->why[i], sizeof(g->why[i]), errno);
			continue;
		}
		g->why[i][0] = '\0';
		g->fds[g->nopen] = fd;
		g->names[g->nopen++] = g->spec[i].name;
	}
	return g->nopen;
}

static void close_group(struct perf_group *g)
{
	for (int i = 0; i < g->nopen; i++)
		close(g->fds[i]);
	g->nopen = 0;
}

/* Does @g count anything group 0 does not? */
static bool adds_counters(const struct perf_group *g)
{
	for (int i = 0; i < g->nopen; i++)
		if (strcmp(g->names[i], "cycles") &&
		    strcmp(g->names[i], "instructions"))
			return true;
	return false;
}

int perf_init(const struct cpu_info *ci, bool disabled)
{
	struct perf_group *g0 = &groups[0], *g1 = &groups[1];

	ngroups = 0;
	active = 0;
	memcpy(g0->spec, generic, sizeof(generic));
	g0->nspec = ARRAY_SIZE(generic);
	build_frontend(g1, ci);
	if (disabled) {
		/* Under valgrind the hardware counts would be valgrind's own. */
		for (int k = 0; k < HOST_PERF_GROUPS; k++)
			for (int i = 0; i < groups[k].nspec; i++)
				snprintf(groups[k].why[i], sizeof(groups[k].why[i]),
					 "not counted under valgrind");
		snprintf(reason, sizeof(reason), "not counted under valgrind");
		return 0;
	}
	if (!open_group(g0)) {
		snprintf(reason, sizeof(reason), "%s", g0->why[0]);
		/* nothing opens where cycles do not: say so for group 1 too */
		for (int i = 0; i < g1->nspec; i++)
			snprintf(g1->why[i], sizeof(g1->why[i]), "%s", g0->why[0]);
		return 0;
	}
	ngroups = 1;
	if (open_group(g1) && !adds_counters(g1))
		close_group(g1);
	if (g1->nopen)
		ngroups = 2;
	return g0->nopen;
}

int perf_num_groups(void)
{
	return ngroups;
}

int perf_group_names(int g, const char *names[], int max)
{
	int n = 0;

	if (g < 0 || g >= ngroups)
		return 0;
	for (int i = 0; i < groups[g].nopen && n < max; i++)
		names[n++] = groups[g].names[i];
	return n;
}

int perf_enable(int g, char *err, size_t errlen)
{
	if (g < 0 || g >= ngroups) {
		snprintf(err, errlen, "no counter group %d", g);
		return -EINVAL;
	}
	active = g;
	if (ioctl(groups[g].fds[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP) ||
	    ioctl(groups[g].fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP)) {
		snprintf(err, errlen, "perf_event enable: %s", strerror(errno));
		return -errno;
	}
	return 0;
}

void perf_disable(void)
{
	ioctl(groups[active].fds[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
}

/* A pinned group the PMU cannot hold reads as end of file: the values
 * stay zero, and the samples show it. */
__measured_path void perf_read(u64 *vals)
{
	const struct perf_group *g = &groups[active];
	u64 buf[1 + HOST_PERF_MAX];
	ssize_t n = read(g->fds[0], buf, sizeof(buf));

	for (int i = 0; i < g->nopen; i++)
		vals[i] = n >= (ssize_t)((2 + i) * sizeof(u64)) ? buf[1 + i] : 0;
}

const char *perf_reason(void)
{
	return ngroups ? "" : reason;
}

/* Is @name among the counters a group before @k opened or tried? */
static bool seen_before(int k, const char *name)
{
	for (int j = 0; j < k; j++)
		for (int i = 0; i < groups[j].nspec; i++)
			if (!strcmp(groups[j].spec[i].name, name))
				return true;
	return false;
}

int perf_counter_names(const char *names[], int max)
{
	int n = 0;

	for (int k = 0; k < ngroups; k++)
		for (int i = 0; i < groups[k].nopen && n < max; i++)
			if (!seen_before(k, groups[k].names[i]))
				names[n++] = groups[k].names[i];
	return n;
}

/* Which event stands behind each opened counter: a generic perf event,
 * which the host kernel maps to a model-specific one of its choosing, or
 * a raw config from the kernel's own table. */
void perf_describe_encodings(struct record *r)
{
	for (int k = 0; k < ngroups; k++) {
		const struct perf_group *g = &groups[k];

		for (int i = 0; i < g->nspec; i++) {
			const struct perf_spec *s = &g->spec[i];
			char how[200];

			if (g->why[i][0] || seen_before(k, s->name))
				continue;
			if (s->source)
				snprintf(how, sizeof(how), "raw config %#llx, perf "
					 "type %u from the kernel's table (%s)",
					 (unsigned long long)s->config, s->type,
					 s->source);
			else
				snprintf(how, sizeof(how), "perf_event_open "
					 "generic event (the host kernel picks "
					 "the hardware event)");
			rec_obj_begin(r, s->name);
			rec_str(r, "event", s->event);
			rec_str(r, "encoding", how);
			rec_obj_end(r);
		}
	}
}

void perf_describe_unavailable(struct record *r)
{
	static const u8 frontend[] = {
		PMU_UOPS_DSB, PMU_UOPS_MITE, PMU_FE_STALLS,
	};

	for (int k = 0; k < HOST_PERF_GROUPS; k++)
		for (int i = 0; i < groups[k].nspec; i++)
			if (groups[k].why[i][0] &&
			    !seen_before(k, groups[k].spec[i].name))
				rec_str(r, groups[k].spec[i].name,
					groups[k].why[i]);
	/* no table: the front-end counters were never tried */
	if (!groups[1].nspec)
		for (size_t i = 0; i < ARRAY_SIZE(frontend); i++)
			rec_str(r, pmu_counter_name(frontend[i]), table_why);
}
