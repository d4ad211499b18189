/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The subset of the QEMU TCG plugin API (version 1: QEMU 7.x, 8.x) fesim uses. */
#ifndef FESIM_QEMU_PLUGIN_API_H
#define FESIM_QEMU_PLUGIN_API_H

/*
 * Debian ships no qemu-plugin.h, so these declarations are written from the
 * API documentation (docs/devel/tcg-plugins.rst and the kernel-doc comments
 * of the v7.2 header). The functions are exported by the QEMU binary and
 * resolved when QEMU dlopen()s the plugin. Only the stable core is used:
 * version 2 (QEMU 9.0) changed the vCPU-count calls and the inline ops,
 * none of which fesim needs.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FESIM_EXPORT __attribute__((visibility("default")))

/* The API level this plugin is written against. */
#define FESIM_QEMU_PLUGIN_API 1

typedef uint64_t qemu_plugin_id_t;

/* Passed to qemu_plugin_install(); valid only during that call. */
typedef struct {
	const char *target_name;	/* "x86_64" */
	struct {
		int min;		/* oldest API level QEMU still accepts */
		int cur;		/* the level QEMU implements */
	} version;
	bool system_emulation;		/* false under qemu-x86_64 (user mode) */
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;

struct qemu_plugin_tb;		/* opaque: a block being translated */
struct qemu_plugin_insn;	/* opaque: one instruction of that block */

/* Whether a callback reads guest registers; fesim never does. */
enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
					    void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);

/* Exported by the plugin. */
extern FESIM_EXPORT int qemu_plugin_version;
FESIM_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
				     const qemu_info_t *info,
				     int argc, char **argv);

/* Exported by QEMU. */
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags,
					  void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata);

size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);

/* Valid only during the translation callback. */
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);

/* Writes through QEMU's log (stderr unless -D/-d plugin redirect it). */
void qemu_plugin_outs(const char *string);

#endif /* FESIM_QEMU_PLUGIN_API_H */
