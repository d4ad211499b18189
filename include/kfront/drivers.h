/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Entry points of the small platform drivers. */
#ifndef KFRONT_DRIVERS_H
#define KFRONT_DRIVERS_H

#include <kfront/types.h>

/* COM1 console; false if no UART answered (the kernel carries on). */
bool uart_init(unsigned baud);

/* QEMU's firmware configuration device. Probed only when CPUID says a
 * hypervisor is present, so bare metal never sees the port accesses. */
bool fw_cfg_probe(bool hypervisor);
bool fw_cfg_present(void);
/* Copy the named fw_cfg file into buf (NUL-terminated); length or -errno.
 * *size_out gets the file's size when found, also with -E2BIG (too big
 * for buf), so the caller can say how big it was. */
int fw_cfg_read_file(const char *name, char *buf, size_t len, size_t *size_out);

/* QEMU isa-debug-exit: exits QEMU with (status << 1) | 1. */
void qemu_debug_exit(int status);

/* Machine reset through the keyboard controller, then a triple fault. */
void machine_reboot(void) __attribute__((noreturn));
void machine_halt(void) __attribute__((noreturn));

#endif
