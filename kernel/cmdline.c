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

/* "bench, exit, runs, ..." for error messages. */
static void list_keys(const struct cmdline *cl, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < cl->nspecs && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
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
		pv->set = true;
		pv->num = 1;
		return 0;
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
	pv->set = true;
	pv->str = val;
	return 0;
}

static int parse_word(struct cmdline *cl, char *word, char *err, size_t errlen)
{
	char *eq = strchr(word, '=');
	const char *val = NULL;
	char keys[400];
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
		list_keys(cl, keys, sizeof(keys));
		snprintf(err, errlen, "unknown kernel argument '%s'; valid keys: %s",
			 word, keys);
		return -EINVAL;
	}
	return set_value(cl, i, word, val, err, errlen);
}

int cmdline_parse(struct cmdline *cl, const char *src,
		  const struct param_spec *specs, size_t nspecs,
		  char *err, size_t errlen)
{
	size_t len = src ? strnlen(src, CMDLINE_MAX) : 0;
	char *p;

	memset(cl, 0, sizeof(*cl));
	cl->specs = specs;
	cl->nspecs = nspecs;
	if (nspecs > CMDLINE_MAX_PARAMS) {
		snprintf(err, errlen, "too many parameter specs (%zu)", nspecs);
		return -EINVAL;
	}
	if (len >= CMDLINE_MAX) {
		snprintf(err, errlen, "command line longer than %d bytes",
			 CMDLINE_MAX - 1);
		return -EINVAL;
	}
	if (len) {
		memcpy(cl->copy, src, len);
		memcpy(cl->text, src, len);
	}
	cl->copy[len] = '\0';
	cl->text[len] = '\0';
	for (p = cl->copy; *p;) {
		char *word;
		int ret;

		while (*p && is_blank(*p))
			p++;
		if (!*p)
			break;
		word = p;
		while (*p && !is_blank(*p))
			p++;
		if (*p)
			*p++ = '\0';
		ret = parse_word(cl, word, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}

const struct param_value *cmdline_get(const struct cmdline *cl,
				      const char *key)
{
	int i = find_spec(cl, key);

	return i < 0 ? NULL : &cl->vals[i];
}

bool cmdline_flag(const struct cmdline *cl, const char *key)
{
	const struct param_value *v = cmdline_get(cl, key);

	return v && v->set;
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
