/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host-test stand-ins for the CPU: a CPUID backend described by a few
 * register values per leaf, and a recording msr_ops backend that logs
 * every wrmsr and can fault on chosen registers (#GP) or on rdpmc (#UD). */
#ifndef KFRONT_TEST_X86_FAKES_H
#define KFRONT_TEST_X86_FAKES_H

#include <stdio.h>
#include <string.h>
#include <asm/cpu.h>
#include <asm/msr.h>
#include <kfront/errno.h>
#include "check.h"

/* --- fake CPUID ------------------------------------------------------ */

struct fake_cpu {
	const char *vendor;	/* 12 characters */
	const char *brand;	/* up to 48 */
	const char *hv;		/* 12 bytes (NUL padded) or NULL */
	u32 max_leaf, max_ext, max_hv;
	u32 l1[4];		/* leaf 1 */
	u32 l7_ebx;		/* leaf 7.0 EBX */
	u32 l7_edx;		/* leaf 7.0 EDX */
	u32 l7_eax;		/* leaf 7.0 EAX: the last subleaf */
	u32 l7s1_eax;		/* leaf 7.1 EAX */
	u32 la[4];		/* leaf 0xa */
	u32 l15[3];		/* leaf 0x15 EAX, EBX, ECX */
	u32 l16_eax;
	u32 l1a_eax;
	u32 e1[4];		/* 0x80000001 */
	u32 e7_edx;		/* 0x80000007 EDX */
	u32 e22[4];		/* 0x80000022 */
	u32 hv10_eax;		/* 0x40000010 EAX: TSC kHz */
};

static inline u32 str4(const char *s, int off)
{
	u32 v = 0;
	int i;

	for (i = 3; i >= 0; i--)
		v = (v << 8) | (u8)s[off + i];
	return v;
}

static inline void fake_string(const char *s, int len, int off, u32 *out)
{
	char buf[64] = { 0 };
	int i;

	if (s)
		strncpy(buf, s, sizeof(buf) - 1);
	for (i = 0; i < 4 && off + 4 * i < len; i++)
		out[i] = str4(buf, off + 4 * i);
}

static inline void fake_cpuid(void *ctx, u32 leaf, u32 sub, u32 out[4])
{
	const struct fake_cpu *c = ctx;

	memset(out, 0, 4 * sizeof(u32));
	switch (leaf) {
	case 0:
		out[0] = c->max_leaf;
		out[1] = str4(c->vendor, 0);
		out[3] = str4(c->vendor, 4);
		out[2] = str4(c->vendor, 8);
		return;
	case 1:	memcpy(out, c->l1, sizeof(c->l1)); return;
	case 7:
		out[0] = sub == 0 ? c->l7_eax : sub == 1 ? c->l7s1_eax : 0;
		out[1] = sub == 0 ? c->l7_ebx : 0;
		out[3] = sub == 0 ? c->l7_edx : 0;
		return;
	case 0xa: memcpy(out, c->la, sizeof(c->la)); return;
	case 0x15: memcpy(out, c->l15, sizeof(c->l15)); return;
	case 0x16: out[0] = c->l16_eax; return;
	case 0x1a: out[0] = c->l1a_eax; return;
	case 0x40000000:
		out[0] = c->max_hv;
		fake_string(c->hv, 12, 0, &out[1]);
		return;
	case 0x40000010: out[0] = c->hv10_eax; return;
	case 0x80000000: out[0] = c->max_ext; return;
	case 0x80000001: memcpy(out, c->e1, sizeof(c->e1)); return;
	case 0x80000002: case 0x80000003: case 0x80000004:
		fake_string(c->brand, 48, 16 * (leaf - 0x80000002), out);
		return;
	case 0x80000007: out[3] = c->e7_edx; return;
	case 0x80000022: memcpy(out, c->e22, sizeof(c->e22)); return;
	}
}

/* i7-6700K: 4 GP (HT on), 3 fixed, version 4; leaf 0x15 without crystal. */
static const struct fake_cpu cpu_skylake = {
	.vendor = "GenuineIntel",
	.brand = "Intel(R) Core(TM) i7-6700K CPU @ 4.00GHz",
	.max_leaf = 0x16, .max_ext = 0x80000008,
	.l1 = { 0x000506e3, 0x02100800, 0x7ffafbbf, 0xbfebfbff },
	.la = { 0x07300404, 0, 0, 0x00000603 },
	.l15 = { 2, 334, 0 }, .l16_eax = 4000,
	.e1 = { 0, 0, 0x00000121, 0x2c100800 }, .e7_edx = 0x100,
};

/* i7-1065G7: 8 GP, 4 fixed, version 5, 38.4 MHz crystal. */
static const struct fake_cpu cpu_icelake = {
	.vendor = "GenuineIntel",
	.brand = "Intel(R) Core(TM) i7-1065G7 CPU @ 1.30GHz",
	.max_leaf = 0x1b, .max_ext = 0x80000008,
	.l1 = { 0x000706e5, 0x00100800, 0x7ffafbbf, 0xbfebfbff },
	.la = { 0x08300805, 0, 0, 0x00008604 },
	.l15 = { 2, 78, 38400000 }, .l16_eax = 1300,
	/* leaf 7: only ERMS (EBX[9]) and FSRM (EDX[4]) of its many bits */
	.l7_ebx = 1u << 9, .l7_edx = 1u << 4,
	.e1 = { 0, 0, 0x00000121, 0x2c100800 }, .e7_edx = 0x100,
};

/* Xeon 8480+: 8 GP, 4 fixed, version 5, 25 MHz crystal. */
static const struct fake_cpu cpu_sapphirerapids = {
	.vendor = "GenuineIntel",
	.brand = "Intel(R) Xeon(R) Platinum 8480+",
	.max_leaf = 0x20, .max_ext = 0x80000008,
	.l1 = { 0x000806f8, 0x00800800, 0x7ffefbff, 0xbfebfbff },
	.la = { 0x08300805, 0, 0, 0x00008604 },
	.l15 = { 2, 160, 25000000 }, .l16_eax = 2000,
	/* leaf 7: ERMS and FSRM; 7.1: FSRS (EAX[11]) */
	.l7_eax = 1, .l7_ebx = 1u << 9, .l7_edx = 1u << 4, .l7s1_eax = 1u << 11,
	.e1 = { 0, 0, 0x00000121, 0x2c100800 }, .e7_edx = 0x100,
};

/* Ryzen 9 3950X (family 17h model 71h). */
static const struct fake_cpu cpu_zen2 = {
	.vendor = "AuthenticAMD",
	.brand = "AMD Ryzen 9 3950X 16-Core Processor           ",
	.max_leaf = 0x10, .max_ext = 0x8000001f,
	.l1 = { 0x00870f10, 0x00200800, 0x7ed8320b, 0x178bfbff },
	.e1 = { 0x00870f10, 0x20000000, 0x75c237ff, 0x2fd3fbff },
	.e7_edx = 0x6799,
};

/* Ryzen 9 5950X (family 19h model 21h). */
static const struct fake_cpu cpu_zen3 = {
	.vendor = "AuthenticAMD",
	.brand = "AMD Ryzen 9 5950X 16-Core Processor",
	.max_leaf = 0x10, .max_ext = 0x80000020,
	.l1 = { 0x00a20f10, 0x00200800, 0x7ef8320b, 0x178bfbff },
	.e1 = { 0x00a20f10, 0x20000000, 0x75c237ff, 0x2fd3fbff },
	.e7_edx = 0x6799,
};

/* Ryzen 9 7950X (family 19h model 61h): PerfMonV2 with 6 counters. */
static const struct fake_cpu cpu_zen4 = {
	.vendor = "AuthenticAMD",
	.brand = "AMD Ryzen 9 7950X 16-Core Processor",
	.max_leaf = 0x10, .max_ext = 0x80000028,
	.l1 = { 0x00a60f12, 0x00200800, 0x7ef8320b, 0x178bfbff },
	.e1 = { 0x00a60f12, 0x20000000, 0x75c237ff, 0x2fd3fbff },
	.e7_edx = 0x6799,
	.e22 = { 0x00000003, 0x00000106, 0, 0 },
};

/* Ryzen 9 9950X (family 1Ah model 44h): PerfMonV2 with 6 counters
 * (0x80000022 EBX as such a part reports it). */
static const struct fake_cpu cpu_zen5 = {
	.vendor = "AuthenticAMD",
	.brand = "AMD Ryzen 9 9950X 16-Core Processor",
	.max_leaf = 0x10, .max_ext = 0x80000028,
	.l1 = { 0x00b40f40, 0x00200800, 0x7ef8320b, 0x178bfbff },
	.e1 = { 0x00b40f40, 0x20000000, 0x75c237ff, 0x2fd3fbff },
	.e7_edx = 0x6799,
	.e22 = { 0x00000007, 0x00084106, 0, 0 },
};

/* QEMU TCG, default "-cpu qemu64": AMD vendor, family 0fh model 6bh, no
 * PerfCtrExtCore, hypervisor bit; rdpmc raises #UD there. */
static const struct fake_cpu cpu_qemu64_tcg = {
	.vendor = "AuthenticAMD",
	.brand = "QEMU Virtual CPU version 2.5+",
	.hv = "TCGTCGTCGTCG", .max_hv = 0x40000001,
	.max_leaf = 0xd, .max_ext = 0x8000000a,
	.l1 = { 0x00060fb1, 0x00000800, 0x80802001, 0x078bfbfd },
	.e1 = { 0, 0, 0x00000001, 0x2191abfd },
};

/* QEMU TCG with an Intel model ("-cpu Skylake-Client"): leaf 0xa reads 0. */
static const struct fake_cpu cpu_intel_tcg = {
	.vendor = "GenuineIntel",
	.brand = "Intel Core Processor (Skylake)",
	.hv = "TCGTCGTCGTCG", .max_hv = 0x40000001,
	.max_leaf = 0xd, .max_ext = 0x80000008,
	.l1 = { 0x000506e3, 0x00000800, 0xfffa3203, 0x0f8bfbff },
	.e1 = { 0, 0, 0x00000121, 0x2c100800 },
};

/* A Zen 3 guest under KVM with the PMU hidden ("pmu=off"), and the TSC
 * rate in the hypervisor timing leaf. */
static const struct fake_cpu cpu_zen3_kvm_nopmu = {
	.vendor = "AuthenticAMD",
	.brand = "AMD EPYC-Milan Processor",
	.hv = "KVMKVMKVM\0\0\0", .max_hv = 0x40000010, .hv10_eax = 3400000,
	.max_leaf = 0x10, .max_ext = 0x80000020,
	.l1 = { 0x00a00f11, 0x00000800, 0xfef83203, 0x178bfbff },
	.e1 = { 0x00a00f11, 0, 0x004003f3, 0x2fd3fbff },
	.e7_edx = 0x100,
};

/* --- recording MSR backend ------------------------------------------- */

struct msr_write {
	u32 msr;
	u64 val;
};

#define REC_MAX	512

struct rec_msr {
	struct msr_write w[REC_MAX];
	int nw;
	u32 rdpmc_ecx[REC_MAX];
	int nrdpmc;
	u32 gp_on_write;	/* this MSR raises #GP on wrmsr, 0 = none */
	int rdpmc_vector;	/* rdpmc raises this vector, 0 = works */
	u32 rd_msr[8];		/* rdmsr answers */
	u64 rd_val[8];
	int nrd;
	int last_vector;
};

static inline int rec_rdmsr(void *ctx, u32 msr, u64 *v)
{
	struct rec_msr *r = ctx;
	int i;

	for (i = 0; i < r->nrd; i++) {
		if (r->rd_msr[i] == msr) {
			*v = r->rd_val[i];
			return 0;
		}
	}
	*v = 0;
	r->last_vector = X86_VEC_GP;
	return -EFAULT;
}

static inline int rec_wrmsr(void *ctx, u32 msr, u64 v)
{
	struct rec_msr *r = ctx;

	if (r->gp_on_write && msr == r->gp_on_write) {
		r->last_vector = X86_VEC_GP;
		return -EFAULT;
	}
	if (r->nw < REC_MAX)
		r->w[r->nw++] = (struct msr_write){ msr, v };
	return 0;
}

/* Counters read as 0x1000 * (n + 1) for rdpmc number n of the test. */
static inline int rec_rdpmc(void *ctx, u32 ecx, u64 *v)
{
	struct rec_msr *r = ctx;

	if (r->rdpmc_vector) {
		r->last_vector = r->rdpmc_vector;
		*v = 0;
		return -EFAULT;
	}
	if (r->nrdpmc < REC_MAX)
		r->rdpmc_ecx[r->nrdpmc++] = ecx;
	*v = 0x1000ULL * r->nrdpmc;
	return 0;
}

static inline int rec_fault_vector(void *ctx)
{
	return ((struct rec_msr *)ctx)->last_vector;
}

static inline struct msr_ops rec_ops(struct rec_msr *r)
{
	return (struct msr_ops){
		.rdmsr = rec_rdmsr, .wrmsr = rec_wrmsr, .rdpmc = rec_rdpmc,
		.fault_vector = rec_fault_vector, .ctx = r,
	};
}

static inline void rec_reset(struct rec_msr *r)
{
	r->nw = 0;
	r->nrdpmc = 0;
}

/* Forget the first n recorded writes. */
static inline void rec_drop(struct rec_msr *r, int n)
{
	if (n > r->nw)
		n = r->nw;
	memmove(r->w, r->w + n, (r->nw - n) * sizeof(r->w[0]));
	r->nw -= n;
}

/* The recorded writes must be exactly exp[0..n-1], in order. */
#define CHECK_WRITES(r, exp) \
	check_writes(__FILE__, __LINE__, (r), (exp), \
		     (int)(sizeof(exp) / sizeof((exp)[0])))

static inline void check_writes(const char *file, int line, const struct rec_msr *r,
			 const struct msr_write *exp, int n)
{
	int i, bad = r->nw != n;

	for (i = 0; !bad && i < n; i++)
		bad = r->w[i].msr != exp[i].msr || r->w[i].val != exp[i].val;
	check_count++;
	if (!bad)
		return;
	check_failures++;
	fprintf(stderr, "%s:%d: MSR writes differ (got %d, want %d)\n",
		file, line, r->nw, n);
	for (i = 0; i < r->nw || i < n; i++)
		fprintf(stderr, "  %2d got %08x=%012llx  want %08x=%012llx\n", i,
			i < r->nw ? r->w[i].msr : 0,
			i < r->nw ? (unsigned long long)r->w[i].val : 0ULL,
			i < n ? exp[i].msr : 0,
			i < n ? (unsigned long long)exp[i].val : 0ULL);
}

#endif
