/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kfront's kernel command-line parameters (kernel/params.c). */
#ifndef KFRONT_PARAMS_H
#define KFRONT_PARAMS_H

#include <kfront/cmdline.h>

extern const struct param_spec kfront_params[];
extern const size_t kfront_nparams;

/* The parsed command line of this boot. */
extern struct cmdline kfront_cmdline;

#endif
