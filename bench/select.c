/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Glob lists for bench= and variant=, number lists for footprint=. */
#include <kfront/errno.h>
#include <kfront/select.h>
#include <kfront/string.h>

bool glob_match(const char *pat, const char *name)
{
	const char *star = NULL, *resume = NULL;

	while (*name) {
		if (*pat == '*') {
			star = pat++;
			resume = name;
		} else if (*pat == '?' || *pat == *name) {
			pat++;
			name++;
		} else if (star) {
			pat = star + 1;	/* let the star swallow one more */
			name = ++resume;
		} else {
			return false;
		}
	}
	while (*pat == '*')
		pat++;
	return !*pat;
}

bool select_match(const char *list, const char *name)
{
	char pat[64];

	while (*list) {
		size_t n = 0;

		while (*list && *list != ',') {
			if (n + 1 < sizeof(pat))
				pat[n++] = *list;
			list++;
		}
		pat[n] = '\0';
		if (*list == ',')
			list++;
		if (n && glob_match(pat, name))
			return true;
	}
	return false;
}

bool select_exact(const char *list, const char *name)
{
	size_t n = strlen(name);

	while (*list) {
		const char *end = strchr(list, ',');
		size_t len = end ? (size_t)(end - list) : strlen(list);

		if (len == n && !strncmp(list, name, n))
			return true;
		if (!end)
			break;
		list = end + 1;
	}
	return false;
}

int parse_u32_list(const char *list, u32 *out, int max)
{
	int count = 0;

	while (*list) {
		u64 v = 0;
		const char *start = list;

		while (*list >= '0' && *list <= '9') {
			v = v * 10 + (u64)(*list++ - '0');
			if (v > 0xffffffffULL)
				return -EINVAL;
		}
		if (list == start || (*list && *list != ',') || count == max)
			return -EINVAL;
		out[count++] = (u32)v;
		if (*list == ',' && !*++list)
			return -EINVAL;	/* trailing comma */
	}
	return count;
}
