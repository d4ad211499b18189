/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of the host harness's perf groups (host/perf.c) with the
 * kernel interface faked: exactly which perf_event_attr each event is
 * opened with (type, config, group leader, pinned, ring 3 only) for a
 * CPUID signature, which group the harness enables and reads, and what
 * the machine record says when an event or the whole PMU is refused.
 * This machine has no PMU, so the real path cannot run here; this is what
 * stands in for it. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <asm/cpu.h>
#include <asm/pmu.h>
#include "check.h"
#include "x86_fakes.h"
#include "../../host/host.h"

#define MAX_OPEN	16
#define FD_BASE		100

/* What the fake kernel saw and does. */
static struct {
	struct perf_event_attr attr[MAX_OPEN];
	int group_fd[MAX_OPEN];
	int n;
	int refuse_errno;		/* every open fails with it (0: none) */
	u64 refuse_config;		/* only this raw config fails */
	bool refuse_raw;		/* every raw event fails */
	const char *type_file;		/* sysfs cpu/type content, or NULL */
	const char *device;		/* the core PMU in sysfs, or NULL */
	int enabled_fd, disabled_fd, read_fd;
} k;

void console_write(const char *s, size_t len)
{
	(void)s;
	(void)len;
}

static long fake_syscall(long nr, struct perf_event_attr *a, int pid, int cpu,
			 int group_fd, unsigned long flags)
{
	(void)pid;
	(void)cpu;
	(void)flags;
	if (nr != SYS_perf_event_open || k.n >= MAX_OPEN)
		return -1;
	if (k.refuse_errno || (a->type > PERF_TYPE_HW_CACHE &&
			       (k.refuse_raw || a->config == k.refuse_config))) {
		errno = k.refuse_errno ? k.refuse_errno : EINVAL;
		return -1;
	}
	k.attr[k.n] = *a;
	k.group_fd[k.n] = group_fd;
	return FD_BASE + k.n++;
}

static int fake_ioctl(int fd, unsigned long req, int arg)
{
	(void)arg;
	if (req == PERF_EVENT_IOC_ENABLE)
		k.enabled_fd = fd;
	if (req == PERF_EVENT_IOC_DISABLE)
		k.disabled_fd = fd;
	return 0;
}

/* A group read: nr, then value i = 1000 * (fd - FD_BASE) + i. */
static ssize_t fake_read(int fd, void *buf, size_t len)
{
	u64 *v = buf;
	size_t n = len / sizeof(u64) - 1;

	k.read_fd = fd;
	v[0] = n;
	for (size_t i = 0; i < n; i++)
		v[1 + i] = 1000ULL * (u64)(fd - FD_BASE) + i;
	return (ssize_t)len;
}

static int fake_close(int fd)
{
	(void)fd;
	return 0;
}

static FILE *fake_fopen(const char *path, const char *mode)
{
	if (!k.type_file || !strstr(path, "/devices/cpu/type"))
		return NULL;
	return fmemopen((void *)k.type_file, strlen(k.type_file), mode);
}

static int fake_access(const char *path, int mode)
{
	const char *dev = strrchr(path, '/');

	(void)mode;
	return k.device && dev && !strcmp(dev + 1, k.device) ? 0 : -1;
}

#define syscall fake_syscall
#define ioctl fake_ioctl
#define read fake_read
#define close fake_close
#define fopen fake_fopen
#define access fake_access
#include "../../host/perf.c"
#undef syscall
#undef ioctl
#undef read
#undef close
#undef fopen
#undef access

static struct cpu_info ci;
static struct record rec;

static int init(const struct fake_cpu *c, bool disabled)
{
	memset(&k.attr, 0, sizeof(k.attr));
	k.n = 0;
	cpu_detect(&ci, fake_cpuid, (void *)c);
	return perf_init(&ci, disabled);
}

static void check_attr(int i, u32 type, u64 config, int group_fd)
{
	const struct perf_event_attr *a = &k.attr[i];

	CHECK_EQ_U64(a->type, type);
	CHECK_EQ_U64(a->config, config);
	CHECK_EQ_U64(k.group_fd[i], group_fd);
	/* the leader starts disabled and pinned; ring 3 only, one read */
	CHECK_EQ_U64(a->disabled, group_fd < 0);
	CHECK_EQ_U64(a->pinned, group_fd < 0);
	CHECK(a->exclude_kernel && a->exclude_hv);
	CHECK_EQ_U64(a->read_format, PERF_FORMAT_GROUP);
}

static const char *record_of(void (*describe)(struct record *))
{
	rec_begin(&rec, "test");
	describe(&rec);
	rec.buf[rec.len] = '\0';
	return rec.buf;
}

/* Zen 4: the generic group, then cycles, instructions and the table's
 * three front-end events as raw configs of the "cpu" PMU's type. */
static void test_two_groups(void)
{
	const char *names[8];
	u64 vals[8];
	char err[80];

	k.type_file = "4\n";
	CHECK_EQ_U64(init(&cpu_zen4, false), 5);
	CHECK_EQ_U64(k.n, 10);
	check_attr(0, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, -1);
	check_attr(4, PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_ITLB |
		   PERF_COUNT_HW_CACHE_OP_READ << 8 |
		   PERF_COUNT_HW_CACHE_RESULT_MISS << 16, FD_BASE);
	check_attr(5, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, -1);
	check_attr(6, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, FD_BASE + 5);
	check_attr(7, 4, 0x02aa, FD_BASE + 5);
	check_attr(8, 4, 0x01aa, FD_BASE + 5);
	check_attr(9, 4, 0x1060001a0ULL, FD_BASE + 5);
	CHECK_EQ_U64(perf_num_groups(), 2);
	CHECK_EQ_U64(perf_group_names(1, names, 8), 5);
	CHECK_STR(names[2], "uops_dsb");
	CHECK_STR(names[4], "fe_stalls");
	CHECK_EQ_U64(perf_counter_names(names, 8), 8);	/* each once */

	/* the suite enables a group and reads its leader */
	CHECK_EQ_U64(perf_enable(1, err, sizeof(err)), 0);
	CHECK_EQ_U64(k.enabled_fd, FD_BASE + 5);
	perf_read(vals);
	CHECK_EQ_U64(k.read_fd, FD_BASE + 5);
	CHECK_EQ_U64(vals[4], 5004);
	perf_disable();
	CHECK_EQ_U64(k.disabled_fd, FD_BASE + 5);
	CHECK_EQ_U64(perf_enable(0, err, sizeof(err)), 0);
	perf_read(vals);
	CHECK_EQ_U64(k.read_fd, FD_BASE);
	CHECK(perf_enable(2, err, sizeof(err)) < 0);
	CHECK_STR(perf_reason(), "");

	CHECK(strstr(record_of(perf_describe_encodings),
		     "\"fe_stalls\":{\"event\":\"de_no_dispatch_per_slot."
		     "no_ops_from_frontend\",\"encoding\":\"raw config "
		     "0x1060001a0, perf type 4 from the kernel's table (linux "
		     "pmu-events amdzen4)\"}") != NULL);
	/* cycles is described once, as the generic event */
	CHECK(!strstr(strstr(rec.buf, "\"cycles\"") + 1, "\"cycles\""));
	CHECK(!strstr(record_of(perf_describe_unavailable), "uops"));
}

/* A hybrid part's P-core PMU has its own type; a refused raw event is
 * listed with its errno and the rest of the group still opens. */
static void test_hybrid_type_and_a_refused_event(void)
{
	const char *names[8];
	struct fake_cpu c = cpu_sapphirerapids;

	c.l1[0] = 0x000c0662;			/* Arrow Lake */
	k.type_file = "10\n";
	k.refuse_config = 0xe424;		/* L2_RQSTS.ALL_CODE_RD */
	CHECK_EQ_U64(init(&c, false), 5);
	k.refuse_config = 0;
	CHECK_EQ_U64(k.attr[7].type, 10);
	CHECK_EQ_U64(k.attr[9].config, 0x0800019c);	/* cmask 8 */
	CHECK_EQ_U64(perf_group_names(1, names, 8), 5);
	CHECK(strstr(record_of(perf_describe_unavailable),
		     "\"l2_code_reads\":\"perf_event_open: Invalid argument "
		     "(errno 22)\"") != NULL);
}

/* Every raw event refused (a PMU driver without them): group 1 would
 * count only what group 0 does, so it is closed, and the suite runs one
 * group; its events are listed with the errno. */
static void test_group_of_nothing_new(void)
{
	k.type_file = "4\n";
	k.refuse_raw = true;
	CHECK_EQ_U64(init(&cpu_zen4, false), 5);
	k.refuse_raw = false;
	CHECK_EQ_U64(perf_num_groups(), 1);
	CHECK(strstr(record_of(perf_describe_unavailable),
		     "\"uops_dsb\":\"perf_event_open: Invalid argument "
		     "(errno 22)\"") != NULL);
}

/* No PMU: nothing opens, one reason for every counter, the front-end
 * ones included; under valgrind nothing is tried. */
static void test_no_pmu(void)
{
	const char *u;

	k.type_file = NULL;
	k.device = NULL;
	k.refuse_errno = ENOENT;
	CHECK_EQ_U64(init(&cpu_zen5, false), 0);
	k.refuse_errno = 0;
	CHECK_EQ_U64(perf_num_groups(), 0);
	CHECK(strstr(perf_reason(), "this kernel exposes no hardware PMU") != NULL);
	u = record_of(perf_describe_unavailable);
	CHECK(strstr(u, "\"uops_mite\":\"perf_event_open: No such file or "
		     "directory (errno 2): this kernel exposes no hardware PMU\"") != NULL);
	CHECK(strstr(strstr(u, "\"cycles\"") + 1, "\"cycles\"") == NULL);

	/* ENOENT where a core PMU exists (a hybrid part's cpu_core): the
	 * errno alone, not "no hardware PMU" */
	k.device = "cpu_core";
	k.refuse_errno = ENOENT;
	init(&cpu_zen5, false);
	k.refuse_errno = 0;
	CHECK_STR(perf_reason(), "perf_event_open: No such file or directory "
		  "(errno 2)");

	CHECK_EQ_U64(init(&cpu_zen5, true), 0);
	CHECK_EQ_U64(k.n, 0);
	CHECK(strstr(record_of(perf_describe_unavailable),
		     "\"fe_stalls\":\"not counted under valgrind\"") != NULL);
}

/* A core without a table: group 0 alone, and the reason for the three
 * front-end counters. */
static void test_no_table(void)
{
	struct fake_cpu c = cpu_icelake;

	c.l1[0] = 0x000a06f0;			/* family 6 model 0xaf */
	CHECK_EQ_U64(init(&c, false), 5);
	CHECK_EQ_U64(k.n, 5);
	CHECK_EQ_U64(perf_num_groups(), 1);
	CHECK(strstr(record_of(perf_describe_unavailable),
		     "\"uops_dsb\":\"no event table for this microarchitecture "
		     "(unknown): perf's generic events only\"") != NULL);
}

int main(void)
{
	test_two_groups();
	test_hybrid_type_and_a_refused_event();
	test_group_of_nothing_new();
	test_no_pmu();
	test_no_table();
	return check_report("test_host_perf");
}
