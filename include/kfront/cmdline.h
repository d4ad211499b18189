/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel command line: "key=value" pairs and bare flags, checked against a
 * table of known parameters. Anything unknown or malformed is an error with
 * a message that lists what is valid: never a silent default. */
#ifndef KFRONT_CMDLINE_H
#define KFRONT_CMDLINE_H

#include <kfront/types.h>

#define CMDLINE_MAX	1024
#define CMDLINE_MAX_PARAMS 32

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
	u64 num;		/* PARAM_UINT value; PARAM_ENUM choice index */
	const char *str;	/* value text (NUL-terminated, in the copy) */
};

struct cmdline {
	char text[CMDLINE_MAX];		/* the line as given */
	char copy[CMDLINE_MAX];		/* tokenised copy the values point into */
	const struct param_spec *specs;
	size_t nspecs;
	struct param_value vals[CMDLINE_MAX_PARAMS];
};

/* Parse src against specs. Returns 0, or -EINVAL with err filled. */
int cmdline_parse(struct cmdline *cl, const char *src,
		  const struct param_spec *specs, size_t nspecs,
		  char *err, size_t errlen);

/* Lookup helpers; key must be in the spec table. */
const struct param_value *cmdline_get(const struct cmdline *cl,
				      const char *key);
bool cmdline_flag(const struct cmdline *cl, const char *key);
u64 cmdline_uint(const struct cmdline *cl, const char *key, u64 dflt);
const char *cmdline_str(const struct cmdline *cl, const char *key,
			const char *dflt);

#endif
