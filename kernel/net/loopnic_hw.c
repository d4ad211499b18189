/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The hardware side of the loopback NIC: walks the TX ring on a doorbell,
 * DMAs each frame into the next RX buffer and raises an interrupt. */
#include <kfront/compiler.h>
#include <kfront/slab.h>
#include <kfront/string.h>
#include "ring_nic.h"

struct loopnic_hw {
	u64 regs[RNIC_NR_REGS];
	void (*irq)(void *arg);
	void *irq_arg;
};

static struct rnic_desc *ring(struct loopnic_hw *hw, enum rnic_reg base)
{
	return (struct rnic_desc *)(uintptr)hw->regs[base];
}

/* Copies one frame into the RX ring; false if no buffer was posted. */
static bool loopnic_deliver(struct loopnic_hw *hw, const struct rnic_desc *td)
{
	struct rnic_desc *rx = ring(hw, RNIC_REG_RX_BASE);
	u64 head = hw->regs[RNIC_REG_RX_HEAD];
	struct rnic_desc *rd = &rx[head];

	if (unlikely(!(rd->flags & RNIC_DESC_OWN))) {
		hw->regs[RNIC_REG_MISSED]++;
		return false;
	}
	if (unlikely(td->len > rd->buf_len)) {
		rd->len = 0;
		rd->status = RNIC_STAT_DD | RNIC_STAT_ERR;
	} else {
		memcpy((void *)(uintptr)rd->addr,
		       (const void *)(uintptr)td->addr, td->len);
		rd->len = td->len;
		rd->status = RNIC_STAT_DD | RNIC_STAT_EOP;
	}
	rd->flags &= (u8)~RNIC_DESC_OWN;
	hw->regs[RNIC_REG_RX_HEAD] = (head + 1) % hw->regs[RNIC_REG_RX_LEN];
	hw->regs[RNIC_REG_ICR] |= RNIC_INT_RXT;
	return true;
}

static void loopnic_tx_doorbell(struct loopnic_hw *hw)
{
	struct rnic_desc *tx = ring(hw, RNIC_REG_TX_BASE);
	u64 len = hw->regs[RNIC_REG_TX_LEN];
	u64 head = hw->regs[RNIC_REG_TX_HEAD];

	if (unlikely(!(hw->regs[RNIC_REG_CTRL] & RNIC_CTRL_EN) || !tx))
		return;
	while (head != hw->regs[RNIC_REG_TX_TAIL]) {
		struct rnic_desc *td = &tx[head];

		if (!(td->flags & RNIC_DESC_OWN))
			break;
		loopnic_deliver(hw, td);
		td->status = RNIC_STAT_DD;
		td->flags &= (u8)~RNIC_DESC_OWN;
		head = (head + 1) % len;
		hw->regs[RNIC_REG_ICR] |= RNIC_INT_TXDW;
	}
	hw->regs[RNIC_REG_TX_HEAD] = head;
	if ((hw->regs[RNIC_REG_ICR] & hw->regs[RNIC_REG_IMS]) && hw->irq)
		hw->irq(hw->irq_arg);
}

static u64 loopnic_read(void *opaque, enum rnic_reg reg)
{
	struct loopnic_hw *hw = opaque;
	u64 v;

	if (unlikely(reg >= RNIC_NR_REGS))
		return ~0ULL;
	v = hw->regs[reg];
	if (reg == RNIC_REG_ICR)
		hw->regs[reg] = 0;
	return v;
}

static void loopnic_write(void *opaque, enum rnic_reg reg, u64 val)
{
	struct loopnic_hw *hw = opaque;

	switch (reg) {
	case RNIC_REG_TX_TAIL:
		hw->regs[reg] = val;
		loopnic_tx_doorbell(hw);
		break;
	case RNIC_REG_TX_HEAD:
	case RNIC_REG_RX_HEAD:
	case RNIC_REG_ICR:
	case RNIC_REG_MISSED:
		break;		/* read only */
	case RNIC_REG_TX_BASE:
	case RNIC_REG_RX_BASE:
		hw->regs[reg] = val;
		hw->regs[reg == RNIC_REG_TX_BASE ? RNIC_REG_TX_HEAD :
			 RNIC_REG_RX_HEAD] = 0;
		break;
	default:
		if (reg < RNIC_NR_REGS)
			hw->regs[reg] = val;
		break;
	}
}

static void loopnic_set_irq(void *opaque, void (*handler)(void *arg),
			    void *arg)
{
	struct loopnic_hw *hw = opaque;

	hw->irq = handler;
	hw->irq_arg = arg;
}

static void loopnic_free(void *opaque)
{
	kfree(opaque);
}

static const struct rnic_hw_ops loopnic_hw_ops = {
	.read = loopnic_read,
	.write = loopnic_write,
	.set_irq = loopnic_set_irq,
	.free = loopnic_free,
};

void *loopnic_hw_create(const struct rnic_hw_ops **ops)
{
	struct loopnic_hw *hw = kzalloc(sizeof(*hw));

	*ops = &loopnic_hw_ops;
	return hw;
}
