/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The variant table of a one-variant host program (kfront-host-NAME):
 * KFRONT_HOST_VARIANT names the descriptor its blob exports. */
#include <kfront/variant.h>

extern const struct variant_desc KFRONT_HOST_VARIANT;

const struct variant_desc *const kfront_variants[] = {
	&KFRONT_HOST_VARIANT,
	NULL,
};
const u32 kfront_nvariants = 1;
