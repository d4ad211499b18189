/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Error numbers: functions return 0 or a negative errno, as in Linux. */
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
