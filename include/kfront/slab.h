/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel heap. In the kernel this is kernel/heap.c; host builds (unit
 * tests, the host harness) map it onto the C library's allocator. */
#ifndef KFRONT_SLAB_H
#define KFRONT_SLAB_H

#include <kfront/types.h>

void *kmalloc(size_t size);
void *kzalloc(size_t size);
void kfree(void *p);

#endif
