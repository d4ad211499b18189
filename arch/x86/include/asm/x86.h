/* SPDX-License-Identifier: GPL-2.0-or-later */
/* x86 instructions as static inline functions, so C code never scatters
 * inline assembly. Instructions that may fault on some CPUs or under some
 * hypervisors (rdmsr, wrmsr, rdpmc) have *_safe forms that return -EFAULT
 * through the exception table instead of panicking; x86_fixup_vector then
 * says which exception it was (#GP = 13, #UD = 6). */
#ifndef ASM_X86_H
#define ASM_X86_H

#include <kfront/types.h>
#include <kfront/errno.h>

/* Vector of the last fault that an exception-table entry absorbed. */
extern volatile u8 x86_fixup_vector;

/*
 * Exception table entry: if the instruction at label 1 faults, the trap
 * handler resumes at label 3, which sets err = -EFAULT and rejoins at 2.
 */
#define _ASM_EXTABLE_SAFE(insn, errreg)					\
	"1: " insn "\n"							\
	"2:\n"								\
	".pushsection .fixup,\"ax\"\n"					\
	"3: movl $-14, " errreg "\n"					\
	"   jmp 2b\n"							\
	".popsection\n"							\
	".pushsection __ex_table,\"a\"\n"				\
	"   .balign 8\n"						\
	"   .quad 1b, 3b\n"						\
	".popsection\n"

static inline void outb(u16 port, u8 v)
{
	__asm__ __volatile__("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline u8 inb(u16 port)
{
	u8 v;

	__asm__ __volatile__("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void outw(u16 port, u16 v)
{
	__asm__ __volatile__("outw %0, %1" : : "a"(v), "Nd"(port));
}

static inline u16 inw(u16 port)
{
	u16 v;

	__asm__ __volatile__("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void outl(u16 port, u32 v)
{
	__asm__ __volatile__("outl %0, %1" : : "a"(v), "Nd"(port));
}

static inline u32 inl(u16 port)
{
	u32 v;

	__asm__ __volatile__("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

/* A write to an unused port: about 1 us, used between slow device I/O. */
static inline void io_delay(void)
{
	outb(0x80, 0);
}

static inline void cpuid_count(u32 leaf, u32 subleaf, u32 *a, u32 *b,
			       u32 *c, u32 *d)
{
	__asm__ __volatile__("cpuid"
			     : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d)
			     : "a"(leaf), "c"(subleaf));
}

static inline int rdmsr_safe(u32 msr, u64 *val)
{
	u32 lo = 0, hi = 0;
	int err = 0;

	__asm__ __volatile__(_ASM_EXTABLE_SAFE("rdmsr", "%[err]")
			     : [err] "+r"(err), "+a"(lo), "+d"(hi)
			     : "c"(msr) : "memory");
	*val = ((u64)hi << 32) | lo;
	return err;
}

static inline int wrmsr_safe(u32 msr, u64 val)
{
	int err = 0;

	__asm__ __volatile__(_ASM_EXTABLE_SAFE("wrmsr", "%[err]")
			     : [err] "+r"(err)
			     : "c"(msr), "a"((u32)val), "d"((u32)(val >> 32))
			     : "memory");
	return err;
}

static inline int rdpmc_safe(u32 counter, u64 *val)
{
	u32 lo = 0, hi = 0;
	int err = 0;

	__asm__ __volatile__(_ASM_EXTABLE_SAFE("rdpmc", "%[err]")
			     : [err] "+r"(err), "+a"(lo), "+d"(hi)
			     : "c"(counter));
	*val = ((u64)hi << 32) | lo;
	return err;
}

/* rdmsr that is known to exist (architectural, checked by CPUID). */
static inline u64 rdmsr(u32 msr)
{
	u32 lo, hi;

	__asm__ __volatile__("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}

static inline void wrmsr(u32 msr, u64 val)
{
	__asm__ __volatile__("wrmsr"
			     : : "c"(msr), "a"((u32)val), "d"((u32)(val >> 32))
			     : "memory");
}

static inline u64 rdtsc(void)
{
	u32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

static inline void lfence(void)
{
	__asm__ __volatile__("lfence" : : : "memory");
}

static inline void mfence(void)
{
	__asm__ __volatile__("mfence" : : : "memory");
}

static inline void cli(void)
{
	__asm__ __volatile__("cli" : : : "memory");
}

static inline void sti(void)
{
	__asm__ __volatile__("sti" : : : "memory");
}

static inline void hlt(void)
{
	__asm__ __volatile__("hlt" : : : "memory");
}

static inline void cpu_relax(void)
{
	__asm__ __volatile__("pause" : : : "memory");
}

static inline u64 read_cr0(void)
{
	u64 v;

	__asm__ __volatile__("mov %%cr0, %0" : "=r"(v));
	return v;
}

static inline u64 read_cr2(void)
{
	u64 v;

	__asm__ __volatile__("mov %%cr2, %0" : "=r"(v));
	return v;
}

static inline u64 read_cr3(void)
{
	u64 v;

	__asm__ __volatile__("mov %%cr3, %0" : "=r"(v));
	return v;
}

static inline void write_cr3(u64 v)
{
	__asm__ __volatile__("mov %0, %%cr3" : : "r"(v) : "memory");
}

/* Drop the TLB entry of the page holding va, global or not. */
static inline void invlpg(u64 va)
{
	__asm__ __volatile__("invlpg (%0)" : : "r"(va) : "memory");
}

static inline u64 read_cr4(void)
{
	u64 v;

	__asm__ __volatile__("mov %%cr4, %0" : "=r"(v));
	return v;
}

static inline void write_cr4(u64 v)
{
	__asm__ __volatile__("mov %0, %%cr4" : : "r"(v) : "memory");
}

static inline u64 read_rflags(void)
{
	u64 v;

	__asm__ __volatile__("pushfq; popq %0" : "=r"(v));
	return v;
}

#define X86_CR4_PCE	(1UL << 8)	/* rdpmc allowed outside ring 0 */

#endif
