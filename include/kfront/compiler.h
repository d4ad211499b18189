/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Compiler hints used the way Linux uses them: what the optimiser does
 * with them is part of what kfront measures, so keep them honest. */
#ifndef KFRONT_COMPILER_H
#define KFRONT_COMPILER_H

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#define __noreturn	__attribute__((noreturn))
#define __noinline	__attribute__((noinline))
#ifndef __always_inline	/* the C library's headers may define it */
#define __always_inline	inline __attribute__((always_inline))
#endif
#define __packed	__attribute__((packed))
#define __aligned(n)	__attribute__((aligned(n)))
#define __section(s)	__attribute__((section(s)))
#define __used		__attribute__((used))
/* The measured path: kernel code that runs during a benchmark point
 * besides the variants' own (the harness's run loop, the counter reads,
 * the watchdog's arming). The linker script puts it first in the kernel's
 * text, before the variants, so nothing a point runs moves when other
 * kernel code changes (docs/measurement.md, "Where each variant's code
 * lies"). */
#define __measured_path	__section(".text.measured")
#define __unused	__attribute__((unused))
#define __cold		__attribute__((cold))
#define __printf(a, b)	__attribute__((format(printf, a, b)))

#define barrier()	__asm__ __volatile__("" ::: "memory")
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - __builtin_offsetof(type, member)))

#define ALIGN_UP(x, a)	(((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a) - 1))

#define BUILD_BUG_ON(cond) _Static_assert(!(cond), #cond)

#define min(a, b)	((a) < (b) ? (a) : (b))
#define max(a, b)	((a) > (b) ? (a) : (b))

#endif
