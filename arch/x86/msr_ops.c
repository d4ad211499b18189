/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by every msr_ops user (pure C, host-testable). */
#include <asm/msr.h>

const char *msr_fault_name(const struct msr_ops *ops)
{
	int vec = ops->fault_vector ? ops->fault_vector(ops->ctx) : -1;

	if (vec == X86_VEC_UD)
		return "#UD";
	if (vec == X86_VEC_GP)
		return "#GP";
	return "a fault";
}
