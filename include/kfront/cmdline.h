/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel command line: "key=value" pairs and bare flags, checked against a
 * table of known parameters. Anything unknown or malformed is an error with
 * a message that lists what is valid: never a silent default. */
#ifndef KFRONT_CMDLINE_H
#define KFRONT_CMDLINE_H

#include <kfront/types.h>

/*
 * The one limit on the command line, in bytes with the terminating NUL:
 * every source together (the boot loader's line, a blank, the fw_cfg
 * line) must be shorter. It leaves room for a bench= list naming every
 * benchmark and a variant= list naming HARNESS_MAX_VARIANTS variants with
 * long names (tests/boot/test_boot.py boots with such a list), and the
 * suite_begin record carries a line of this size (docs/record-format.md).
 * The boot tests read the number from this line.
 */
#define CMDLINE_MAX	2048
#define CMDLINE_MAX_PARAMS 32
#define CMDLINE_MAX_SOURCES 4
/* Room for any parser message: it may quote one whole value. */
#define CMDLINE_ERR_MAX	(CMDLINE_MAX + 512)

enum param_type {
	PARAM_FLAG,	/* bare word, no value */
	PARAM_UINT,	/* decimal (or 0x hex) integer within [min, max] */
	PARAM_ENUM,	/* one of the '|'-separated choices */
	PARAM_STR,	/* free text without blanks (globs, lists) */
};

struct param_spec {
	const char *key;
	enum param_type type;
	const char *choices;	/* PARAM_ENUM: "halt|reboot|qemu" */
	u64 min, max;		/* PARAM_UINT */
	const char *help;
};

struct param_value {
	bool set;
	u8 source;		/* 1-based number of the source that set it */
	u64 num;		/* PARAM_UINT value; PARAM_ENUM choice index */
	const char *str;	/* value text (NUL-terminated, in the copy) */
};

struct cmdline {
	char text[CMDLINE_MAX];		/* the words of every source, one blank apart */
	char copy[CMDLINE_MAX];		/* tokenised copy the values point into */
	size_t text_len, copy_len;
	size_t given_len;		/* bytes of every source as given, joined by a blank */
	u8 nsources;
	const struct param_spec *specs;
	size_t nspecs;
	struct param_value vals[CMDLINE_MAX_PARAMS];
};

/*
 * A command line may come from several sources, added in order: a key
 * given in a later source overrides an earlier source's value (the boot
 * loader's menu entry sets defaults, `kfront boot -- ARGS` overrides
 * them), while a key repeated within one source is an error.
 */
int cmdline_init(struct cmdline *cl, const struct param_spec *specs,
		 size_t nspecs, char *err, size_t errlen);
/* Parse one source (origin names it in messages). Returns 0, or -EINVAL
 * (bad word, repeated key) or -E2BIG (over CMDLINE_MAX) with err filled. */
int cmdline_add(struct cmdline *cl, const char *src, const char *origin,
		char *err, size_t errlen);
/* cmdline_init and cmdline_add of a single source. */
int cmdline_parse(struct cmdline *cl, const char *src,
		  const struct param_spec *specs, size_t nspecs,
		  char *err, size_t errlen);

/* Lookup helpers. A key missing from the spec table is never set:
 * cmdline_get returns NULL for it, the others their "unset" answer. */
const struct param_value *cmdline_get(const struct cmdline *cl,
				      const char *key);
/* True if key was given (flag or key=value). */
bool cmdline_has(const struct cmdline *cl, const char *key);
bool cmdline_flag(const struct cmdline *cl, const char *key);
u64 cmdline_uint(const struct cmdline *cl, const char *key, u64 dflt);
const char *cmdline_str(const struct cmdline *cl, const char *key,
			const char *dflt);

#endif
