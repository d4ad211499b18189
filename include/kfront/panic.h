/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fatal errors: a readable report on serial, a panic record, and a
 * non-zero exit (see kernel/panic.c). */
#ifndef KFRONT_PANIC_H
#define KFRONT_PANIC_H

#include <kfront/compiler.h>

void panic(const char *fmt, ...) __noreturn __cold __printf(1, 2);

#endif
