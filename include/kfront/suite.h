/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The benchmark suite entry point (bench/harness/suite.c). */
#ifndef KFRONT_SUITE_H
#define KFRONT_SUITE_H

#include <kfront/bootinfo.h>
#include <kfront/cmdline.h>

/* Runs what the command line asks; returns the exit status. */
int suite_main(const struct cmdline *cl, const struct bootinfo *bi);
void crash_inject(const char *kind) __attribute__((noreturn));

#endif
