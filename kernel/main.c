/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kmain: bring the machine up, read the command line, run the suite. */
#include <kfront/acpi.h>
#include <kfront/arch.h>
#include <kfront/bootinfo.h>
#include <kfront/drivers.h>
#include <kfront/errno.h>
#include <kfront/exit.h>
#include <kfront/mm.h>
#include <kfront/netserve.h>
#include <kfront/panic.h>
#include <kfront/params.h>
#include <kfront/printk.h>
#include <kfront/string.h>
#include <kfront/suite.h>
#include <kfront/text_placement.h>
#include <kfront/version.h>

#define MBI_MAX_SIZE	(1u << 20)	/* sanity cap on the loader's data */
#define FW_CFG_CMDLINE	"opt/kfront/cmdline"

struct cmdline kfront_cmdline;
static struct bootinfo bootinfo;
/* The one buffer the boot-time parsers fill with their message. */
static char boot_err[CMDLINE_ERR_MAX];

/* Print "kfront: error: ..." and stop with "bad command line". */
static void __noreturn __printf(1, 2) usage_error(const char *fmt, ...)
{
	va_list ap;

	printk("kfront: error: ");
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
	printk("\n");
	kernel_exit(EXIT_USAGE);
}

/*
 * The extra arguments `kfront boot` passes through fw_cfg. Their length is
 * needed even when they do not fit: a line that is too long is an error
 * naming its length, never silently dropped.
 */
static const char *read_fw_cfg_args(size_t *len)
{
	static char extra[CMDLINE_MAX];
	size_t size = 0;
	int ret = fw_cfg_read_file(FW_CFG_CMDLINE, extra, sizeof(extra), &size);

	*len = size;
	if (ret == -E2BIG)
		return NULL;
	if (ret < 0) {		/* no fw_cfg, or no such file: no extra args */
		*len = 0;
		return "";
	}
	return extra;
}

static void check_cmdline_length(size_t grub_len, size_t fw_cfg_len)
{
	size_t total = grub_len + (grub_len && fw_cfg_len ? 1 : 0) + fw_cfg_len;

	if (total < CMDLINE_MAX)
		return;
	usage_error("command line too long: %zu bytes (boot loader %zu, fw_cfg %zu), the limit is %d",
		    total, grub_len, fw_cfg_len, CMDLINE_MAX - 1);
}

/*
 * A refused command line as given, on one line: a byte outside printable
 * ASCII, or a backslash, is written \xNN. Written raw, a line break in
 * it could start a line that reads as a result record.
 */
static void echo_as_given(const char *s, size_t len)
{
	size_t i = 0, run;

	while (i < len) {
		for (run = 0; i + run < len && run < 256; run++) {
			unsigned char c = (unsigned char)s[i + run];

			if (c < 0x20 || c > 0x7e || c == '\\')
				break;
		}
		if (run) {
			printk("%.*s", (int)run, s + i);
			i += run;
		} else {
			printk("\\x%02x", (unsigned char)s[i++]);
		}
	}
}

/* GRUB's command line sets defaults; the one `kfront boot` passes
 * through fw_cfg comes second and overrides them key by key. */
static void parse_cmdline(void)
{
	size_t fw_cfg_len;
	const char *extra = read_fw_cfg_args(&fw_cfg_len);

	check_cmdline_length(bootinfo.cmdline_len, fw_cfg_len);
	if (cmdline_init(&kfront_cmdline, kfront_params, kfront_nparams,
			 boot_err, sizeof(boot_err)) ||
	    cmdline_add(&kfront_cmdline, bootinfo.cmdline, "boot loader's command line",
			boot_err, sizeof(boot_err)) ||
	    cmdline_add_bytes(&kfront_cmdline, extra, fw_cfg_len,
			      "fw_cfg command line", boot_err, sizeof(boot_err))) {
		printk("kfront: command line: ");
		echo_as_given(bootinfo.cmdline, strlen(bootinfo.cmdline));
		if (bootinfo.cmdline[0] && fw_cfg_len)
			printk(" ");
		echo_as_given(extra, fw_cfg_len);
		printk("\n");
		usage_error("%s", boot_err);
	}
	printk("kfront: command line: %s\n", kfront_cmdline.text);
	exit_set_mode((enum exit_mode)cmdline_uint(&kfront_cmdline, "exit"));
	if (params_check_mode(&kfront_cmdline, boot_err, sizeof(boot_err)))
		usage_error("%s", boot_err);
}

static void read_bootinfo(u32 magic, u64 mbi_pa)
{
	const void *mbi = arch_early_phys(mbi_pa);

	if (magic != MB2_BOOTLOADER_MAGIC)
		panic("not started by a multiboot2 loader (magic 0x%x)", magic);
	if (!mbi || mb2_parse(mbi, MBI_MAX_SIZE, &bootinfo, boot_err,
			      sizeof(boot_err)))
		panic("bad multiboot2 information at 0x%llx: %s",
		      (unsigned long long)mbi_pa, mbi ? boot_err : "not mapped");
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
	if (text_pages_choose(&kfront_cmdline, boot_err, sizeof(boot_err)))
		usage_error("%s", boot_err);
	arch_mm_init(&bootinfo);
	report_memory();
	if (text_placement_apply(&kfront_cmdline, boot_err, sizeof(boot_err)))
		usage_error("%s", boot_err);
	acpi_init(&bootinfo);
	if (cmdline_has(&kfront_cmdline, "crash"))
		crash_inject(cmdline_str(&kfront_cmdline, "crash"));
	if (cmdline_has(&kfront_cmdline, "serve"))
		kernel_exit(netserve_main(&kfront_cmdline));
	kernel_exit(suite_main(&kfront_cmdline, &bootinfo));
}
