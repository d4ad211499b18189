/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Red-black tree invariants under random inserts and erases, checked
 * after every operation against a sorted reference array. */
#include <stdlib.h>
#include <string.h>
#include <kfront/rbtree.h>
#include "check.h"

#define NR_KEYS		1024
#define NR_OPS		40000

struct item {
	struct rb_node node;
	u32 key;
	bool in_tree;
};

static struct item items[NR_KEYS];
static struct rb_root_cached tree = RB_ROOT_CACHED;
static int nr_in_tree;

static void insert(struct item *it)
{
	struct rb_node **link = &tree.rb_root.rb_node, *parent = NULL;
	bool leftmost = true;

	while (*link) {
		struct item *e = rb_entry(*link, struct item, node);

		parent = *link;
		if (it->key < e->key) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			leftmost = false;
		}
	}
	rb_link_node(&it->node, parent, link);
	rb_insert_color_cached(&it->node, &tree, leftmost);
	it->in_tree = true;
	nr_in_tree++;
}

static void erase(struct item *it)
{
	rb_erase_cached(&it->node, &tree);
	RB_CLEAR_NODE(&it->node);
	it->in_tree = false;
	nr_in_tree--;
}

/* Returns the black height of the subtree, or -1 after a failed check. */
static int check_subtree(struct rb_node *n, struct rb_node *parent,
			 int *count, bool *ok)
{
	int lh, rh;

	if (!n)
		return 1;
	(*count)++;
	if (rb_parent(n) != parent)
		*ok = false;
	if (rb_is_red(n) && parent && rb_is_red(parent))
		*ok = false;
	if (n->rb_left && rb_entry(n->rb_left, struct item, node)->key >
			  rb_entry(n, struct item, node)->key)
		*ok = false;
	if (n->rb_right && rb_entry(n->rb_right, struct item, node)->key <
			   rb_entry(n, struct item, node)->key)
		*ok = false;
	lh = check_subtree(n->rb_left, n, count, ok);
	rh = check_subtree(n->rb_right, n, count, ok);
	if (lh != rh)
		*ok = false;
	return lh + (rb_is_black(n) ? 1 : 0);
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/* Structure, colours, black height, then in-order walks both ways
 * against the sorted reference. */
static bool check_tree(void)
{
	static u32 ref[NR_KEYS];
	struct rb_node *n;
	int count = 0, i, nref = 0;
	bool ok = true;

	if (tree.rb_root.rb_node && !rb_is_black(tree.rb_root.rb_node))
		ok = false;
	check_subtree(tree.rb_root.rb_node, NULL, &count, &ok);
	if (count != nr_in_tree)
		ok = false;
	for (i = 0; i < NR_KEYS; i++)
		if (items[i].in_tree)
			ref[nref++] = items[i].key;
	qsort(ref, nref, sizeof(ref[0]), cmp_u32);
	if (rb_first_cached(&tree) != rb_first(&tree.rb_root))
		ok = false;
	i = 0;
	for (n = rb_first(&tree.rb_root); n; n = rb_next(n))
		if (i >= nref || rb_entry(n, struct item, node)->key != ref[i++])
			ok = false;
	if (i != nref)
		ok = false;
	for (n = rb_last(&tree.rb_root); n; n = rb_prev(n))
		if (i <= 0 || rb_entry(n, struct item, node)->key != ref[--i])
			ok = false;
	return ok && i == 0;
}

static void test_random(unsigned int seed, u32 key_range)
{
	int op, bad = 0;

	srand(seed);
	for (op = 0; op < NR_KEYS; op++) {
		items[op].key = (u32)rand() % key_range;	/* duplicates too */
		items[op].in_tree = false;
		RB_CLEAR_NODE(&items[op].node);
	}
	for (op = 0; op < NR_OPS; op++) {
		struct item *it = &items[rand() % NR_KEYS];

		/* Bias towards growth early, shrinkage late. */
		if (!it->in_tree && (op < NR_OPS / 2 || rand() % 3 == 0))
			insert(it);
		else if (it->in_tree)
			erase(it);
		if (!check_tree() && bad++ < 3)
			fprintf(stderr, "seed %u: invariant broken at op %d\n",
				seed, op);
	}
	CHECK(bad == 0);
	for (op = 0; op < NR_KEYS; op++)
		if (items[op].in_tree)
			erase(&items[op]);
	CHECK(check_tree());
	CHECK(RB_EMPTY_ROOT(&tree.rb_root));
	CHECK(rb_first_cached(&tree) == NULL);
}

/* Ascending and descending runs hit the rotation cases systematically. */
static void test_sequential(void)
{
	int i;

	for (i = 0; i < NR_KEYS; i++) {
		items[i].key = i;
		insert(&items[i]);
	}
	CHECK(check_tree());
	CHECK(rb_first_cached(&tree) == &items[0].node);
	for (i = 0; i < NR_KEYS; i++) {
		erase(&items[i]);
		if (i % 97 == 0)
			CHECK(check_tree());
	}
	for (i = NR_KEYS - 1; i >= 0; i--)
		insert(&items[i]);
	CHECK(check_tree());
	for (i = NR_KEYS - 1; i >= 0; i--)
		erase(&items[i]);
	CHECK(check_tree());
	CHECK(RB_EMPTY_ROOT(&tree.rb_root));
}

int main(void)
{
	test_sequential();
	test_random(1, 1u << 30);
	test_random(2, 64);		/* heavy duplicates */
	test_random(3, 4096);
	return check_report("test_rbtree");
}
