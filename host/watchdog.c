/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The benchmark watchdog in user space: a one-shot ITIMER_REAL whose
 * SIGALRM handler jumps back to the harness's guard point with the
 * kernel's own arch_longjmp (arch/x86/setjmp.asm), as the APIC timer
 * interrupt does in the kernel. It runs on an alternate signal stack,
 * since the benchmark may be on a small kmalloc'ed thread stack. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include <kfront/compiler.h>
#include <kfront/watchdog.h>

#define ALT_STACK_SIZE	(64 * 1024)

static struct arch_jmp_buf *volatile armed;
static bool available;
static const char *reason = "not initialised";

static void on_alarm(int sig)
{
	struct arch_jmp_buf *buf = armed;

	if (!buf)
		return;
	armed = NULL;
	/* SA_NODEFER: SIGALRM is not blocked here, so leaving the handler
	 * without sigreturn leaves the signal mask as it was. */
	arch_longjmp(buf);
}

bool watchdog_init(void)
{
	stack_t ss = { .ss_size = ALT_STACK_SIZE };
	struct sigaction sa;

	ss.ss_sp = malloc(ALT_STACK_SIZE);
	if (!ss.ss_sp || sigaltstack(&ss, NULL)) {
		reason = "sigaltstack failed";
		return false;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_NODEFER | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL)) {
		reason = "sigaction(SIGALRM) failed";
		return false;
	}
	available = true;
	reason = "";
	return true;
}

bool watchdog_available(void)
{
	return available;
}

const char *watchdog_reason(void)
{
	return reason;
}

/* usec 0 disarms the timer. */
static __measured_path void set_timer(u64 usec)
{
	struct itimerval it = { 0 };

	it.it_value.tv_sec = (time_t)(usec / 1000000);
	it.it_value.tv_usec = (suseconds_t)(usec % 1000000);
	setitimer(ITIMER_REAL, &it, NULL);
}

/* As the kernel's: a spent budget (ms = 0) fires at once. */
__measured_path void watchdog_arm(struct arch_jmp_buf *buf, u64 ms)
{
	if (!available)
		return;
	armed = buf;
	set_timer(ms ? ms * 1000 : 1);
}

__measured_path void watchdog_disarm(void)
{
	if (!available)
		return;
	set_timer(0);
	armed = NULL;
}
