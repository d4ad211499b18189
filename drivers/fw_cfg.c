/* SPDX-License-Identifier: GPL-2.0-or-later */
/* QEMU fw_cfg over I/O ports: used to detect QEMU (so isa-debug-exit is
 * only ever written under QEMU) and to read extra kernel arguments that
 * `kfront boot` passes with -fw_cfg name=opt/kfront/cmdline. */
#include <asm/x86.h>
#include <kfront/drivers.h>
#include <kfront/string.h>

#define FW_CFG_PORT_SEL		0x510
#define FW_CFG_PORT_DATA	0x511
#define FW_CFG_SIGNATURE	0x0000
#define FW_CFG_FILE_DIR		0x0019

struct fw_cfg_file {	/* big-endian on the wire */
	u32 size;
	u16 select;
	u16 reserved;
	char name[56];
};

static bool present;

static void fw_cfg_read(void *buf, size_t len)
{
	u8 *p = buf;

	for (size_t i = 0; i < len; i++)
		p[i] = inb(FW_CFG_PORT_DATA);
}

static u32 be32_to_cpu(u32 v)
{
	return __builtin_bswap32(v);
}

bool fw_cfg_probe(bool hypervisor)
{
	char sig[4];

	if (!hypervisor)
		return false;
	outw(FW_CFG_PORT_SEL, FW_CFG_SIGNATURE);
	fw_cfg_read(sig, sizeof(sig));
	present = !memcmp(sig, "QEMU", 4);
	return present;
}

bool fw_cfg_present(void)
{
	return present;
}

int fw_cfg_read_file(const char *name, char *buf, size_t len, size_t *size_out)
{
	u32 count;

	if (!present || !len)
		return -ENODEV;
	outw(FW_CFG_PORT_SEL, FW_CFG_FILE_DIR);
	fw_cfg_read(&count, sizeof(count));
	count = be32_to_cpu(count);
	for (u32 i = 0; i < count && i < 4096; i++) {
		struct fw_cfg_file f;
		u32 size;

		fw_cfg_read(&f, sizeof(f));
		f.name[sizeof(f.name) - 1] = '\0';
		if (strcmp(f.name, name))
			continue;
		size = be32_to_cpu(f.size);
		*size_out = size;
		if (size >= len)
			return -E2BIG;
		outw(FW_CFG_PORT_SEL, __builtin_bswap16(f.select));
		fw_cfg_read(buf, size);
		buf[size] = '\0';
		return (int)size;
	}
	return -ENOENT;
}
