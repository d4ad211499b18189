/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Command-line parser: pure code, unit-tested on the host. */
#include <kfront/cmdline.h>
#include <kfront/errno.h>
#include <kfront/panic.h>
#include <kfront/printk.h>
#include <kfront/string.h>

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int find_spec(const struct cmdline *cl, const char *key)
{
	for (size_t i = 0; i < cl->nspecs; i++) {
		if (!strcmp(cl->specs[i].key, key))
			return (int)i;
	}
	return -1;
}

/* Append "bench, exit, runs, ..." to the message in err. */
static void append_keys(const struct cmdline *cl, char *err, size_t errlen)
{
	size_t off = strlen(err);

	for (size_t i = 0; i < cl->nspecs && off < errlen; i++)
		off += (size_t)snprintf(err + off, errlen - off, "%s%s",
					i ? ", " : "", cl->specs[i].key);
}

/* Append "auto|halt|reboot|qemu" to the message in err. */
static void append_choices(const struct param_spec *sp, char *err,
			   size_t errlen)
{
	size_t off = strlen(err);

	for (u32 i = 0; i < sp->nchoices && off < errlen; i++)
		off += (size_t)snprintf(err + off, errlen - off, "%s%s",
					i ? "|" : "", sp->choices[i]);
}

/* Append " (default 21, 7 with quick)": the table states every default,
 * so the message that asks for a value can name it. */
static void append_default(const struct param_spec *sp, char *err,
			   size_t errlen)
{
	size_t off = strlen(err);

	if (off >= errlen)
		return;
	if (sp->type == PARAM_ENUM && sp->dflt < sp->nchoices)
		snprintf(err + off, errlen - off, " (default %s)",
			 sp->choices[sp->dflt]);
	else if (sp->type == PARAM_UINT && sp->dflt && sp->quick_dflt)
		snprintf(err + off, errlen - off, " (default %llu, %llu with %s)",
			 (unsigned long long)sp->dflt,
			 (unsigned long long)sp->quick_dflt, CMDLINE_QUICK_KEY);
	else if (sp->type == PARAM_UINT && sp->dflt)
		snprintf(err + off, errlen - off, " (default %llu)",
			 (unsigned long long)sp->dflt);
}

const char *cmdline_clip(char *buf, size_t n, const char *val)
{
	size_t len = strlen(val);

	if (len <= CMDLINE_CLIP_MAX)
		return val;
	snprintf(buf, n, "%.*s... (%zu bytes)", CMDLINE_CLIP_MAX - 16, val,
		 len);
	return buf;
}

int cmdline_parse_uint(const char *s, u64 *out)
{
	u64 v = 0;
	unsigned base = 10;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s[2]) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			return -EINVAL;
		if (v > (~0ULL - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

/* Index of val among the spec's choices, or -1. */
static int match_choice(const struct param_spec *sp, const char *val)
{
	for (u32 i = 0; i < sp->nchoices; i++) {
		if (!strcmp(sp->choices[i], val))
			return (int)i;
	}
	return -1;
}

static int set_value(struct cmdline *cl, int i, const char *key,
		     const char *val, char *err, size_t errlen)
{
	const struct param_spec *sp = &cl->specs[i];
	struct param_value *pv = &cl->vals[i];
	char clip[CMDLINE_CLIP_BUF];
	int c;

	if (sp->type == PARAM_FLAG) {
		if (val) {
			snprintf(err, errlen, "'%s' is a flag and takes no value (got '%s=%s')",
				 key, key, cmdline_clip(clip, sizeof(clip), val));
			return -EINVAL;
		}
		pv->num = 1;
		goto done;
	}
	if (!val || !*val) {
		snprintf(err, errlen, "'%s' needs a value: %s=%s", key, key,
			 sp->type == PARAM_ENUM ? "" : "...");
		append_choices(sp, err, errlen);
		append_default(sp, err, errlen);
		return -EINVAL;
	}
	switch (sp->type) {
	case PARAM_UINT:
		if (cmdline_parse_uint(val, &pv->num) || pv->num < sp->min ||
		    pv->num > sp->max) {
			snprintf(err, errlen,
				 "bad value '%s' for '%s': expected an integer from %llu to %llu",
				 cmdline_clip(clip, sizeof(clip), val), key, (unsigned long long)sp->min,
				 (unsigned long long)sp->max);
			append_default(sp, err, errlen);
			return -EINVAL;
		}
		break;
	case PARAM_ENUM:
		c = match_choice(sp, val);
		if (c < 0) {
			snprintf(err, errlen,
				 "bad value '%s' for '%s': expected one of ",
				 cmdline_clip(clip, sizeof(clip), val), key);
			append_choices(sp, err, errlen);
			append_default(sp, err, errlen);
			return -EINVAL;
		}
		pv->num = (u64)c;
		break;
	default:
		break;
	}
	pv->str = val;
done:
	pv->set = true;
	pv->source = cl->nsources;
	return 0;
}

/* A key repeated within one source is a mistake: which value was meant? */
static int check_repeat(const struct cmdline *cl, int i, const char *key,
			const char *origin, char *err, size_t errlen)
{
	if (!cl->vals[i].set || cl->vals[i].source != cl->nsources)
		return 0;
	snprintf(err, errlen, "'%s' is given more than once in the %s; give each key once",
		 key, origin);
	return -EINVAL;
}

static int parse_word(struct cmdline *cl, char *word, const char *origin,
		      char *err, size_t errlen)
{
	char *eq = strchr(word, '=');
	const char *val = NULL;
	char clip[CMDLINE_CLIP_BUF];
	int i;

	if (eq) {
		*eq = '\0';
		val = eq + 1;
	}
	if (!*word) {
		snprintf(err, errlen, "argument '=%s' has no key",
			 cmdline_clip(clip, sizeof(clip), val));
		return -EINVAL;
	}
	i = find_spec(cl, word);
	if (i < 0) {
		snprintf(err, errlen, "unknown kernel argument '%s'; valid keys: ",
			 cmdline_clip(clip, sizeof(clip), word));
		append_keys(cl, err, errlen);
		return -EINVAL;
	}
	if (check_repeat(cl, i, word, origin, err, errlen))
		return -EINVAL;
	return set_value(cl, i, word, val, err, errlen);
}

/*
 * Payloads of records are printable ASCII, and the suite_begin record
 * quotes the line: a byte that would need escaping could make it longer
 * than its source. No parameter needs such bytes, so they are refused.
 */
static int check_bytes(const char *src, size_t len, const char *origin,
		       char *err, size_t errlen)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)src[i];

		if (is_blank((char)c) || (c > 0x20 && c < 0x7f && c != '"' && c != '\\'))
			continue;
		snprintf(err, errlen,
			 "byte 0x%02x at offset %zu of the %s is not allowed: "
			 "use printable ASCII without quotes or backslashes",
			 c, i, origin);
		return -EINVAL;
	}
	return 0;
}

/* Keep a word in the line as given, one blank after the previous one. */
static void append_text(struct cmdline *cl, const char *word, size_t n)
{
	if (cl->text_len)
		cl->text[cl->text_len++] = ' ';
	memcpy(cl->text + cl->text_len, word, n);
	cl->text_len += n;
	cl->text[cl->text_len] = '\0';
}

static bool enum_spec_ok(const struct param_spec *sp)
{
	if (!sp->choices || !sp->nchoices)
		return false;
	for (u32 i = 0; i < sp->nchoices; i++) {
		if (!sp->choices[i])	/* a gap in the designated initializers */
			return false;
	}
	return sp->dflt < sp->nchoices || sp->dflt == PARAM_NO_DFLT;
}

static bool uint_in_range(const struct param_spec *sp, u64 v)
{
	return v >= sp->min && v <= sp->max;
}

/* 0 is "not stated" for both defaults (struct param_spec). */
static bool uint_spec_ok(const struct param_spec *sp)
{
	return sp->min <= sp->max &&
	       (!sp->dflt || uint_in_range(sp, sp->dflt)) &&
	       (!sp->quick_dflt || uint_in_range(sp, sp->quick_dflt));
}

/* A table mistake is the build's bug: say which entry, before any use. */
static int check_spec(const struct param_spec *sp, char *err, size_t errlen)
{
	bool ok = true;

	if (sp->type == PARAM_ENUM)
		ok = enum_spec_ok(sp);
	else if (sp->type == PARAM_UINT)
		ok = uint_spec_ok(sp);
	if (ok)
		return 0;
	snprintf(err, errlen,
		 "parameter table: '%s' has a missing choice or a default outside its range",
		 sp->key);
	return -EINVAL;
}

int cmdline_init(struct cmdline *cl, const struct param_spec *specs,
		 size_t nspecs, char *err, size_t errlen)
{
	memset(cl, 0, sizeof(*cl));
	cl->specs = specs;
	cl->nspecs = nspecs;
	if (nspecs > CMDLINE_MAX_PARAMS) {
		snprintf(err, errlen, "too many parameter specs (%zu), the limit is %d",
			 nspecs, CMDLINE_MAX_PARAMS);
		return -EINVAL;
	}
	for (size_t i = 0; i < nspecs; i++) {
		int ret = check_spec(&specs[i], err, errlen);

		if (ret)
			return ret;
	}
	return 0;
}

int cmdline_add(struct cmdline *cl, const char *src, const char *origin,
		char *err, size_t errlen)
{
	return cmdline_add_bytes(cl, src, src ? strlen(src) : 0, origin, err,
				 errlen);
}

int cmdline_add_bytes(struct cmdline *cl, const char *src, size_t len,
		      const char *origin, char *err, size_t errlen)
{
	size_t given;
	char *p;

	/* NULs that end a file are its end, not part of the line; one
	 * inside it would hide what follows it, so check_bytes refuses it */
	while (len && !src[len - 1])
		len--;
	given = cl->given_len + (cl->given_len && len ? 1 : 0) + len;
	if (given >= CMDLINE_MAX) {
		snprintf(err, errlen,
			 "command line too long: %zu bytes, the limit is %d",
			 given, CMDLINE_MAX - 1);
		return -E2BIG;
	}
	if (cl->nsources == CMDLINE_MAX_SOURCES) {
		snprintf(err, errlen, "more than %d command-line sources",
			 CMDLINE_MAX_SOURCES);
		return -EINVAL;
	}
	if (check_bytes(src, len, origin, err, errlen))
		return -EINVAL;
	cl->given_len = given;
	cl->nsources++;
	if (!len)
		return 0;
	p = cl->copy + cl->copy_len;
	memcpy(p, src, len);
	p[len] = '\0';
	cl->copy_len += len + 1;
	while (*p) {
		char *word;
		int ret;

		while (*p && is_blank(*p))
			p++;
		if (!*p)
			break;
		word = p;
		while (*p && !is_blank(*p))
			p++;
		append_text(cl, word, (size_t)(p - word));
		if (*p)
			*p++ = '\0';
		ret = parse_word(cl, word, origin, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}

int cmdline_parse(struct cmdline *cl, const char *src,
		  const struct param_spec *specs, size_t nspecs,
		  char *err, size_t errlen)
{
	int ret = cmdline_init(cl, specs, nspecs, err, errlen);

	return ret ? ret : cmdline_add(cl, src, "command line", err, errlen);
}

/* The index of key in the table; a key outside it is the caller's bug. */
static size_t known_spec(const struct cmdline *cl, const char *key)
{
	int i = find_spec(cl, key);

	if (i < 0)
		panic("command line: lookup of '%s', which is not in the parameter table",
		      key);
	return (size_t)i;
}

const struct param_spec *cmdline_spec(const struct cmdline *cl,
				      const char *key)
{
	return &cl->specs[known_spec(cl, key)];
}

const struct param_value *cmdline_get(const struct cmdline *cl,
				      const char *key)
{
	return &cl->vals[known_spec(cl, key)];
}

bool cmdline_has(const struct cmdline *cl, const char *key)
{
	return cmdline_get(cl, key)->set;
}

bool cmdline_flag(const struct cmdline *cl, const char *key)
{
	return cmdline_has(cl, key);
}

/* Quick mode may be absent from a table (tests use small ones). */
static bool quick_given(const struct cmdline *cl)
{
	int i = find_spec(cl, CMDLINE_QUICK_KEY);

	return i >= 0 && cl->vals[i].set;
}

u64 cmdline_uint(const struct cmdline *cl, const char *key)
{
	size_t i = known_spec(cl, key);
	const struct param_spec *sp = &cl->specs[i];

	if (cl->vals[i].set)
		return cl->vals[i].num;
	if (sp->quick_dflt && quick_given(cl))
		return sp->quick_dflt;
	return sp->dflt;
}

const char *cmdline_str(const struct cmdline *cl, const char *key)
{
	size_t i = known_spec(cl, key);
	const struct param_spec *sp = &cl->specs[i];

	if (cl->vals[i].set)
		return cl->vals[i].str;
	if (sp->quick_dflt_str && quick_given(cl))
		return sp->quick_dflt_str;
	return sp->dflt_str;
}
