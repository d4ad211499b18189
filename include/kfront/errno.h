/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Error numbers, and the one error convention of the kernel C code:
 *  - A function that can fail returns 0 (or a count, or a pointer) on
 *    success and a negative errno (-EINVAL, -ENOMEM, ...) on failure, as
 *    in Linux; NULL stands for failure only where a pointer is returned.
 *    A lookup that answers "which index" may return -1 for "none": that
 *    is an answer, not an error.
 *  - A dropped packet is no error of the caller: it is counted under an
 *    enum net_drop_reason (kernel/net), one counter per reason.
 *  - Exit statuses (EXIT_*, kfront/exit.h) exist only at the top: kmain,
 *    suite_main and netserve_main turn -errno into one, nothing below
 *    them returns one.
 *  - A message for the user goes into the caller's err buffer (err,
 *    errlen) or is printed where the error is found, never both.
 */
#ifndef KFRONT_ERRNO_H
#define KFRONT_ERRNO_H

#define EPERM		1
#define ENOENT		2
#define EIO		5
#define E2BIG		7
#define EAGAIN		11
#define ENOMEM		12
#define EFAULT		14
#define EBUSY		16
#define EEXIST		17
#define ENODEV		19
#define EINVAL		22
#define ENOSPC		28
#define EPIPE		32
#define ERANGE		34
#define ENOSYS		38
#define EMSGSIZE	90
#define EPROTO		71
#define EOPNOTSUPP	95
#define EADDRINUSE	98
#define ENETUNREACH	101
#define ECONNRESET	104
#define ENOBUFS		105
#define EISCONN		106
#define ENOTCONN	107
#define ETIMEDOUT	110
#define ECONNREFUSED	111
#define EALREADY	114
#define EINPROGRESS	115

#endif
