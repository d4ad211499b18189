/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kfront's kernel command-line parameters (kernel/params.c). */
#ifndef KFRONT_PARAMS_H
#define KFRONT_PARAMS_H

#include <kfront/cmdline.h>

extern const struct param_spec kfront_params[];
extern const size_t kfront_nparams;

/* 0, or -EINVAL with err filled when a key was given that this boot's
 * mode never reads: a suite key with serve=, serve_idle_ms without it,
 * or ip=, gw=, nic=, pci= without peer= or serve=. */
int params_check_mode(const struct cmdline *cl, char *err, size_t errlen);

/* The parsed command line of this boot. */
extern struct cmdline kfront_cmdline;

#endif
