/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Intrusive red-black trees: the node lives inside the keyed object, the
 * caller does the ordered descent and links the node, the tree rebalances. */
#ifndef KFRONT_RBTREE_H
#define KFRONT_RBTREE_H

#include <kfront/compiler.h>
#include <kfront/types.h>

#define RB_RED		0UL
#define RB_BLACK	1UL

/*
 * The parent pointer and the colour share one word: nodes are at least
 * word aligned, so bit 0 of the parent address is free for the colour.
 */
struct rb_node {
	unsigned long __rb_parent_color;
	struct rb_node *rb_right;
	struct rb_node *rb_left;
} __aligned(sizeof(long));

struct rb_root {
	struct rb_node *rb_node;
};

/* A root that also remembers its smallest node, so "pick the leftmost"
 * (the run queue's hottest question) costs one load. */
struct rb_root_cached {
	struct rb_root rb_root;
	struct rb_node *rb_leftmost;
};

#define RB_ROOT			((struct rb_root) { NULL })
#define RB_ROOT_CACHED		((struct rb_root_cached) { { NULL }, NULL })
#define rb_entry(ptr, type, member)	container_of(ptr, type, member)
#define rb_entry_safe(ptr, type, member) \
	({ __typeof__(ptr) ____p = (ptr); \
	   ____p ? rb_entry(____p, type, member) : NULL; })

static inline struct rb_node *rb_parent(const struct rb_node *n)
{
	return (struct rb_node *)(n->__rb_parent_color & ~3UL);
}

static inline unsigned long rb_color(const struct rb_node *n)
{
	return n->__rb_parent_color & 1UL;
}

static inline bool rb_is_red(const struct rb_node *n)
{
	return rb_color(n) == RB_RED;
}

static inline bool rb_is_black(const struct rb_node *n)
{
	return rb_color(n) == RB_BLACK;
}

/* A node that is in no tree points at itself. */
static inline bool RB_EMPTY_NODE(const struct rb_node *n)
{
	return n->__rb_parent_color == (unsigned long)n;
}

static inline void RB_CLEAR_NODE(struct rb_node *n)
{
	n->__rb_parent_color = (unsigned long)n;
}

static inline bool RB_EMPTY_ROOT(const struct rb_root *root)
{
	return root->rb_node == NULL;
}

/* Hang a new red leaf at *link below parent; rb_insert_color() repairs. */
static inline void rb_link_node(struct rb_node *node, struct rb_node *parent,
				struct rb_node **link)
{
	node->__rb_parent_color = (unsigned long)parent | RB_RED;
	node->rb_left = NULL;
	node->rb_right = NULL;
	*link = node;
}

void rb_insert_color(struct rb_node *node, struct rb_root *root);
void rb_erase(struct rb_node *node, struct rb_root *root);

struct rb_node *rb_first(const struct rb_root *root);
struct rb_node *rb_last(const struct rb_root *root);
struct rb_node *rb_next(const struct rb_node *node);
struct rb_node *rb_prev(const struct rb_node *node);

static inline void rb_insert_color_cached(struct rb_node *node,
					  struct rb_root_cached *root,
					  bool leftmost)
{
	if (leftmost)
		root->rb_leftmost = node;
	rb_insert_color(node, &root->rb_root);
}

static inline void rb_erase_cached(struct rb_node *node,
				   struct rb_root_cached *root)
{
	if (root->rb_leftmost == node)
		root->rb_leftmost = rb_next(node);
	rb_erase(node, &root->rb_root);
}

static inline struct rb_node *rb_first_cached(const struct rb_root_cached *root)
{
	return root->rb_leftmost;
}

#endif
