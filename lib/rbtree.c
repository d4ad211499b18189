/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Red-black tree rebalancing: insert and erase fix-ups, in-order walks. */
#include <kfront/rbtree.h>

/*
 * The fix-ups are symmetric: every case exists once with "left" and once
 * mirrored. Writing them over a direction index (0 = left, 1 = right)
 * keeps one copy of each case instead of two that could drift apart.
 */
#define RB_LEFT		0
#define RB_RIGHT	1

static inline struct rb_node **rb_slot(struct rb_node *n, int dir)
{
	return dir == RB_LEFT ? &n->rb_left : &n->rb_right;
}

static inline struct rb_node *rb_kid(struct rb_node *n, int dir)
{
	return *rb_slot(n, dir);
}

static inline void rb_set_parent(struct rb_node *n, struct rb_node *p)
{
	n->__rb_parent_color = (unsigned long)p | rb_color(n);
}

static inline void rb_set_color(struct rb_node *n, unsigned long color)
{
	n->__rb_parent_color = (n->__rb_parent_color & ~1UL) | color;
}

/* Missing children are leaves, and leaves are black. */
static inline bool rb_black_or_nil(const struct rb_node *n)
{
	return !n || rb_is_black(n);
}

/* Make the link that pointed at old (from parent, or the root) point at new. */
static inline void rb_relink(struct rb_node *parent, struct rb_node *old,
			     struct rb_node *new, struct rb_root *root)
{
	if (!parent)
		root->rb_node = new;
	else if (parent->rb_left == old)
		parent->rb_left = new;
	else
		parent->rb_right = new;
}

/*
 * Rotate x down towards dir: its child on the other side, y, takes x's
 * place and x becomes y's dir child. Colours are left to the caller.
 */
static void rb_rotate(struct rb_node *x, int dir, struct rb_root *root)
{
	struct rb_node *y = rb_kid(x, !dir);
	struct rb_node *inner = rb_kid(y, dir);
	struct rb_node *parent = rb_parent(x);

	*rb_slot(x, !dir) = inner;
	if (inner)
		rb_set_parent(inner, x);
	*rb_slot(y, dir) = x;
	rb_set_parent(y, parent);
	rb_relink(parent, x, y, root);
	rb_set_parent(x, y);
}

void rb_insert_color(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *parent, *gparent, *uncle;
	int dir;

	while ((parent = rb_parent(node)) && rb_is_red(parent)) {
		/* A red parent is never the root, so the grandparent exists. */
		gparent = rb_parent(parent);
		dir = parent == gparent->rb_left ? RB_LEFT : RB_RIGHT;
		uncle = rb_kid(gparent, !dir);

		if (uncle && rb_is_red(uncle)) {
			/* Push the red pair's blackness down from gparent and
			 * continue two levels up, where a new red pair may be. */
			rb_set_color(parent, RB_BLACK);
			rb_set_color(uncle, RB_BLACK);
			rb_set_color(gparent, RB_RED);
			node = gparent;
			continue;
		}
		if (node == rb_kid(parent, !dir)) {
			/* Inner grandchild: turn it into the outer case. */
			rb_rotate(parent, dir, root);
			node = parent;
			parent = rb_parent(node);
		}
		rb_set_color(parent, RB_BLACK);
		rb_set_color(gparent, RB_RED);
		rb_rotate(gparent, !dir, root);
		break;
	}
	if (!parent)
		rb_set_color(node, RB_BLACK);
}

/*
 * Restore the black height after a black node left the path through
 * parent's dir side; node (possibly NULL) is what now sits there.
 */
static void rb_erase_fixup(struct rb_node *node, struct rb_node *parent,
			   struct rb_root *root)
{
	struct rb_node *sib;
	int dir;

	while (node != root->rb_node && rb_black_or_nil(node)) {
		dir = node == parent->rb_left ? RB_LEFT : RB_RIGHT;
		sib = rb_kid(parent, !dir);
		if (rb_is_red(sib)) {
			/* Make the sibling black so the cases below apply. */
			rb_set_color(sib, RB_BLACK);
			rb_set_color(parent, RB_RED);
			rb_rotate(parent, dir, root);
			sib = rb_kid(parent, !dir);
		}
		if (rb_black_or_nil(sib->rb_left) && rb_black_or_nil(sib->rb_right)) {
			/* Take one black off the sibling's side, move up. */
			rb_set_color(sib, RB_RED);
			node = parent;
			parent = rb_parent(node);
			continue;
		}
		if (rb_black_or_nil(rb_kid(sib, !dir))) {
			/* Only the inner nephew is red: rotate it outside. */
			rb_set_color(rb_kid(sib, dir), RB_BLACK);
			rb_set_color(sib, RB_RED);
			rb_rotate(sib, !dir, root);
			sib = rb_kid(parent, !dir);
		}
		rb_set_color(sib, rb_color(parent));
		rb_set_color(parent, RB_BLACK);
		rb_set_color(rb_kid(sib, !dir), RB_BLACK);
		rb_rotate(parent, dir, root);
		node = root->rb_node;
		break;
	}
	if (node)
		rb_set_color(node, RB_BLACK);
}

/* Unlink a node with two children by moving its successor into its place.
 * Returns the successor's old colour; child and parent say where the hole
 * is now. */
static unsigned long rb_erase_two(struct rb_node *node, struct rb_root *root,
				  struct rb_node **child, struct rb_node **parent)
{
	struct rb_node *succ = node->rb_right;
	unsigned long color;

	while (succ->rb_left)
		succ = succ->rb_left;
	color = rb_color(succ);
	*child = succ->rb_right;
	if (rb_parent(succ) == node) {
		*parent = succ;
	} else {
		*parent = rb_parent(succ);
		(*parent)->rb_left = *child;
		if (*child)
			rb_set_parent(*child, *parent);
		succ->rb_right = node->rb_right;
		rb_set_parent(node->rb_right, succ);
	}
	succ->rb_left = node->rb_left;
	rb_set_parent(node->rb_left, succ);
	rb_relink(rb_parent(node), node, succ, root);
	succ->__rb_parent_color = node->__rb_parent_color;
	return color;
}

void rb_erase(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *child, *parent;
	unsigned long color;

	if (node->rb_left && node->rb_right) {
		color = rb_erase_two(node, root, &child, &parent);
	} else {
		child = node->rb_left ? node->rb_left : node->rb_right;
		parent = rb_parent(node);
		color = rb_color(node);
		if (child)
			rb_set_parent(child, parent);
		rb_relink(parent, node, child, root);
	}
	if (color == RB_BLACK)
		rb_erase_fixup(child, parent, root);
}

static struct rb_node *rb_extreme(struct rb_node *n, int dir)
{
	if (!n)
		return NULL;
	while (rb_kid(n, dir))
		n = rb_kid(n, dir);
	return n;
}

struct rb_node *rb_first(const struct rb_root *root)
{
	return rb_extreme(root->rb_node, RB_LEFT);
}

struct rb_node *rb_last(const struct rb_root *root)
{
	return rb_extreme(root->rb_node, RB_RIGHT);
}

/* In-order neighbour in direction dir: the extreme of the dir subtree, or
 * the first ancestor reached from its !dir side. */
static struct rb_node *rb_step(const struct rb_node *node, int dir)
{
	struct rb_node *n = (struct rb_node *)node;
	struct rb_node *parent;

	if (RB_EMPTY_NODE(n))
		return NULL;
	if (rb_kid(n, dir))
		return rb_extreme(rb_kid(n, dir), !dir);
	while ((parent = rb_parent(n)) && n == rb_kid(parent, dir))
		n = parent;
	return parent;
}

struct rb_node *rb_next(const struct rb_node *node)
{
	return rb_step(node, RB_RIGHT);
}

struct rb_node *rb_prev(const struct rb_node *node)
{
	return rb_step(node, RB_LEFT);
}
