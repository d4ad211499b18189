/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The benchmark watchdog: a one-shot local APIC timer armed around each
 * measured call. If the benchmark overruns its budget, the interrupt
 * abandons it and the guarded call returns -ETIMEDOUT; the suite records a
 * timeout and goes on. Without a local APIC, only the harness's check
 * between runs remains (watchdog_available() says which). */
#ifndef KFRONT_WATCHDOG_H
#define KFRONT_WATCHDOG_H

#include <kfront/types.h>

struct arch_jmp_buf {
	u64 rbx, rbp, r12, r13, r14, r15, rsp, rip;
};

int arch_setjmp(struct arch_jmp_buf *buf) __attribute__((returns_twice));
void arch_longjmp(struct arch_jmp_buf *buf) __attribute__((noreturn));

/* Calibrate the APIC timer and install the vectors; false if unusable. */
bool watchdog_init(void);
bool watchdog_available(void);
/* Why not, when unavailable. */
const char *watchdog_reason(void);
/* Arm for ms milliseconds, jumping to *buf on expiry; interrupts are
 * enabled until watchdog_disarm() (only the timer can fire: every other
 * source is masked). */
void watchdog_arm(struct arch_jmp_buf *buf, u64 ms);
void watchdog_disarm(void);

#endif
