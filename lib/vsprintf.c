/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vsnprintf for the kernel: the subset of C99 printf the kernel uses.
 * Conversions: d i u x X o c s p %, flags '-' '0' '+' ' ' '#', width and
 * precision (also '*'), length modifiers hh h l ll z t j. */
#include <kfront/printk.h>
#include <kfront/string.h>

struct outbuf {
	char *buf;
	size_t size;
	size_t len;	/* characters that would have been written */
};

struct spec {
	bool left, zero, plus, space, alt;
	int width;
	int prec;	/* -1: none */
};

static void put(struct outbuf *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void pad(struct outbuf *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

static void put_str(struct outbuf *o, const char *s, const struct spec *sp)
{
	size_t n;

	if (!s)
		s = "(null)";
	n = sp->prec >= 0 ? strnlen(s, (size_t)sp->prec) : strlen(s);
	if (!sp->left)
		pad(o, ' ', sp->width - (int)n);
	for (size_t i = 0; i < n; i++)
		put(o, s[i]);
	if (sp->left)
		pad(o, ' ', sp->width - (int)n);
}

/* Emit an integer given as magnitude plus sign, honouring every flag. */
static void put_num(struct outbuf *o, u64 v, bool neg, unsigned base,
		    bool upper, const struct spec *sp)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	char sign = 0;
	const char *prefix = "";
	int n = 0, zeros, total;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	if (sp->prec == 0 && n == 1 && tmp[0] == '0')
		n = 0;	/* C: %.0d of 0 prints nothing */
	if (neg)
		sign = '-';
	else if (sp->plus)
		sign = '+';
	else if (sp->space)
		sign = ' ';
	if (sp->alt && base == 16 && n)
		prefix = upper ? "0X" : "0x";
	else if (sp->alt && base == 8 && (n == 0 || tmp[n - 1] != '0'))
		prefix = "0";
	zeros = sp->prec > n ? sp->prec - n : 0;
	total = n + zeros + (sign ? 1 : 0) + (int)strlen(prefix);
	if (sp->zero && !sp->left && sp->prec < 0 && sp->width > total) {
		zeros += sp->width - total;
		total = sp->width;
	}
	if (!sp->left)
		pad(o, ' ', sp->width - total);
	if (sign)
		put(o, sign);
	for (const char *p = prefix; *p; p++)
		put(o, *p);
	pad(o, '0', zeros);
	while (n)
		put(o, tmp[--n]);
	if (sp->left)
		pad(o, ' ', sp->width - total);
}

static const char *parse_spec(const char *f, struct spec *sp, va_list *ap)
{
	memset(sp, 0, sizeof(*sp));
	sp->prec = -1;
	for (;; f++) {
		if (*f == '-')
			sp->left = true;
		else if (*f == '0')
			sp->zero = true;
		else if (*f == '+')
			sp->plus = true;
		else if (*f == ' ')
			sp->space = true;
		else if (*f == '#')
			sp->alt = true;
		else
			break;
	}
	if (*f == '*') {
		sp->width = va_arg(*ap, int);
		if (sp->width < 0) {
			sp->left = true;
			sp->width = -sp->width;
		}
		f++;
	}
	while (*f >= '0' && *f <= '9')
		sp->width = sp->width * 10 + (*f++ - '0');
	if (*f == '.') {
		f++;
		sp->prec = 0;
		if (*f == '*') {
			sp->prec = va_arg(*ap, int);
			if (sp->prec < 0)
				sp->prec = -1;
			f++;
		}
		while (*f >= '0' && *f <= '9')
			sp->prec = sp->prec * 10 + (*f++ - '0');
	}
	return f;
}

/* Length modifier: returns the argument size class (0 int, 1 long/ll). */
static const char *parse_len(const char *f, int *lmod)
{
	*lmod = 0;
	if (f[0] == 'h') {
		*lmod = f[1] == 'h' ? -2 : -1;
		return f + (f[1] == 'h' ? 2 : 1);
	}
	if (f[0] == 'l' || f[0] == 'z' || f[0] == 't' || f[0] == 'j') {
		*lmod = 1;
		return f + ((f[0] == 'l' && f[1] == 'l') ? 2 : 1);
	}
	return f;
}

static u64 arg_unsigned(va_list *ap, int lmod)
{
	if (lmod == 1)
		return va_arg(*ap, unsigned long);
	if (lmod == -1)
		return (u16)va_arg(*ap, unsigned int);
	if (lmod == -2)
		return (u8)va_arg(*ap, unsigned int);
	return va_arg(*ap, unsigned int);
}

static s64 arg_signed(va_list *ap, int lmod)
{
	if (lmod == 1)
		return va_arg(*ap, long);
	if (lmod == -1)
		return (s16)va_arg(*ap, int);
	if (lmod == -2)
		return (s8)va_arg(*ap, int);
	return va_arg(*ap, int);
}

static void convert(struct outbuf *o, char c, struct spec *sp, int lmod,
		    va_list *ap)
{
	s64 sv;

	switch (c) {
	case 'd':
	case 'i':
		sv = arg_signed(ap, lmod);
		put_num(o, sv < 0 ? -(u64)sv : (u64)sv, sv < 0, 10, false, sp);
		break;
	case 'u':
		put_num(o, arg_unsigned(ap, lmod), false, 10, false, sp);
		break;
	case 'x':
	case 'X':
		put_num(o, arg_unsigned(ap, lmod), false, 16, c == 'X', sp);
		break;
	case 'o':
		put_num(o, arg_unsigned(ap, lmod), false, 8, false, sp);
		break;
	case 'p':
		sp->alt = true;
		put_num(o, (uintptr)va_arg(*ap, void *), false, 16, false, sp);
		break;
	case 'c': {
		char ch[2] = { (char)va_arg(*ap, int), 0 };

		sp->prec = 1;
		put_str(o, ch, sp);
		break;
	}
	case 's':
		put_str(o, va_arg(*ap, const char *), sp);
		break;
	default:	/* '%' and unknown conversions print themselves */
		put(o, c);
		break;
	}
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct outbuf o = { buf, size, 0 };
	struct spec sp;
	va_list aq;
	int lmod;

	va_copy(aq, ap);
	while (*fmt) {
		if (*fmt != '%') {
			put(&o, *fmt++);
			continue;
		}
		fmt = parse_spec(fmt + 1, &sp, &aq);
		fmt = parse_len(fmt, &lmod);
		if (!*fmt)
			break;
		convert(&o, *fmt++, &sp, lmod, &aq);
	}
	va_end(aq);
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
