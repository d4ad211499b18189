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

int select_next_item(const char **list, char *item, size_t size)
{
	const char *p = *list;
	size_t n = 0;

	while (p[n] && p[n] != ',')
		n++;
	*list = p[n] == ',' ? p + n + 1 : p + n;
	if (n >= size) {
		item[0] = '\0';
		return -E2BIG;
	}
	memcpy(item, p, n);
	item[n] = '\0';
	return (int)n;
}

bool select_match(const char *list, const char *name)
{
	char pat[SELECT_ITEM_MAX];

	while (*list) {
		if (select_next_item(&list, pat, sizeof(pat)) > 0 &&
		    glob_match(pat, name))
			return true;
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
