/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The CPU identity part of the machine record, shared by the kernel's
 * and the host harness's counters_describe(). Pure: no instructions that
 * need ring 0. */
#include <asm/cpu.h>
#include <kfront/record.h>
#include <kfront/string_helpers.h>

void cpu_record_identity(struct record *r, const struct cpu_info *ci)
{
	rec_str(r, "vendor", ci->vendor_str);
	rec_u64(r, "family", ci->family);
	rec_u64(r, "model", ci->model);
	rec_u64(r, "stepping", ci->stepping);
	rec_str(r, "brand", ci->brand);
	rec_str(r, "uarch", ci->uarch_name);
	rec_str(r, "hypervisor", ci->hypervisor);
	/* every feature of the one table that the CPU has: erms and fsrm
	 * decide what an in-line rep movsb costs (docs/findings.md) */
	rec_arr_begin(r, "features");
	for (int f = 0; f < X86_NR_FEATURES; f++)
		if (cpu_has(ci, f))
			rec_arr_str(r, cpu_feature_name(f));
	rec_arr_end(r);
	/* what the assembly memcpy and memset of a -DKFRONT_ASM_STRING
	 * variant run here, and what chose it (rep_string=) */
	rec_obj_begin(r, "string_helpers");
	rec_str(r, "memcpy", x86_fast_rep_movsb ? "rep movsb" : "loop");
	rec_str(r, "memset", x86_fast_rep_stosb ? "rep stosb" : "loop");
	rec_str(r, "by", rep_string_names[rep_string_selected()]);
	rec_obj_end(r);
	rec_obj_begin(r, "tsc");
	rec_u64(r, "hz", ci->tsc_hz);
	rec_str(r, "source", ci->tsc_source ? ci->tsc_source : "none");
	rec_bool(r, "invariant", cpu_has(ci, X86_FEATURE_INVARIANT_TSC));
	if (ci->tsc_check_source) {
		/* the second calibration, to check the first by */
		rec_obj_begin(r, "check");
		rec_u64(r, "hz", ci->tsc_check_hz);
		rec_str(r, "source", ci->tsc_check_source);
		rec_obj_end(r);
	}
	rec_obj_end(r);
}
