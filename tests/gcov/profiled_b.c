/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A second profiled object: libgcov's summary spans all objects. */
int profiled_b(int x)
{
	int r = 0;

	switch (x & 3) {
	case 0:
		r = x;
		break;
	case 1:
		r = -x;
		break;
	default:
		for (int i = 0; i < x; i++)
			r += i;
	}
	return r;
}
