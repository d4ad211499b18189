/* SPDX-License-Identifier: GPL-2.0-or-later */
/* panic() and the panic report: text a person can read on the console,
 * plus a panic record so collectors see it too. */
#include <kfront/exit.h>
#include <kfront/ksyms.h>
#include <kfront/panic.h>
#include <kfront/panic_report.h>
#include <kfront/printk.h>
#include <kfront/record.h>

static int panic_depth;

static void emit_record(const struct panic_report *r, const char *sym)
{
	static struct record rec;

	rec_begin(&rec, "panic");
	rec_s64(&rec, "vector", r->vector);
	rec_str(&rec, "name", r->name);
	rec_hex(&rec, "error_code", r->error_code);
	rec_hex(&rec, "rip", r->rip);
	rec_hex(&rec, "cr2", r->cr2);
	rec_hex(&rec, "rsp", r->rsp);
	rec_str(&rec, "sym", sym);
	rec_str(&rec, "msg", r->msg);
	rec_emit(&rec);
}

void panic_report_emit(const struct panic_report *r)
{
	char sym[96] = "?";
	u64 off = 0;
	const char *name;

	if (++panic_depth > 1) {
		/* A fault while reporting a fault: say so and stop. */
		printk("\nKFRONT PANIC: nested fault while reporting\n");
		kernel_exit(EXIT_PANIC);
	}
	name = ksym_lookup(r->rip, &off);
	if (name)
		snprintf(sym, sizeof(sym), "%s+0x%llx", name,
			 (unsigned long long)off);
	printk("\n======== KFRONT PANIC ========\n");
	if (r->vector >= 0)
		printk("exception: vector %d, %s, error code 0x%llx\n",
		       r->vector, r->name, (unsigned long long)r->error_code);
	printk("message:   %s\n", r->msg);
	printk("RIP: %016llx <%s>\n", (unsigned long long)r->rip, sym);
	printk("CR2: %016llx  RSP: %016llx\n", (unsigned long long)r->cr2,
	       (unsigned long long)r->rsp);
	if (r->regs)
		arch_dump_regs(r->regs);
	printk("==============================\n");
	emit_record(r, sym);
}

void panic(const char *fmt, ...)
{
	struct panic_report r = { 0 };
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r.msg, sizeof(r.msg), fmt, ap);
	va_end(ap);
	r.vector = -1;
	r.name = "kernel panic";
	r.rip = (u64)__builtin_return_address(0);
	panic_report_emit(&r);
	kernel_exit(EXIT_PANIC);
}
