/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Packing the planned events into groups that fit the counters: cycles
 * and instructions open every group, each further event goes into the
 * first group with a GP counter it may use (some Intel events only count
 * on GP 0-3), and one MSR_PEBS_FRONTEND sub-event per group. */
#include <asm/pmu.h>
#include <kfront/compiler.h>
#include <kfront/string.h>
#include "pmu_internal.h"

/* Placement order of the GP events: the DSB/MITE pair first, so the two
 * halves of one ratio always share a group (and a run). */
static const u8 place_order[] = {
	PMU_UOPS_DSB, PMU_UOPS_MITE, PMU_L1I_MISSES, PMU_ITLB_MISSES,
	PMU_BRANCH_MISSES, PMU_FE_STALLS, PMU_L2_CODE_READS,
};

static void group_add(struct pmu *p, struct pmu_group *g, int id,
		      const struct pmu_event *ev, int gp)
{
	struct pmu_slot *s = &g->slot[g->nr++];

	s->id = id;
	s->fixed = false;
	s->index = gp;
	s->width = p->gp_width;
	s->rdpmc_ecx = gp;
	s->evtsel = p->drv->encode(ev);
	s->hw_name = ev->hw_name;
	g->gp_used |= 1U << gp;
	if (ev->frontend)
		g->frontend = ev->frontend;
}

/* Lowest free GP counter that can count ev in g, or -1. */
static int group_pick(const struct pmu *p, const struct pmu_group *g,
		      const struct pmu_event *ev)
{
	u32 allowed = ev->gp_mask ? ev->gp_mask : 0xff;
	int i;

	/* One MSR_PEBS_FRONTEND per core: one sub-event per group. */
	if (ev->frontend && g->frontend && g->frontend != ev->frontend)
		return -1;
	if (g->nr >= PMU_MAX_SLOTS)
		return -1;
	allowed &= ~(u32)g->gp_used;
	for (i = 0; i < p->num_gp; i++)
		if (allowed & (1U << i))
			return i;
	return -1;
}

/* A new group holding the counters every group carries: cycles and
 * instructions, on fixed counters where the plan says so. */
static struct pmu_group *group_new(struct pmu *p, const struct pmu_plan *pl)
{
	struct pmu_group *g = &p->groups[p->nr_groups++];
	int id, gp;

	memset(g, 0, sizeof(*g));
	for (id = PMU_CYCLES; id <= PMU_INSTRUCTIONS; id++) {
		if (pl->fixed[id] >= 0) {
			struct pmu_slot *s = &g->slot[g->nr++];

			s->id = id;
			s->fixed = true;
			s->index = pl->fixed[id];
			s->width = p->fixed_width;
			s->rdpmc_ecx = RDPMC_FIXED | s->index;
			s->hw_name = pl->fixed_name[id];
			g->fixed_used |= 1U << s->index;
		} else if (pl->ev[id]) {
			gp = group_pick(p, g, pl->ev[id]);
			if (gp >= 0)
				group_add(p, g, id, pl->ev[id], gp);
		}
	}
	return g;
}

/* Put one GP event into the first group with room, opening a new group
 * when none has; false when no group could ever hold it. */
static bool place_event(struct pmu *p, const struct pmu_plan *pl, int id)
{
	const struct pmu_event *ev = pl->ev[id];
	struct pmu_group *g;
	int i, gp;

	for (i = 0; i < p->nr_groups; i++) {
		gp = group_pick(p, &p->groups[i], ev);
		if (gp >= 0) {
			group_add(p, &p->groups[i], id, ev, gp);
			return true;
		}
	}
	if (p->nr_groups >= PMU_MAX_GROUPS)
		return false;
	g = group_new(p, pl);
	gp = group_pick(p, g, ev);
	if (gp < 0) {
		p->nr_groups--;	/* would only repeat the base counters */
		return false;
	}
	group_add(p, g, id, ev, gp);
	return true;
}

/* Base counters (cycles, instructions) that fit in no group at all. */
static void note_unplaced_base(struct pmu *p, const struct pmu_plan *pl)
{
	int id, i;

	for (id = PMU_CYCLES; id <= PMU_INSTRUCTIONS; id++) {
		bool found = false;

		if (pl->fixed[id] < 0 && !pl->ev[id])
			continue;	/* already reported by the probe */
		for (i = 0; p->nr_groups && i < p->groups[0].nr; i++)
			found |= p->groups[0].slot[i].id == id;
		if (!found)
			pmu_set_missing(p, id, "no counter left for it");
	}
}

void pmu_build_groups(struct pmu *p, const struct pmu_plan *pl)
{
	size_t i;

	p->nr_groups = 0;
	for (i = 0; i < ARRAY_SIZE(place_order); i++) {
		int id = place_order[i];

		if (pl->ev[id] && !place_event(p, pl, id))
			pmu_set_missing(p, id, "no general-purpose counter "
					"can count it");
	}
	if (!p->nr_groups)
		group_new(p, pl);
	if (!p->groups[0].nr)
		p->nr_groups = 0;	/* not a single counter */
	note_unplaced_base(p, pl);
}
