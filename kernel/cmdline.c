/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Command-line parser: pure code, unit-tested on the host. */
#include <kfront/cmdline.h>
#include <kfront/errno.h>
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

static int parse_uint(const char *s, u64 *out)
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

/* Index of value in "a|b|c", or -1. */
static int match_choice(const char *choices, const char *val)
{
	size_t vlen = strlen(val);
	int idx = 0;
	const char *p = choices;

	while (*p) {
		const char *bar = strchr(p, '|');
		size_t n = bar ? (size_t)(bar - p) : strlen(p);

		if (n == vlen && !strncmp(p, val, n))
			return idx;
		if (!bar)
			break;
		p = bar + 1;
		idx++;
	}
	return -1;
}

static int set_value(struct cmdline *cl, int i, const char *key,
		     const char *val, char *err, size_t errlen)
{
	const struct param_spec *sp = &cl->specs[i];
	struct param_value *pv = &cl->vals[i];
	int c;

	if (sp->type == PARAM_FLAG) {
		if (val) {
			snprintf(err, errlen, "'%s' is a flag and takes no value (got '%s=%s')",
				 key, key, val);
			return -EINVAL;
		}
		pv->num = 1;
		goto done;
	}
	if (!val || !*val) {
		snprintf(err, errlen, "'%s' needs a value: %s=%s", key, key,
			 sp->type == PARAM_ENUM ? sp->choices : "...");
		return -EINVAL;
	}
	switch (sp->type) {
	case PARAM_UINT:
		if (parse_uint(val, &pv->num) || pv->num < sp->min ||
		    pv->num > sp->max) {
			snprintf(err, errlen,
				 "bad value '%s' for '%s': expected an integer from %llu to %llu",
				 val, key, (unsigned long long)sp->min,
				 (unsigned long long)sp->max);
			return -EINVAL;
		}
		break;
	case PARAM_ENUM:
		c = match_choice(sp->choices, val);
		if (c < 0) {
			snprintf(err, errlen,
				 "bad value '%s' for '%s': expected one of %s",
				 val, key, sp->choices);
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
	int i;

	if (eq) {
		*eq = '\0';
		val = eq + 1;
	}
	if (!*word) {
		snprintf(err, errlen, "argument '=%s' has no key", val);
		return -EINVAL;
	}
	i = find_spec(cl, word);
	if (i < 0) {
		snprintf(err, errlen, "unknown kernel argument '%s'; valid keys: ",
			 word);
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

int cmdline_init(struct cmdline *cl, const struct param_spec *specs,
		 size_t nspecs, char *err, size_t errlen)
{
	memset(cl, 0, sizeof(*cl));
	cl->specs = specs;
	cl->nspecs = nspecs;
	if (nspecs > CMDLINE_MAX_PARAMS) {
		snprintf(err, errlen, "too many parameter specs (%zu)", nspecs);
		return -EINVAL;
	}
	return 0;
}

int cmdline_add(struct cmdline *cl, const char *src, const char *origin,
		char *err, size_t errlen)
{
	size_t len = src ? strlen(src) : 0;
	size_t given = cl->given_len + (cl->given_len && len ? 1 : 0) + len;
	char *p;

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

const struct param_value *cmdline_get(const struct cmdline *cl,
				      const char *key)
{
	int i = find_spec(cl, key);

	return i < 0 ? NULL : &cl->vals[i];
}

bool cmdline_has(const struct cmdline *cl, const char *key)
{
	const struct param_value *v = cmdline_get(cl, key);

	return v && v->set;
}

bool cmdline_flag(const struct cmdline *cl, const char *key)
{
	return cmdline_has(cl, key);
}
u64 cmdline_uint(const struct cmdline *cl, const char *key, u64 dflt)
{
	const struct param_value *v = cmdline_get(cl, key);

	return v && v->set ? v->num : dflt;
}

const char *cmdline_str(const struct cmdline *cl, const char *key,
			const char *dflt)
{
	const struct param_value *v = cmdline_get(cl, key);

	return v && v->set ? v->str : dflt;
}
