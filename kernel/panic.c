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

/*
 * Name first, so a monitor can take it as the test case id; vector and
 * error_code only for a CPU exception (payload integers are unsigned,
 * docs/record-format.md).
 */
static void emit_record(const struct panic_report *r, const char *sym)
{
	static struct record rec;

	rec_begin(&rec, "panic");
	rec_str(&rec, "name", r->name);
	if (r->cpu_exception) {
		rec_u64(&rec, "vector", r->vector);
		rec_hex(&rec, "error_code", r->error_code);
	}
	rec_hex(&rec, "rip", r->rip);
	if (r->cpu_exception) {	/* panic() has no fault address or frame */
		rec_hex(&rec, "cr2", r->cr2);
		rec_hex(&rec, "rsp", r->rsp);
	}
	rec_str(&rec, "sym", sym);
	rec_str(&rec, "msg", r->msg);
	rec_emit(&rec);
}

/* "function+0xoff" of the report's RIP, or "?". The offset is always
 * from the real RIP, also when the lookup used the call instruction. */
static void format_sym(const struct panic_report *r, char *sym, size_t len)
{
	u64 at = r->rip_is_return_address ? r->rip - 1 : r->rip;
	u64 off = 0;
	const char *name = ksym_lookup(at, &off);

	if (!name) {
		snprintf(sym, len, "?");
		return;
	}
	off += r->rip - at;
	snprintf(sym, len, "%s+0x%llx", name, (unsigned long long)off);
}

void panic_report_emit(const struct panic_report *r)
{
	char sym[96];

	if (++panic_depth > 1) {
		/* A fault while reporting a fault: say so and stop. */
		printk("\nKFRONT PANIC: nested fault while reporting\n");
		kernel_exit(EXIT_PANIC);
	}
	format_sym(r, sym, sizeof(sym));
	printk("\n======== KFRONT PANIC ========\n");
	if (r->cpu_exception)
		printk("exception: vector %u, %s, error code 0x%llx\n",
		       r->vector, r->name, (unsigned long long)r->error_code);
	printk("message:   %s\n", r->msg);
	printk("RIP: %016llx <%s>%s\n", (unsigned long long)r->rip, sym,
	       r->rip_is_return_address ? " (return address)" : "");
	if (r->cpu_exception)
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
	r.name = "panic";
	r.rip = (u64)__builtin_return_address(0);
	r.rip_is_return_address = true;
	panic_report_emit(&r);
	kernel_exit(EXIT_PANIC);
}
