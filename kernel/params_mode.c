/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The keys each mode of a boot reads: a key given where nothing reads it
 * is refused (kernel/params.c holds the table itself). */
#include <kfront/compiler.h>
#include <kfront/errno.h>
#include <kfront/params.h>
#include <kfront/printk.h>

/*
 * Keys only one mode reads. A boot either serves (serve=) or runs the
 * suite, and the real NIC is set up only for one of peer= and serve=: a key
 * given where nothing reads it would do nothing, silently.
 */
static const char *const suite_keys[] = {
	"bench", "variant", "runs", "iters", "warmup", "footprint",
	CMDLINE_QUICK_KEY, "method", "state", "budget_ms", "peer",
};
static const char *const nic_keys[] = { "ip", "gw", "nic", "pci" };

/* The first of keys[] that was given, or NULL. */
static const char *first_given(const struct cmdline *cl,
			       const char *const *keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (cmdline_has(cl, keys[i]))
			return keys[i];
	return NULL;
}

int params_check_mode(const struct cmdline *cl, char *err, size_t errlen)
{
	bool serve = cmdline_has(cl, "serve");
	const char *key;

	if (serve) {
		key = first_given(cl, suite_keys, ARRAY_SIZE(suite_keys));
		if (key) {
			snprintf(err, errlen, "'%s' has no effect with serve=: the "
				 "network services run instead of the benchmarks",
				 key);
			return -EINVAL;
		}
		return 0;
	}
	if (cmdline_has(cl, "serve_idle_ms")) {
		snprintf(err, errlen, "'serve_idle_ms' has no effect without serve=");
		return -EINVAL;
	}
	key = first_given(cl, nic_keys, ARRAY_SIZE(nic_keys));
	if (key && !cmdline_has(cl, "peer")) {
		snprintf(err, errlen, "'%s' sets up the real NIC of peer= (the "
			 "net.wire_* benchmarks) or serve=: without either it "
			 "has no effect", key);
		return -EINVAL;
	}
	return 0;
}
