/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel command line: "key=value" pairs and bare flags, checked against a
 * table of known parameters. Anything unknown or malformed is an error with
 * a message that lists what is valid: never a silent default. */
#ifndef KFRONT_CMDLINE_H
#define KFRONT_CMDLINE_H

#include <kfront/compiler.h>
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
/* Messages quote at most this much of a value (cmdline_clip()), so that
 * what they say after it (the key, the valid range) fits a console line
 * (printk cuts a line at 512 bytes). */
#define CMDLINE_CLIP_MAX	96
#define CMDLINE_CLIP_BUF	(CMDLINE_CLIP_MAX + 32)

enum param_type {
	PARAM_FLAG,	/* bare word, no value */
	PARAM_UINT,	/* decimal (or 0x hex) integer within [min, max] */
	PARAM_ENUM,	/* one of the choices; its value is the choice's index */
	PARAM_STR,	/* free text without blanks (globs, lists) */
};

/* The flag whose presence selects the quick_dflt of every PARAM_UINT and
 * the quick_dflt_str of every PARAM_STR that has one. */
#define CMDLINE_QUICK_KEY	"quick"

/*
 * One parameter, stated once: the parser, the lookups and the messages all
 * read this. A PARAM_ENUM's choices array is indexed by the enum its users
 * decode the value into, with designated initializers ([EXIT_MODE_HALT] =
 * "halt") so that the order cannot drift (kernel/params.c).
 */
struct param_spec {
	const char *key;
	enum param_type type;
	const char *const *choices;	/* PARAM_ENUM: nchoices names */
	u32 nchoices;
	u64 min, max;		/* PARAM_UINT */
	/* Not given: PARAM_UINT value or PARAM_ENUM index (or
	 * PARAM_NO_DFLT). A PARAM_UINT
	 * default of 0 outside [min, max] means "the user of the value
	 * decides" (iters: each benchmark's own count). */
	u64 dflt;
	/* PARAM_UINT not given but CMDLINE_QUICK_KEY given; 0: dflt holds. */
	u64 quick_dflt;
	const char *dflt_str;	/* PARAM_STR not given (NULL: no value) */
	/* PARAM_STR not given but CMDLINE_QUICK_KEY given; NULL: dflt_str holds. */
	const char *quick_dflt_str;
	const char *help;
	/* Who reads the value: bits the table's owner defines (kfront's:
	 * PARAM_READ_* in <kfront/params.h>), so that a key given where
	 * nothing reads it can be refused; the parser itself ignores them. */
	u32 readers;
};

/* dflt of a PARAM_ENUM that has none (crash=): only given values count. */
#define PARAM_NO_DFLT	(~0ULL)

/* The choices field pair of a PARAM_ENUM spec, from its names array. */
#define PARAM_CHOICES(names)	.choices = (names), .nchoices = ARRAY_SIZE(names)

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
/* Starts an empty command line; -EINVAL with err filled if a spec is
 * inconsistent (a choice missing, a default outside its range). */
int cmdline_init(struct cmdline *cl, const struct param_spec *specs,
		 size_t nspecs, char *err, size_t errlen);
/* Parse one source (origin names it in messages). Returns 0, or -EINVAL
 * (bad word, repeated key) or -E2BIG (over CMDLINE_MAX) with err filled. */
int cmdline_add(struct cmdline *cl, const char *src, const char *origin,
		char *err, size_t errlen);
/* The same for a source of len bytes (a file's): NULs at its end are
 * dropped, and one before its last other byte is refused like any
 * other byte that is not allowed, never taken as the end. */
int cmdline_add_bytes(struct cmdline *cl, const char *src, size_t len,
		      const char *origin, char *err, size_t errlen);
/* cmdline_init and cmdline_add of a single source. */
int cmdline_parse(struct cmdline *cl, const char *src,
		  const struct param_spec *specs, size_t nspecs,
		  char *err, size_t errlen);

/* val as a message quotes it: whole up to CMDLINE_CLIP_MAX bytes, else
 * its start, "..." and its length, written to buf (CMDLINE_CLIP_BUF). */
const char *cmdline_clip(char *buf, size_t n, const char *val);

/*
 * Lookups. key must be in the spec table: looking up any other key is a
 * bug in the caller (a typo, a parameter removed from the table), so it
 * panics instead of answering "not given". A key that was not given
 * answers its spec's default.
 */
const struct param_value *cmdline_get(const struct cmdline *cl,
				      const char *key);
const struct param_spec *cmdline_spec(const struct cmdline *cl,
				      const char *key);
/* True if key was given (flag or key=value). */
bool cmdline_has(const struct cmdline *cl, const char *key);
bool cmdline_flag(const struct cmdline *cl, const char *key);
/* PARAM_UINT value, or PARAM_ENUM choice index. */
u64 cmdline_uint(const struct cmdline *cl, const char *key);
const char *cmdline_str(const struct cmdline *cl, const char *key);
/* A number as a PARAM_UINT value is written (decimal, or hex after 0x):
 * 0, -EINVAL (not a number) or -ERANGE (over 64 bits). For values a
 * parameter's own reader decodes from a PARAM_STR (placement=). */
int cmdline_parse_uint(const char *s, u64 *out);

#endif
