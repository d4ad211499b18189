/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kmain: bring the machine up, read the command line, run the suite. */
#include <kfront/acpi.h>
#include <kfront/arch.h>
#include <kfront/bootinfo.h>
#include <kfront/drivers.h>
#include <kfront/exit.h>
#include <kfront/mm.h>
#include <kfront/netserve.h>
#include <kfront/panic.h>
#include <kfront/params.h>
#include <kfront/printk.h>
#include <kfront/string.h>
#include <kfront/suite.h>
#include <kfront/version.h>

#define MBI_MAX_SIZE	(1u << 20)	/* sanity cap on the loader's data */
#define FW_CFG_CMDLINE	"opt/kfront/cmdline"

struct cmdline kfront_cmdline;
static struct bootinfo bootinfo;

/* GRUB's command line, then the one `kfront boot` passes through fw_cfg. */
static void gather_cmdline(char *buf, size_t len)
{
	char extra[CMDLINE_MAX];
	size_t n = strnlen(bootinfo.cmdline, len - 1);

	memcpy(buf, bootinfo.cmdline, n);
	buf[n] = '\0';
	if (fw_cfg_read_file(FW_CFG_CMDLINE, extra, sizeof(extra)) > 0)
		snprintf(buf + n, len - n, "%s%s", n ? " " : "", extra);
}

static void parse_cmdline(void)
{
	static char full[CMDLINE_MAX];
	char err[600];

	gather_cmdline(full, sizeof(full));
	printk("kfront: command line: %s\n", full);
	if (cmdline_parse(&kfront_cmdline, full, kfront_params, kfront_nparams,
			  err, sizeof(err))) {
		printk("kfront: error: %s\n", err);
		kernel_exit(EXIT_USAGE);
	}
	exit_set_mode((enum exit_mode)cmdline_uint(&kfront_cmdline, "exit",
						   EXIT_MODE_AUTO));
}

static void read_bootinfo(u32 magic, u64 mbi_pa)
{
	char err[160];
	const void *mbi = arch_early_phys(mbi_pa);

	if (magic != MB2_BOOTLOADER_MAGIC)
		panic("not started by a multiboot2 loader (magic 0x%x)", magic);
	if (!mbi || mb2_parse(mbi, MBI_MAX_SIZE, &bootinfo, err, sizeof(err)))
		panic("bad multiboot2 information at 0x%llx: %s",
		      (unsigned long long)mbi_pa, mbi ? err : "not mapped");
}

static void report_memory(void)
{
	struct page_stats st;

	page_alloc_stats(&st);
	printk("kfront: memory: %llu MiB usable in %u map entries%s\n",
	       (unsigned long long)(st.total_pages >> (20 - PAGE_SHIFT)),
	       bootinfo.nmmap, bootinfo.mmap_truncated ? " (truncated)" : "");
	if (st.ignored_bytes)
		printk("kfront: memory: %llu MiB above 4 GiB left unused\n",
		       (unsigned long long)(st.ignored_bytes >> 20));
}

void kmain(u32 magic, u64 mbi_pa)
{
	bool serial = uart_init(115200);

	arch_early_init();
	printk("kfront %s (%s) booting%s\n", KFRONT_VERSION, KFRONT_GIT,
	       serial ? "" : " without a UART");
	read_bootinfo(magic, mbi_pa);
	fw_cfg_probe(arch_hypervisor_present());
	printk("kfront: loaded by %s, %s firmware\n",
	       bootinfo.loader[0] ? bootinfo.loader : "unknown loader",
	       bootinfo.efi ? "UEFI" : "BIOS");
	parse_cmdline();
	arch_mm_init(&bootinfo);
	report_memory();
	acpi_init(&bootinfo);
	if (cmdline_get(&kfront_cmdline, "crash")->set)
		crash_inject(cmdline_str(&kfront_cmdline, "crash", ""));
	if (cmdline_get(&kfront_cmdline, "serve")->set)
		kernel_exit(netserve_main(&kfront_cmdline));
	kernel_exit(suite_main(&kfront_cmdline, &bootinfo));
}
