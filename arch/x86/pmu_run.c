/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Using the groups pmu_init() built: start, read, stop. Every entry point
 * checks its state first, so an unavailable PMU (zero counters) is safe
 * to call into at any time. */
#include <asm/pmu.h>
#include <kfront/compiler.h>
#include <kfront/errno.h>
#include <kfront/printk.h>
#include "pmu_internal.h"

static __measured_path const struct pmu_group *
group_get(const struct pmu *p, int g)
{
	if (!p->available || g < 0 || g >= p->nr_groups)
		return NULL;
	return &p->groups[g];
}

int pmu_num_groups(const struct pmu *p)
{
	return p->available ? p->nr_groups : 0;
}

int pmu_group_counters(const struct pmu *p, int g, const char *names[],
		       int max)
{
	const struct pmu_group *grp = group_get(p, g);
	int i;

	if (!grp)
		return 0;
	for (i = 0; i < grp->nr && i < max; i++)
		names[i] = pmu_counter_name(grp->slot[i].id);
	return i;
}

int pmu_group_rdpmc(const struct pmu *p, int g, u32 *ecx, int max)
{
	const struct pmu_group *grp = group_get(p, g);
	int i;

	if (!grp)
		return 0;
	for (i = 0; i < grp->nr && i < max; i++)
		ecx[i] = grp->slot[i].rdpmc_ecx;
	return i;
}

void pmu_stop(struct pmu *p)
{
	const struct pmu_group *grp;

	if (p->active < 0)
		return;
	grp = group_get(p, p->active);
	p->active = -1;
	if (grp)
		p->drv->stop(p, grp);	/* a fault is left in p->error */
}

int pmu_start_group(struct pmu *p, int g)
{
	const struct pmu_group *grp;
	int err;

	if (!p->available)
		return -ENODEV;
	grp = group_get(p, g);
	if (!grp)
		return -EINVAL;
	pmu_stop(p);
	err = p->drv->start(p, grp);
	if (unlikely(err)) {
		p->drv->stop(p, grp);	/* leave nothing half-enabled */
		return err;
	}
	p->active = g;
	return 0;
}

int pmu_read(struct pmu *p, u64 *vals)
{
	const struct pmu_group *grp;
	u32 ecx;
	int i;

	if (p->active < 0 || !(grp = group_get(p, p->active)))
		return -ENODEV;
	for (i = 0; i < grp->nr; i++) {
		ecx = grp->slot[i].rdpmc_ecx;
		if (unlikely(p->ops->rdpmc(p->ops->ctx, ecx, &vals[i]))) {
			snprintf(p->error, sizeof(p->error),
				 "rdpmc of counter 0x%x raised %s", ecx,
				 msr_fault_name(p->ops));
			return -EFAULT;
		}
	}
	return grp->nr;
}

__measured_path u64 pmu_delta(const struct pmu *p, int g, int i, u64 start,
			      u64 end)
{
	const struct pmu_group *grp = group_get(p, g);
	u64 mask = ~0ULL;
	u8 width;

	if (grp && i >= 0 && i < grp->nr) {
		width = grp->slot[i].width;
		if (width && width < 64)
			mask = (1ULL << width) - 1;
	}
	return (end - start) & mask;
}
