/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kfront's kernel command-line parameters (kernel/params.c). */
#ifndef KFRONT_PARAMS_H
#define KFRONT_PARAMS_H

#include <kfront/cmdline.h>

/* Who reads a parameter (struct param_spec.readers). */
#define PARAM_READ_SUITE	(1u << 0)	/* the suite, in ring 0 and the host harness */
#define PARAM_READ_SERVE	(1u << 1)	/* serve=: the network services */
#define PARAM_READ_NIC		(1u << 2)	/* the real NIC's set-up, for peer= or serve= */
#define PARAM_READ_KERNEL	(1u << 3)	/* the kernel, whatever it runs */

extern const struct param_spec kfront_params[];
extern const size_t kfront_nparams;

/* 0, or -EINVAL with err filled when a key was given that this boot's
 * mode never reads: a suite key with serve=, serve_idle_ms without it,
 * or ip=, gw=, nic=, pci= without peer= or serve=. */
int params_check_mode(const struct cmdline *cl, char *err, size_t errlen);

/* The parsed command line of this boot. */
extern struct cmdline kfront_cmdline;

#endif
