/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The keys each mode of a boot reads: a key given where nothing reads it
 * is refused (kernel/params.c holds the table itself). */
#include <kfront/errno.h>
#include <kfront/params.h>
#include <kfront/printk.h>

/*
 * A boot either serves (serve=) or runs the suite, and the real NIC is set
 * up only for peer= or serve=: a key given where nothing reads it would do
 * nothing, silently. Who reads each key is stated in the table
 * (kernel/params.c, .readers).
 */
int params_check_mode(const struct cmdline *cl, char *err, size_t errlen)
{
	bool serve = cmdline_has(cl, "serve");
	u32 read = PARAM_READ_KERNEL |
		   (serve ? PARAM_READ_SERVE | PARAM_READ_NIC : PARAM_READ_SUITE) |
		   (cmdline_has(cl, "peer") ? PARAM_READ_NIC : 0);

	for (size_t i = 0; i < cl->nspecs; i++) {
		const struct param_spec *sp = &cl->specs[i];

		if (!cl->vals[i].set || (sp->readers & read))
			continue;
		if (serve)
			snprintf(err, errlen, "'%s' has no effect with serve=: the "
				 "network services run instead of the benchmarks",
				 sp->key);
		else if (sp->readers & PARAM_READ_NIC)
			snprintf(err, errlen, "'%s' sets up the real NIC of peer= "
				 "(the net.wire_* benchmarks) or serve=: without "
				 "either it has no effect", sp->key);
		else
			snprintf(err, errlen, "'%s' has no effect without serve=",
				 sp->key);
		return -EINVAL;
	}
	return 0;
}
